import { addDays } from '../../../lib/calendar.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { pick } from '../../../platform/seeding/vertical-data.js';
import type {
  InvoiceTypeValue,
  LedgerBookYear,
  LedgerInvoice,
  LedgerPartner,
  LedgerPaymentTerm,
} from '../model/accounting.records.js';
import type { LedgerSeeder, SeedStream } from './accounting.seed.js';
import { bookExpense, bookReimbursement, bookSalaries } from './seed/payroll.js';
import { bookBankStatement, bookDepreciation, bookPettyCash, bookYearEnd } from './seed/treasury.js';

/**
 * The calendar of a seeded ledger and its older history.
 *
 * A ledger is seeded up to its `until` day (the sandbox clock's day when it was first used): book
 * years run from 2021 to the year of that day, and records fill every month from January 2021 up to
 * it, none dated after it (only due dates are). The last WINDOW_MONTHS months, the recent window, are
 * the busiest (see seedLedger); each month before has one sale and one purchase, mostly paid, so that
 * a ledger stays small. Every month also gets its salaries; each quarter petty cash, a bank statement,
 * an expense note and its reimbursement, and depreciation; sales are credited in February and August,
 * purchases in May and November; each year ends with its estimated taxes. So any date range of a
 * month or more finds data in every list that takes one.
 *
 * The older history draws from a faker and an id source of its own (SeedStream `history`): the
 * recent window's invoices, payments and salaries come out of the main stream as they did before
 * the history existed, whatever the history adds around them.
 */

/** History starts in January of this year (or of `until`'s year when that is earlier). */
export const HISTORY_START_YEAR = 2021;

/** At most this many book years: a clock far in the future keeps the last ones. */
export const MAX_BOOK_YEARS = 10;

/** The recent window: the month of `until` and the 15 before it. */
export const WINDOW_MONTHS = 16;

export interface SeedCalendar {
  /** Records are dated up to this day (YYYY-MM-DD), documents due later excepted. */
  until: string;
  /** Payments and operations are dated up to the day before `until`. */
  lastDay: string;
  /** The highest day of the month an invoice of `until`'s month takes. */
  lastMonthDays: number;
  firstYear: number;
  lastYear: number;
  /** Every month (YYYY-MM) from January of firstYear to the month of `until`, oldest first. */
  months: string[];
  /** The recent window: the last WINDOW_MONTHS of `months` (fewer when the history is shorter). */
  window: string[];
  /** The months before the window. */
  older: string[];
  /** The day of the opening entry. */
  opening: string;
}

export { addDays };

const pad = (n: number) => String(n).padStart(2, '0');

const minDay = (a: string, b: string) => (a < b ? a : b);

/** The calendar of a ledger seeded up to `until` (YYYY-MM-DD). */
export function seedCalendar(until: string): SeedCalendar {
  const lastYear = Number(until.slice(0, 4));
  const untilMonth = Number(until.slice(5, 7));
  const firstYear =
    lastYear < HISTORY_START_YEAR ? lastYear : Math.max(HISTORY_START_YEAR, lastYear - MAX_BOOK_YEARS + 1);
  const months: string[] = [];
  for (let year = firstYear; year <= lastYear; year++) {
    for (let month = 1; month <= (year === lastYear ? untilMonth : 12); month++) {
      months.push(`${year}-${pad(month)}`);
    }
  }
  const window = months.slice(-WINDOW_MONTHS);
  return {
    until,
    lastDay: addDays(until, -1),
    lastMonthDays: Math.max(1, Number(until.slice(8, 10)) - 3),
    firstYear,
    lastYear,
    months,
    window,
    older: months.slice(0, months.length - window.length),
    opening: minDay(`${firstYear}-01-02`, until),
  };
}

/**
 * The book years of the calendar, all open and left open: vendors test with past dates (the official
 * SDK posts a financial entry dated 2022-01-01), so no seeded year is closed.
 */
export function bookYearsOf(calendar: SeedCalendar): LedgerBookYear[] {
  const years: LedgerBookYear[] = [];
  for (let year = calendar.firstYear; year <= calendar.lastYear; year++) {
    years.push({ name: String(year), start: `${year}-01-01`, end: `${year}-12-31`, closed: false });
  }
  return years;
}

/** Something that happens in the ledger's history; events run in date order. */
export interface SeedEvent {
  date: string;
  /** Same day: invoices, then refunds, then payments, then salaries, then other operations. */
  rank: number;
  /** The faker and id source the event draws from. */
  stream: SeedStream;
  run: () => void;
}

export interface PlannedInvoice {
  type: InvoiceTypeValue;
  partner: LedgerPartner;
  date: string;
  term: LedgerPaymentTerm;
  /** At most this many lines (the older history keeps invoices short). */
  maxLines?: number;
  booked?: LedgerInvoice;
}

/** A day of a month, up to the 28th (or `last`); in the first month, after the opening entry. */
export const dayOf = (calendar: SeedCalendar, faker: Faker, month: string, last = 28, first = 1): string => {
  const from = month === calendar.months[0] ? Math.max(first, Number(calendar.opening.slice(8)) + 1) : first;
  return `${month}-${pad(faker.number.int({ min: Math.min(from, last), max: last }))}`;
};

export interface HistoryPlan {
  /** The invoices of the older months, booked once the events ran (for their attachments). */
  invoices: PlannedInvoice[];
}

/**
 * Plans the older history and the operations of every month besides the recent window's invoices,
 * payments and salaries (`mainSalaries` lists the months whose salaries the main stream books).
 * Everything is drawn from the history stream.
 */
export function planHistory(
  s: LedgerSeeder,
  events: SeedEvent[],
  partners: { clients: LedgerPartner[]; suppliers: LedgerPartner[] },
  mainSalaries: ReadonlySet<string>,
): HistoryPlan {
  const { calendar } = s;
  const stream = s.history;
  s.use(stream);
  const { faker } = stream;
  const { lastDay } = calendar;
  const at = (date: string, rank: number, run: () => void) => {
    if (date <= lastDay) events.push({ date, rank, stream, run });
  };
  const employees = Object.values(s.ledger.employees).filter((e) => e.active);
  const windowStart = calendar.window[0] ?? calendar.until.slice(0, 7);

  // Older months: a sale and a purchase each, mostly paid, and a credit note now and then.
  const invoices: PlannedInvoice[] = [];
  for (const month of calendar.older) {
    for (const type of ['customer_invoice', 'supplier_invoice'] as const) {
      invoices.push({
        type,
        partner: pick(faker, type === 'customer_invoice' ? partners.clients : partners.suppliers),
        date: dayOf(calendar, faker, month),
        term: s.term(),
        maxLines: 1,
      });
    }
  }
  for (const plan of invoices) {
    events.push({
      date: plan.date,
      rank: 0,
      stream,
      run: () => {
        plan.booked = s.invoice(plan.type, plan.partner, plan.date, plan.term, undefined, plan.maxLines);
      },
    });
  }
  for (const plan of invoices) {
    const due = addDays(plan.date, plan.term.days);
    if (refundedSideOf(plan.date.slice(0, 7)) === plan.type) {
      // Corrected by a credit note a week later, the rest paid when due.
      const refundDate = addDays(plan.date, 7);
      at(refundDate, 1, () => plan.booked && s.refund(plan.booked, refundDate));
      const paidOn = due > refundDate ? due : addDays(refundDate, 1);
      at(paidOn, 2, () => plan.booked && s.payOpen(plan.booked, paidOn));
      continue;
    }
    const paidOn = addDays(due, faker.number.int({ min: -10, max: 12 }));
    const date = paidOn <= plan.date ? addDays(plan.date, 1) : paidOn;
    const roll = faker.number.float({ min: 0, max: 1 });
    const share = roll < 0.92 ? 1 : roll < 0.96 ? 0.5 : 0;
    if (share > 0) at(date, 2, () => plan.booked && s.pay(plan.booked, date, share));
  }

  for (const month of calendar.months) {
    const number = Number(month.slice(5, 7));
    const recent = month >= windowStart;
    // Salaries of the months the main stream leaves out: one employee before the recent window.
    if (!mainSalaries.has(month) && employees.length > 0) {
      const staff = recent ? employees : employees.slice(0, 1);
      let pay: ((date: string) => void) | undefined;
      at(`${month}-25`, 3, () => {
        pay = bookSalaries(s, month, staff);
      });
      at(`${month}-28`, 3, () => pay?.(`${month}-28`));
    }
    // In the recent window, credit notes of their own (a commercial gesture), paid back two weeks later.
    const side = refundedSideOf(month);
    if (side && recent) {
      const type = side === 'customer_invoice' ? 'customer_refund' : 'supplier_refund';
      const partner = pick(faker, side === 'customer_invoice' ? partners.clients : partners.suppliers);
      const date = dayOf(calendar, faker, month);
      let refund: LedgerInvoice | undefined;
      at(date, 1, () => {
        refund = s.gesture(type, partner, date);
      });
      const paidOn = addDays(date, 14);
      at(paidOn, 2, () => refund && s.payOpen(refund, paidOn));
    }
    // Each quarter: petty cash in its first month; a bank statement and an expense note, reimbursed a
    // week later, in its second; depreciation in its third; and the year's estimated taxes in December.
    if (number % 3 === 1) {
      const date = dayOf(calendar, faker, month, 27);
      at(date, 4, () => bookPettyCash(s, date, number % 6 === 1));
    } else if (number % 3 === 2) {
      at(`${month}-27`, 4, () => bookBankStatement(s, `${month}-27`, number % 6 === 5));
      const employee = recent ? employees[(number >> 1) % employees.length] : employees[0];
      if (employee) {
        const date = dayOf(calendar, faker, month, 18, 3);
        let owed = 0;
        at(date, 4, () => {
          owed = bookExpense(s, date, employee);
        });
        const reimbursed = addDays(date, 7);
        at(reimbursed, 4, () => owed > 0 && bookReimbursement(s, reimbursed, employee, owed));
      }
    } else {
      at(`${month}-28`, 4, () => bookDepreciation(s, `${month}-28`));
    }
    if (number === 12) at(`${month}-31`, 4, () => bookYearEnd(s, `${month}-31`));
  }
  return { invoices };
}

/** The side that gets a credit note in a month: sales in February and August, purchases in May and November. */
function refundedSideOf(month: string): 'customer_invoice' | 'supplier_invoice' | null {
  const number = Number(month.slice(5, 7));
  return number === 2 || number === 8
    ? 'customer_invoice'
    : number === 5 || number === 11
      ? 'supplier_invoice'
      : null;
}
