import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../src/lib/clock.js';
import { MAX_BOOK_YEARS } from '../../../src/modules/accounting/world/accounting.history.js';
import { seedFolders, seedLedger } from '../../../src/modules/accounting/world/accounting.seed.js';
import { LEGACY_UNTIL } from '../../../src/platform/datasets.js';
import { SEED, sandbox, sandboxToken } from '../../helpers.js';
import { type AccountingSandbox, accountingSandbox, all, forConsumer } from './helpers.js';

/**
 * The seeded history of the default accounting consumer: book years from 2021 to the year of the
 * sandbox clock when the ledger is first used, and records in every month up to that day, so that
 * dates of past years find data. Each test builds its own app.
 */

const INVOICE_TYPES = ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'];

/** An accounting sandbox whose manual clock starts at `start`. */
async function sandboxAt(start: string): Promise<AccountingSandbox> {
  const s = sandbox({ clock: manualClock(new Date(start)) });
  return forConsumer(s, await sandboxToken(s), s.ids.verticalConsumers.ACCOUNTING as string);
}

const clockDay = (a: AccountingSandbox) => a.app.services.clock.now().toISOString().slice(0, 10);

/** Every month (YYYY-MM) from January 2021 to the month of `day`. */
function monthsUpTo(day: string): string[] {
  const months: string[] = [];
  for (let year = 2021; year <= Number(day.slice(0, 4)); year++) {
    for (let month = 1; month <= 12; month++) {
      const key = `${year}-${String(month).padStart(2, '0')}`;
      if (key <= day.slice(0, 7)) months.push(key);
    }
  }
  return months;
}

/** Every entry of the folder (updated_after lifts the three-month limit of a date range). */
const allEntries = (a: AccountingSandbox) =>
  all(
    a,
    '/journal/entries?unposted_allowed=false&date_from=2000-01-01&date_to=2099-12-31&updated_after=1970-01-01T00:00:00Z',
  );

const ledgerJson = (a: AccountingSandbox) => JSON.stringify(a.app.services.store.world.accounting_ledgers);

describe('accounting: the seeded history', () => {
  it('has book years from 2021 to the year of the clock, all open', async () => {
    const a = await accountingSandbox();
    const year = Number(clockDay(a).slice(0, 4));
    const years = (await a.get('/bookyears')).body.items;
    expect(years.map((y: { name: string }) => y.name)).toEqual(
      Array.from({ length: year - 2020 }, (_, i) => String(2021 + i)),
    );
    for (const y of years) {
      expect(y).toEqual({
        name: y.name,
        start: `${y.name}-01-01`,
        end: `${y.name}-12-31`,
        closed: false,
      });
    }
  });

  it('finds invoices of December 2022 and entries of early 2023 by their dates', async () => {
    const a = await accountingSandbox();
    for (const type of ['customer_invoice', 'supplier_invoice']) {
      const december = await all(a, `/invoices/type/${type}?date_from=2022-12-01&date_to=2022-12-31`);
      expect(december.length, type).toBeGreaterThan(0);
      expect(december.every((i) => i.invoice_date >= '2022-12-01' && i.invoice_date <= '2022-12-31')).toBe(
        true,
      );
    }
    for (const type of ['customer_refund', 'supplier_refund']) {
      const refunds = await all(a, `/invoices/type/${type}?date_from=2022-01-01&date_to=2022-12-31`);
      expect(refunds.length, type).toBeGreaterThan(0);
      expect(refunds.map((i) => i.id)).toEqual(
        (await all(a, `/invoices/type/${type}`))
          .filter((i) => i.invoice_date.startsWith('2022'))
          .map((i) => i.id),
      );
    }
    // Most of them are paid: their payments are listed with them.
    const paid = await all(
      a,
      '/invoices/type/customer_invoice?date_from=2022-01-01&date_to=2022-12-31&payment_status=paid',
    );
    expect(paid.length).toBeGreaterThan(0);
    const payments = (await a.get(`/invoices/id/${paid[0].id}/payments`)).body.items;
    expect(payments.length).toBeGreaterThan(0);
    expect(payments.every((p: { payment_date: string }) => p.payment_date >= paid[0].invoice_date)).toBe(
      true,
    );

    const quarter = await all(
      a,
      '/journal/entries?unposted_allowed=false&date_from=2023-01-01&date_to=2023-03-31',
    );
    expect(quarter.every((e) => e.date >= '2023-01-01' && e.date <= '2023-03-31')).toBe(true);
    const journals = new Set(quarter.map((e) => e.journal_id));
    const codes = Object.fromEntries(
      (await all(a, '/journals')).map((j: { id: string; code: string }) => [j.code, j.id]),
    );
    for (const code of ['VEN', 'ACH', 'BNK', 'CSH', 'OD']) expect(journals, code).toContain(codes[code]);
    const operations = await all(a, '/miscellaneous-operation?date_from=2023-01-01&date_to=2023-01-31');
    expect(operations.length).toBeGreaterThan(0);
  });

  it('has an invoice in every month from January 2021 to the month of the clock, none after its day', async () => {
    const a = await accountingSandbox();
    const day = clockDay(a);
    const invoices = (
      await Promise.all(INVOICE_TYPES.map((type) => all(a, `/invoices/type/${type}`)))
    ).flat();
    const months = new Set(invoices.map((i) => i.invoice_date.slice(0, 7)));
    const missing = monthsUpTo(day).filter((m) => !months.has(m));
    expect(missing).toEqual([]);
    expect(invoices.every((i) => i.invoice_date <= day)).toBe(true);
    const entries = await allEntries(a);
    expect(entries.every((e) => e.date <= day)).toBe(true);
    // Every month has entries of the miscellaneous journal too (salaries, at least).
    const od = new Set(
      entries.filter((e) => e.journal_name === 'Miscellaneous operations').map((e) => e.date.slice(0, 7)),
    );
    expect(monthsUpTo(day).filter((m) => !od.has(m) && `${m}-25` < day)).toEqual([]);
  });

  it('follows a clock set in 2027 before the ledger is first used', async () => {
    const a = await sandboxAt('2027-03-10T09:00:00.000Z');
    const years = (await a.get('/bookyears')).body.items;
    expect(years.at(-1)).toEqual({ name: '2027', start: '2027-01-01', end: '2027-12-31', closed: false });
    expect(years.map((y: { closed: boolean }) => y.closed)).toEqual(years.map(() => false));
    for (const type of ['customer_invoice', 'supplier_invoice']) {
      const recent = await all(a, `/invoices/type/${type}?date_from=2027-01-01&date_to=2027-12-31`);
      expect(recent.length, type).toBeGreaterThan(0);
      expect(recent.every((i) => i.invoice_date <= '2027-03-10')).toBe(true);
    }
    const entries = await allEntries(a);
    expect(entries.some((e) => e.date >= '2027-01-01')).toBe(true);
    expect(entries.every((e) => e.date <= '2027-03-10')).toBe(true);
    // The clock moving on does not seed a ledger already built again (it may open new book years).
    const records = () =>
      Object.values(a.app.services.store.world.accounting_ledgers).map((l) =>
        JSON.stringify([l.invoices, l.entries, l.matchings]),
      );
    const built = records();
    a.app.services.clock.advance(86_400 * 400);
    await a.get('/bookyears');
    expect(records()).toEqual(built);
  });

  it('builds the same ledger for the same seed and clock, another one for another day', async () => {
    const first = await accountingSandbox();
    const second = await accountingSandbox();
    await first.get('/bookyears');
    await second.get('/bookyears');
    expect(ledgerJson(first)).not.toBe('{}');
    expect(ledgerJson(second)).toBe(ledgerJson(first));
    const later = await sandboxAt('2026-06-30T09:00:00.000Z');
    await later.get('/bookyears');
    expect(Object.keys(later.app.services.store.world.accounting_ledgers)).toEqual(
      Object.keys(first.app.services.store.world.accounting_ledgers),
    );
    expect(ledgerJson(later)).not.toBe(ledgerJson(first));
    expect(later.app.services.store.world.meta.seed).toBe(SEED);
  });

  it('answers every list of the default consumer with data', async () => {
    const a = await accountingSandbox();
    for (const path of [
      '/bookyears',
      '/analytic-plans',
      '/schemes',
      '/vat-codes',
      '/payment-methods',
      '/payment-terms',
      '/journals',
      '/chart-of-accounts',
      '/clients',
      '/suppliers',
      '/employees',
      '/analytic-accounts',
      '/bank-accounts',
      '/miscellaneous-operation',
      '/outstandings?type=client&unposted_allowed=false',
      '/outstandings?type=supplier&unposted_allowed=false',
      '/journal/entries?unposted_allowed=false&date_from=2025-10-01&date_to=2025-12-31',
      ...INVOICE_TYPES.map((type) => `/invoices/type/${type}`),
    ]) {
      const res = await a.get(path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body.items.length, path).toBeGreaterThan(0);
    }
    const sales = await all(a, '/invoices/type/customer_invoice?include_payments=true');
    expect(sales.some((i) => i.payments?.length > 0)).toBe(true);
    const attached = sales.find((i) => i.attachments_info?.status === 'yes');
    expect(attached).toBeDefined();
    const attachments = await a.get(`/attachments?type=invoice&document_id=${attached.id}`);
    expect(attachments.status, attachments.text).toBe(200);
    expect(attachments.body.items.length).toBeGreaterThan(0);
    const client = (await all(a, '/clients')).find((c) => c.is_company);
    const contacts = await a.get(`/contacts?partner_type=client&partner_id=${client.id}`);
    expect(contacts.status, contacts.text).toBe(200);
    expect(contacts.body.items.length).toBeGreaterThan(0);
  });
});

describe('accounting: the seeded history, built directly', () => {
  const folder = seedFolders(9, 'consumer-h', 1000, 1)[0];
  if (!folder) throw new Error('no folder');
  const build = (until: string | undefined, archive?: boolean) =>
    seedLedger({
      seed: 9,
      consumerid: 'consumer-h',
      integrationid: 1000,
      unifiedPartners: true,
      folder,
      until,
      archive,
    });

  it('books the same ledger whether or not it puts the old entries aside while booking', () => {
    for (const until of [undefined, '2027-03-10']) {
      expect(JSON.stringify(build(until, false))).toBe(JSON.stringify(build(until)));
    }
    expect(JSON.stringify(build(undefined))).toBe(JSON.stringify(build(LEGACY_UNTIL)));
  });

  it.each(['1970-01-01', '2021-01-01', '2021-02-10', '2030-12-31', '9999-12-31'])(
    'builds a ledger seeded up to %s, with a bounded number of book years',
    (until) => {
      const ledger = build(until);
      const year = Number(until.slice(0, 4));
      const names = ledger.bookyears.map((y) => Number(y.name));
      expect(names.at(-1)).toBe(year);
      expect(names[0]).toBe(year < 2021 ? year : Math.max(2021, year - MAX_BOOK_YEARS + 1));
      expect(names).toEqual(names.map((_, i) => (names[0] ?? 0) + i));
      expect(Object.values(ledger.invoices).length).toBeGreaterThan(0);
      expect(Object.values(ledger.invoices).every((i) => i.invoice_date <= until)).toBe(true);
      expect(Object.values(ledger.entries).every((e) => e.date <= until)).toBe(true);
    },
  );
});
