import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import { seedFolders } from '../../../src/modules/accounting/world/accounting.seed.js';
import { buildLedger, type LedgerArgs } from '../../../src/modules/accounting/world/ledgers.js';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { type AccountingSandbox, all, forConsumer, invoiceBody, line, referenceOf } from './helpers.js';

/**
 * The books go on with the clock: each business day after the first use of a folder's ledger issues
 * and receives invoices, booked with their VAT and partner lines; each is paid on a later day (on
 * time, late, in part) or left open, now and then credited first. A day's business appears as it
 * happens: a record exists from the minute it is booked and changes only at the instants its fate
 * planned (whole minutes, never after the clock), and its last_updated_on says when; the days
 * already there never change when the clock adds more; the same moves give the same bytes, whatever
 * the cache; the books add up (balanced entries, balances, outstandings, FEC).
 */

const DAY = 86_400;
const START = '2026-01-15';
const TYPES = ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'] as const;
// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Json = any;

const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);

async function advanceDays(s: TestSandbox, days: number): Promise<void> {
  const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/** The default accounting consumer, with a token of the clock's time (a token lasts 30 minutes). */
async function books(s: TestSandbox): Promise<AccountingSandbox> {
  return forConsumer(s, await sandboxToken(s), s.ids.verticalConsumers.ACCOUNTING as string);
}

/** Every invoice of every type, with its payments, of a query. */
async function invoices(a: AccountingSandbox, query = ''): Promise<Json[]> {
  const out: Json[] = [];
  for (const type of TYPES)
    out.push(...(await all(a, `/invoices/type/${type}?include_payments=true${query}`)));
  return out;
}

/** Every journal entry, drafts included, updated after an instant (the epoch: all of them). */
const entries = (a: AccountingSandbox, after = '1970-01-01T00:00:00Z') =>
  all(a, `/journal/entries?unposted_allowed=true&updated_after=${after}`);

const byId = (list: Json[]) => new Map<string, Json>(list.map((x) => [x.id, x]));
const cents = (n: number) => Math.round(n * 100);

describe('the accounting business on the clock', () => {
  it('a vendor nightly sync over 60 days with updated_after sees what was created or changed, and the books add up', async () => {
    const s = sandbox();
    let a = await books(s);
    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const seenInvoices = byId(await invoices(a));
    const seenEntries = byId(await entries(a));
    const initial = new Map(seenInvoices);
    let paidDuringSync = 0;
    for (let night = 1; night <= 60; night++) {
      await advanceDays(s, 1);
      a = await books(s);
      // Each run pulls from the run before (09:00 the day before) to now (09:00).
      const since = `${isoDay(START, night - 1)}T09:00:00.000Z`;
      const now = `${isoDay(START, night)}T09:00:00.000Z`;
      for (const invoice of await invoices(a, `&updated_after=${since}`)) {
        const before = seenInvoices.get(invoice.id);
        if (before && before.status !== 'paid' && invoice.status === 'paid') paidDuringSync += 1;
        // What a run pulls changed since the run before, and nothing after the clock.
        expect(invoice.last_updated_on > since, invoice.invoice_number).toBe(true);
        expect(invoice.last_updated_on <= now, invoice.invoice_number).toBe(true);
        seenInvoices.set(invoice.id, invoice);
      }
      for (const entry of await entries(a, since)) seenEntries.set(entry.id, entry);
    }

    // What the nightly pulls saw is exactly what the world holds.
    a = await books(s);
    const world = await invoices(a);
    const worldEntries = await entries(a);
    expect([...seenInvoices.keys()].sort()).toEqual(world.map((i) => i.id).sort());
    for (const invoice of world)
      expect(seenInvoices.get(invoice.id), invoice.invoice_number).toEqual(invoice);
    expect([...seenEntries.keys()].sort()).toEqual(worldEntries.map((e) => e.id).sort());
    for (const entry of worldEntries) expect(seenEntries.get(entry.id), entry.name).toEqual(entry);

    // The business moved: invoices issued on business days after the first morning up to the
    // clock's day, numbered by their day; some paid since, some credited, some left open past their
    // due date.
    const last = isoDay(START, 60);
    const issued = world.filter((i) => !initial.has(i.id));
    expect(issued.filter((i) => i.invoice_type === 'customer_invoice').length).toBeGreaterThan(20);
    expect(issued.filter((i) => i.invoice_type === 'supplier_invoice').length).toBeGreaterThan(10);
    for (const invoice of issued) {
      expect(invoice.invoice_date >= START && invoice.invoice_date <= last, invoice.invoice_number).toBe(
        true,
      );
      expect(invoice.invoice_number).toMatch(/^[A-Z]+\/2026\/\d{4}-\d{2}$/);
      const weekday = new Date(`${invoice.invoice_date}T00:00:00Z`).getUTCDay();
      if (!invoice.invoice_type.endsWith('_refund')) expect([0, 6]).not.toContain(weekday);
    }
    expect(paidDuringSync).toBeGreaterThan(20);
    const paid = issued.filter((i) => i.status === 'paid' && i.invoice_type.endsWith('_invoice'));
    expect(paid.length).toBeGreaterThan(10);
    for (const invoice of paid) {
      const settled = invoice.payments.reduce((t: number, p: Json) => t + cents(p.dedicated_amount), 0);
      expect(settled, invoice.invoice_number).toBe(cents(invoice.total));
      expect(invoice.last_updated_on.slice(0, 10)).toBe(invoice.payments.at(-1).payment_date);
    }
    expect(issued.filter((i) => i.invoice_type.endsWith('_refund')).length).toBeGreaterThan(0);
    const overdue = issued.filter((i) => i.status === 'posted' && i.due_date < last);
    expect(overdue.length).toBeGreaterThan(0);

    // Every entry balances; the trial balance is the sum of the entries.
    const posted = worldEntries.filter((e) => e.posted);
    const sums = new Map<string, { d: number; c: number }>();
    for (const entry of posted) {
      let debit = 0;
      let credit = 0;
      for (const item of entry.items) {
        debit += cents(item.debit);
        credit += cents(item.credit);
        const sum = sums.get(item.account_number) ?? { d: 0, c: 0 };
        sum.d += cents(item.debit);
        sum.c += cents(item.credit);
        sums.set(item.account_number, sum);
      }
      expect(debit, entry.name).toBe(credit);
    }
    const trial = (await a.post('/chart-of-accounts/balance?size=100', { accounts: [], end: '209912' })).body;
    expect(trial.items.length).toBe(trial.total);
    const balances = trial.items;
    let total = 0;
    for (const balance of balances) {
      const sum = sums.get(balance.account_number) ?? { d: 0, c: 0 };
      expect([cents(balance.debit), cents(balance.credit)], balance.account_number).toEqual([sum.d, sum.c]);
      total += cents(balance.balance);
    }
    expect(total).toBe(0);

    // The outstanding items are the open invoices (and unsettled payments), and add up to the
    // receivable and payable balances.
    const receivable = balances.find((b: Json) => b.account_number === '400000');
    const payable = balances.find((b: Json) => b.account_number === '440000');
    for (const [type, balance, sign] of [
      ['client', receivable, 1],
      ['supplier', payable, -1],
    ] as const) {
      const open = await all(a, `/outstandings?type=${type}&unposted_allowed=false`);
      const sum = open.reduce((t: number, item: Json) => t + cents(item.open_amount), 0);
      expect(sum, type).toBe(sign * cents(balance.balance));
      const openInvoices = new Set(open.map((item: Json) => item.original_document.id));
      for (const invoice of world.filter((i) =>
        i.invoice_type.startsWith(type === 'client' ? 'customer' : 'supplier'),
      )) {
        if (invoice.status === 'posted')
          expect(openInvoices.has(invoice.id), invoice.invoice_number).toBe(true);
        if (invoice.status === 'paid')
          expect(openInvoices.has(invoice.id), invoice.invoice_number).toBe(false);
      }
    }

    // The FEC of the days after the first use: one row per line of their entries, balanced.
    const fec = await a.get(`/export-fec?date_from=${START}&date_to=${last}`);
    expect(fec.status, fec.text).toBe(200);
    const inPeriod = posted.filter((e) => e.date >= START && e.date <= last);
    expect(fec.body.length).toBe(inPeriod.reduce((t, e) => t + e.items.length, 0));
    const fecDebit = fec.body.reduce((t: number, r: Json) => t + cents(r.Debit), 0);
    expect(fecDebit).toBe(fec.body.reduce((t: number, r: Json) => t + cents(r.Credit), 0));
    expect(fecDebit).toBeGreaterThan(0);
  }, 240_000);

  it('records appear as they are booked and change at their instant: a pull every 31 minutes with updated_after misses none and sees each change once', async () => {
    const s = sandbox();
    // The ledger is first used on the first morning; the vendor's first full sync runs at 21:00 on
    // 2026-02-08, then a pull every 31 minutes, at odd minutes, until past the next midnight: the 9th
    // issues an invoice before 09:00 and is paid one the full sync saw open.
    await invoices(await books(s));
    await advanceDays(s, 24.5);
    let previous = `${isoDay(START, 24)}T21:00:00.000Z`;
    let a = await books(s);
    const seenInvoices = byId(await invoices(a));
    const seenEntries = byId(await entries(a));
    const pulled = new Set<string>();
    let issued = 0;
    const changed: string[] = [];
    for (let i = 0; i < 56; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status, moved.text).toBe(200);
      const now = (moved.body as { now: string }).now;
      const today = now.slice(0, 10);
      a = await books(s);
      for (const invoice of await invoices(a, `&updated_after=${previous}`)) {
        // What changed since the pull before, at a whole minute, and nothing after the clock.
        expect(invoice.last_updated_on > previous, invoice.invoice_number).toBe(true);
        expect(invoice.last_updated_on <= now, invoice.invoice_number).toBe(true);
        expect(invoice.last_updated_on, invoice.invoice_number).toMatch(/:00\.000Z$/);
        expect(invoice.invoice_date <= today, invoice.invoice_number).toBe(true);
        for (const payment of invoice.payments) expect(payment.payment_date <= today).toBe(true);
        // Each state once.
        const state = `${invoice.id} ${invoice.last_updated_on}`;
        expect(pulled.has(state), state).toBe(false);
        pulled.add(state);
        const before = seenInvoices.get(invoice.id);
        if (!before) issued += 1;
        else if (before.status !== invoice.status) changed.push(invoice.id);
        seenInvoices.set(invoice.id, invoice);
      }
      for (const entry of await entries(a, previous)) {
        expect(entry.date <= today, entry.name).toBe(true);
        seenEntries.set(entry.id, entry);
      }
      previous = now;
    }

    // What the pulls saw is exactly what the world holds, body for body: invoices issued during the
    // pulls, and some seen open first that a later pull saw paid or credited.
    a = await books(s);
    const world = await invoices(a);
    expect([...seenInvoices.keys()].sort()).toEqual(world.map((i) => i.id).sort());
    for (const invoice of world)
      expect(seenInvoices.get(invoice.id), invoice.invoice_number).toEqual(invoice);
    const worldEntries = await entries(a);
    expect([...seenEntries.keys()].sort()).toEqual(worldEntries.map((e) => e.id).sort());
    for (const entry of worldEntries) expect(seenEntries.get(entry.id), entry.name).toEqual(entry);
    expect(issued).toBeGreaterThan(0);
    expect(changed.length).toBeGreaterThan(0);
  }, 120_000);

  it('a ledger built for a minute holds what the days booked by then, each record as it stood then, at whole minutes', () => {
    const [folder] = seedFolders(42, 'consumer-x', 9001, 1, 'BE');
    if (!folder) throw new Error('no folder');
    const args: LedgerArgs = {
      consumerid: 'consumer-x',
      integrationid: 9001,
      unifiedPartners: false,
      folder,
      until: START,
    };
    const day = isoDay(START, 4);
    const end = buildLedger(42, args, `${isoDay(START, 5)}T00:00:00.000Z`);
    const records = (ledger: LedgerRecord) => [
      ...Object.values(ledger.invoices).map((r) => ({ key: `invoice ${r.id}`, record: r })),
      ...Object.values(ledger.entries).map((r) => ({ key: `entry ${r.id}`, record: r })),
      ...Object.values(ledger.matchings).map((r) => ({
        key: `matching ${r.number}`,
        record: { ...r, last_updated_on: r.created_on },
      })),
    ];
    const instants = records(end).flatMap(({ record }) => [record.created_on, record.last_updated_on]);
    // Every instant of the days after the first morning is a whole minute.
    const living = instants.filter((t) => t > `${START}T09:00:00.000Z`);
    expect(living.length).toBeGreaterThan(10);
    expect(living.filter((t) => !t.endsWith(':00.000Z'))).toEqual([]);
    // The day holds new documents and changes of earlier ones (payments, credit notes).
    const ofDay = [...new Set(living.filter((t) => t.startsWith(day)))].sort();
    const changes = records(end).filter(
      ({ record }) => record.last_updated_on.startsWith(day) && record.created_on < `${day}T00:00:00.000Z`,
    );
    expect(ofDay.length).toBeGreaterThan(1);
    expect(changes.length).toBeGreaterThan(0);
    const minuteBefore = (t: string) => new Date(Date.parse(t) - 60_000).toISOString();
    for (const at of [`${day}T00:00:00.000Z`, ...ofDay.flatMap((t) => [minuteBefore(t), t])]) {
      const then = new Map(records(buildLedger(42, args, at)).map(({ key, record }) => [key, record]));
      const expected = records(end).filter(({ record }) => record.created_on <= at);
      expect([...then.keys()].sort(), at).toEqual(expected.map(({ key }) => key).sort());
      for (const { key, record } of expected) {
        const was = then.get(key);
        if (record.last_updated_on <= at) expect(was, `${key} at ${at}`).toEqual(record);
        else {
          // Changed since: as it stood before, its last change before `at`.
          expect(was, `${key} at ${at}`).toBeDefined();
          expect((was?.last_updated_on ?? '') <= at, `${key} at ${at}`).toBe(true);
          expect(was, `${key} at ${at}`).toEqual({ ...record, last_updated_on: was?.last_updated_on });
        }
      }
    }
  }, 60_000);

  it('the same clock moves give the same books, with a cache of one byte too; the days already there stay as they were', async () => {
    const s = sandbox();
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await invoices(await books(s));
    expect(await invoices(await books(tiny))).toEqual(before);
    await advanceDays(s, 10);
    await advanceDays(tiny, 10);
    const after = await invoices(await books(s));
    const afterEntries = await entries(await books(s));
    expect(await invoices(await books(tiny))).toEqual(after);
    expect(await entries(await books(tiny))).toEqual(afterEntries);
    expect(after.length).toBeGreaterThan(before.length);

    // Ten days more: what was there is there still, as it was unless its fate changed it since (then
    // its last_updated_on says when); nothing appears in the days already there.
    await advanceDays(s, 10);
    const day10 = `${isoDay(START, 10)}T00:00:00.000Z`;
    const later = byId(await invoices(await books(s)));
    for (const invoice of after) {
      const now = later.get(invoice.id);
      if (now.last_updated_on < day10) expect(now, invoice.invoice_number).toEqual(invoice);
      else
        expect({ ...now, status: 0, payments: 0, last_updated_on: 0 }).toEqual({
          ...invoice,
          status: 0,
          payments: 0,
          last_updated_on: 0,
        });
    }
    const known = new Set(after.map((i) => i.id));
    expect([...later.values()].filter((i) => !known.has(i.id) && i.invoice_date < isoDay(START, 10))).toEqual(
      [],
    );
    const laterEntries = byId(await entries(await books(s)));
    for (const entry of afterEntries) {
      const now = laterEntries.get(entry.id);
      // A later payment or credit note adds its matching number to the lines it settles.
      const unmatched = (e: Json) => ({
        ...e,
        items: e.items.map((i: Json) => ({ ...i, matching_numbers: 0 })),
      });
      expect(unmatched(now), entry.name).toEqual(unmatched(entry));
    }
    const knownEntries = new Set(afterEntries.map((e) => e.id));
    expect(
      [...laterEntries.values()].filter((e) => !knownEntries.has(e.id) && e.date < isoDay(START, 10)),
    ).toEqual([]);
  }, 120_000);

  it('a busier pace from a day on books more from that day, and leaves the days before as they were', async () => {
    const normal = sandbox();
    const busy = sandbox();
    // The ledgers are first used on the same morning.
    await invoices(await books(normal));
    await invoices(await books(busy));
    const from = isoDay(START, 20);
    await busy.app.services.store.transact((store) => {
      store.world.sandbox_state.pace = { changes: [{ from, pace: 'busy' }] };
    });
    await advanceDays(normal, 40);
    await advanceDays(busy, 40);
    const calm = await invoices(await books(normal));
    const hurried = await invoices(await books(busy));
    const issuedFrom = (list: Json[]) =>
      list.filter((i) => i.invoice_type.endsWith('_invoice') && i.invoice_date >= from).length;
    expect(issuedFrom(hurried)).toBeGreaterThan(issuedFrom(calm) * 1.6);
    // The days before the change: the same invoices, as they were then; those paid after it are paid
    // on the same day, by the same amount (only the numbers the bank's day gives may differ).
    const earlier = (list: Json[]) => list.filter((i) => i.invoice_date < from);
    const hurriedById = byId(hurried);
    expect(earlier(hurried).map((i) => i.id)).toEqual(earlier(calm).map((i) => i.id));
    for (const invoice of earlier(calm)) {
      const other = hurriedById.get(invoice.id);
      if (invoice.last_updated_on < `${from}T00:00:00.000Z`)
        expect(other, invoice.invoice_number).toEqual(invoice);
      const settled = (i: Json) =>
        i.payments.map((p: Json) => [p.payment_date, p.dedicated_amount, p.journal_id, p.journal_type]);
      expect(settled(other), invoice.invoice_number).toEqual(settled(invoice));
      expect([other.status, other.last_updated_on]).toEqual([invoice.status, invoice.last_updated_on]);
    }
  }, 120_000);

  it('a clock moved a year at once opens the new book year and adds its business to what a read answers, and none of it to the world', async () => {
    const s = sandbox();
    let a = await books(s);
    const first = await invoices(a);
    await advanceDays(s, 1);
    a = await books(s);
    await invoices(a);
    const oneDay = s.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(s, 364);
    a = await books(s);
    const years = await all(a, '/bookyears');
    expect(years.at(-1)).toEqual({ name: '2027', start: '2027-01-01', end: '2027-12-31', closed: false });
    const year = await invoices(a);
    expect(year.length).toBeGreaterThan(first.length + 200);
    const of2027 = year.filter((i) => i.invoice_date >= '2027-01-01');
    expect(of2027.length).toBeGreaterThan(5);
    expect(of2027.every((i) => i.invoice_number.includes('/2027/'))).toBe(true);
    // The ledger's business of the year is built, not stored: the world grew by the platform's own work.
    expect((s.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(32 * 1024);
    // A client's invoice of the new year takes the journal's first number of the year.
    const ref = await referenceOf(a);
    const body = invoiceBody(
      ref,
      'customer_invoice',
      [line(ref, { quantity: 2, unit_price: 100, vat: 'V21' })],
      {
        invoice_date: '2027-01-14',
        due_date: '2027-02-13',
      },
    );
    const booked = await a.post('/invoices', body);
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.invoice_number).toBe('VEN/2027/0001');
  }, 120_000);

  it("a client's documents keep their numbers as the days add theirs, and the days' never take them", async () => {
    const s = sandbox();
    await advanceDays(s, 5);
    let a = await books(s);
    const ref = await referenceOf(a);
    const body = invoiceBody(
      ref,
      'customer_invoice',
      [line(ref, { quantity: 3, unit_price: 80, vat: 'V21' })],
      {
        invoice_date: isoDay(START, 5),
        due_date: isoDay(START, 35),
      },
    );
    const booked = await a.post('/invoices', body);
    expect(booked.status, booked.text).toBe(200);
    // Paid by the client, in part, the next day: a matching numbered by the ledger's counter.
    await advanceDays(s, 1);
    a = await books(s);
    const method = ref.methods['Bank transfer'];
    const paid = await a.post('/invoices/payments', {
      date: isoDay(START, 6),
      payment_method_id: method,
      currency: 'EUR',
      items: [{ invoice_id: booked.body.id, amount: 100 }],
    });
    expect(paid.status, paid.text).toBe(204);
    const mine = (await a.get(`/invoices/${booked.body.id}?include_payments=true`)).body;
    await advanceDays(s, 20);
    a = await books(s);
    const now = (await a.get(`/invoices/${booked.body.id}?include_payments=true`)).body;
    expect(now).toEqual(mine);
    const world = await invoices(a);
    // The days' documents around it, numbered by their day.
    const days = world.filter((i) => /^VEN\/2026\/\d{4}-\d{2}$/.test(i.invoice_number));
    expect(days.filter((i) => i.invoice_date > isoDay(START, 6)).length).toBeGreaterThan(5);
    expect(days.some((i) => i.payments.some((p: Json) => /^M2026\d{4}-\d{2}$/.test(p.matching_number)))).toBe(
      true,
    );
    const numbers = world.map((i) => `${i.journal_id} ${i.invoice_number}`);
    expect(new Set(numbers).size).toBe(numbers.length);
    const matchings = world.flatMap((i) => i.payments.map((p: Json) => `${i.id} ${p.matching_number}`));
    expect(new Set(matchings).size).toBe(matchings.length);
    const next = await a.post('/invoices', {
      ...body,
      invoice_date: isoDay(START, 26),
      due_date: isoDay(START, 56),
    });
    expect(next.status, next.text).toBe(200);
    expect(next.body.invoice_number).not.toBe(booked.body.invoice_number);
    expect(next.body.invoice_number).toMatch(/^VEN\/2026\/\d{4}$/);
  }, 120_000);
});
