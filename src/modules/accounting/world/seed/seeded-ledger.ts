import { pick } from '../../../../platform/seeding/vertical-data.js';
import type { LedgerInvoice, LedgerPartner, LedgerRecord } from '../../model/accounting.records.js';
import { addDays, dayOf, type PlannedInvoice, planHistory, type SeedEvent } from '../accounting.history.js';
import { ARCHIVE_AFTER_DAYS, LedgerSeeder, type SeedLedgerOptions } from '../accounting.seed.js';
import { bookSalaries } from './payroll.js';
import { seedEmployees, seedPartner, seedReferenceData } from './reference-data.js';

export function seedLedger(options: SeedLedgerOptions): LedgerRecord {
  return seededLedger(options).seeder.ledger;
}

/** A payment the history planned on a day after its last: the days after the history book it. */
export interface LaterPayment {
  invoice: LedgerInvoice;
  date: string;
}

/** A seeded ledger, with what the days after its history go on from. */
export interface SeededLedger {
  seeder: LedgerSeeder;
  /** The active clients and suppliers, those the business goes on with. */
  clients: LedgerPartner[];
  suppliers: LedgerPartner[];
  /** The payments of the recent invoices that fall after the history's last day, by date. */
  later: LaterPayment[];
}

/** Seeds a folder's ledger (see seedLedger), keeping the seeder and the payments planned after it. */
export function seededLedger(options: SeedLedgerOptions): SeededLedger {
  const s = new LedgerSeeder(options);
  const { faker, calendar } = s;
  seedReferenceData(s);
  seedEmployees(s);
  const clients = Array.from({ length: 12 }, (_, i) => seedPartner(s, 'client', i));
  const suppliers = Array.from({ length: 8 }, (_, i) => seedPartner(s, 'supplier', i + 12));
  if (options.unifiedPartners) {
    const both = [seedPartner(s, 'both', 20), seedPartner(s, 'both', 21)];
    clients.push(...both);
    suppliers.push(...both);
  }
  const activeClients = clients.filter((p) => p.active);
  const activeSuppliers = suppliers.filter((p) => p.active);

  // Plan the history first, then book it in date order, so that numbers follow dates. The recent
  // window comes from the main stream: 2 or 3 sales and 1 or 2 purchases a month, salaries from its
  // fourth month to the one before `until`'s, a few credit notes, older invoices mostly paid.
  const events: SeedEvent[] = [];
  const planned: PlannedInvoice[] = [];
  const { window, lastDay } = calendar;
  const main = s.main;
  /** The first day of the window's i-th month (its last month past the end). */
  const monthStart = (i: number) => `${window[Math.min(i, window.length - 1)]}-01`;
  const lastMonth = window[window.length - 1];
  const day = (month: string) =>
    dayOf(calendar, faker, month, month === lastMonth ? calendar.lastMonthDays : 28);
  const mainSalaries = new Set(window.slice(3, -1));
  for (const month of window) {
    for (let i = faker.number.int({ min: 2, max: 3 }); i > 0; i--) {
      planned.push({
        type: 'customer_invoice',
        partner: pick(faker, activeClients),
        date: day(month),
        term: s.term(),
      });
    }
    for (let i = faker.number.int({ min: 1, max: 2 }); i > 0; i--) {
      planned.push({
        type: 'supplier_invoice',
        partner: pick(faker, activeSuppliers),
        date: day(month),
        term: s.term(),
      });
    }
    if (mainSalaries.has(month)) {
      let pay: ((date: string) => void) | undefined;
      events.push({ date: `${month}-25`, rank: 3, stream: main, run: () => (pay = bookSalaries(s, month)) });
      events.push({ date: `${month}-28`, rank: 3, stream: main, run: () => pay?.(`${month}-28`) });
    }
  }
  for (const plan of planned) {
    events.push({
      date: plan.date,
      rank: 0,
      stream: main,
      run: () => {
        plan.booked = s.invoice(plan.type, plan.partner, plan.date, plan.term);
      },
    });
  }
  // A few credit notes, each matched against the invoice it corrects; those invoices stay partly open.
  const refunded = new Set(
    faker.helpers.arrayElements(
      planned.filter((p) => p.date >= monthStart(3) && p.date < monthStart(13)),
      4,
    ),
  );
  for (const plan of refunded) {
    const date = addDays(plan.date, 7);
    if (date > lastDay) continue;
    events.push({ date, rank: 1, stream: main, run: () => plan.booked && s.refund(plan.booked, date) });
  }
  // Payments: older invoices are mostly paid, recent ones mostly open; some are paid in part. Those
  // that fall after the last day are left to the days after the history.
  const later: { plan: PlannedInvoice; date: string }[] = [];
  for (const plan of planned) {
    if (refunded.has(plan)) continue;
    const due = addDays(plan.date, plan.term.days);
    const paidOn = addDays(due, faker.number.int({ min: -10, max: 12 }));
    const date = paidOn <= plan.date ? addDays(plan.date, 1) : paidOn;
    if (date > lastDay) {
      later.push({ plan, date });
      continue;
    }
    const old = plan.date < monthStart(12);
    const roll = faker.number.float({ min: 0, max: 1 });
    const share = (old ? roll < 0.88 : roll < 0.45) ? 1 : roll < (old ? 0.96 : 0.65) ? 0.5 : 0;
    if (share > 0) {
      events.push({ date, rank: 2, stream: main, run: () => plan.booked && s.pay(plan.booked, date, share) });
    }
  }
  s.opening();
  const history = planHistory(
    s,
    events,
    { clients: activeClients, suppliers: activeSuppliers },
    mainSalaries,
  );
  bookInDateOrder(s, events, options.archive ?? true);
  s.use(main);
  planned.forEach((plan, i) => {
    if (i % 3 === 0 && plan.booked) s.attach(plan.booked);
  });
  s.use(s.history);
  history.invoices.forEach((plan, i) => {
    if (i % 6 === 0 && plan.booked) s.attach(plan.booked);
  });
  return {
    seeder: s,
    clients: activeClients,
    suppliers: activeSuppliers,
    later: later
      .flatMap(({ plan, date }) => (plan.booked ? [{ invoice: plan.booked, date }] : []))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}

/**
 * Books the events in date order (then by rank, then in the order they were planned), putting aside
 * each month the entries the seed no longer touches when `archive` is on (see LedgerSeeder.archiveBefore).
 */
function bookInDateOrder(s: LedgerSeeder, events: SeedEvent[], archive: boolean) {
  let month = '';
  events
    .map((event, index) => ({ event, index }))
    .sort(
      (a, b) => a.event.date.localeCompare(b.event.date) || a.event.rank - b.event.rank || a.index - b.index,
    )
    .forEach(({ event }) => {
      if (archive && event.date.slice(0, 7) !== month) {
        month = event.date.slice(0, 7);
        s.archiveBefore(addDays(event.date, -ARCHIVE_AFTER_DAYS));
      }
      s.use(event.stream);
      event.run();
    });
  s.unarchive();
}
