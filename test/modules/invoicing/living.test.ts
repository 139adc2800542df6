import { beforeEach, describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { all, cents, forVertical, type VerticalSandbox } from '../verticals/finance-helpers.js';
import { type Item, invoiceBody, reference } from './helpers.js';

/**
 * The invoicing business goes on with the clock: each business day after the first use of a
 * connection's data issues customer invoices and receives supplier invoices, which appear as they are
 * issued and are paid (on time, late, in part) or left open on later days, each payment at its
 * instant; a nightly sync, or a pull every half hour, with updated_after and date filters sees all of
 * it; the days already there change only at the instants drawn for them; the same moves give the
 * same bytes, whatever the cache.
 */

const DAY = 86_400;
const START = '2026-01-15';
const MORNING = `${START}T09:00:00.000Z`;
/**
 * The numbers the days after the history give, as the showcase's French software numbers them: the
 * day they were drawn on, and an order (FA20260115-001).
 */
const LIVING_NUMBER = /^(FA|AV|AC|AF)\d{8}-\d{3}$/;

let s: TestSandbox;

beforeEach(() => {
  s = sandbox();
});

const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
const byId = (list: Item[]) => new Map<string, Item>(list.map((item) => [item.id, item]));
const sortedById = (list: Iterable<Item>) => [...list].sort((a, b) => a.id.localeCompare(b.id));
const living = (invoices: Item[]) => invoices.filter((i) => LIVING_NUMBER.test(i.invoice_number));

async function advanceDays(days: number, t: TestSandbox = s): Promise<void> {
  const moved = await call(t.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/** The Invoicing consumer's API, with a new token (a token lasts 30 minutes of sandbox time). */
async function client(t: TestSandbox = s): Promise<VerticalSandbox> {
  return forVertical(t, await sandboxToken(t), t.ids.verticalConsumers.INVOICING as string, 'invoicing');
}

/** Every statement line of every bank account, with a query. */
async function bankLines(c: VerticalSandbox, query = ''): Promise<Item[]> {
  const out: Item[] = [];
  for (const account of await all(c, '/bank-accounts')) {
    out.push(...(await all(c, `/bank-transactions?bank_account_id=${account.id}${query}`)));
  }
  return out;
}

/** Everything a client reads of the business: invoices, payments, statement lines, accounts. */
async function everything(t: TestSandbox = s) {
  const c = await client(t);
  return {
    invoices: await all(c, '/invoices'),
    payments: await all(c, '/payments'),
    lines: await bankLines(c),
    accounts: await all(c, '/bank-accounts'),
  };
}

describe('the invoicing business on the clock', () => {
  it('a vendor nightly sync over 60 days sees every invoice issued or paid, every payment and statement line, once each day is over', async () => {
    // The first sync: everything up to now (the clock starts on 2026-01-15 at 09:00).
    const initial = await everything();
    const seenInvoices = byId(initial.invoices);
    const seenPayments = byId(initial.payments);
    const seenLines = byId(initial.lines);
    const dated = new Map<string, string[]>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const c = await client();
      const yesterday = isoDay(START, night - 1);
      for (const invoice of await all(c, `/invoices?updated_after=${yesterday}T00:00:00Z`)) {
        seenInvoices.set(invoice.id, invoice);
      }
      const issued = await all(c, `/invoices?date_from=${yesterday}&date_to=${yesterday}`);
      dated.set(
        yesterday,
        issued.map((i) => i.id),
      );
      for (const payment of await all(c, `/payments?date_from=${yesterday}&date_to=${yesterday}`)) {
        seenPayments.set(payment.id, payment);
      }
      for (const line of await bankLines(c, `&date_from=${yesterday}&date_to=${yesterday}`)) {
        seenLines.set(line.id, line);
      }
    }
    const end = await everything();
    const today = isoDay(START, 60);

    // The business moved: invoices on business days only, none dated after the last full day.
    const created = living(end.invoices);
    expect(created.length).toBeGreaterThan(40);
    expect(end.invoices.length).toBe(initial.invoices.length + created.length);
    const days = new Set(created.map((i) => i.invoice_date as string));
    expect(days.size).toBeGreaterThan(25);
    for (const day of days) {
      expect(day >= START && day < today, day).toBe(true);
      expect([0, 6]).not.toContain(new Date(`${day}T00:00:00Z`).getUTCDay());
    }
    expect(new Set(end.invoices.map((i) => `${i.invoice_type}:${i.invoice_number}`)).size).toBe(
      end.invoices.length,
    );
    expect(new Set(end.invoices.map((i) => i.source_ref.id)).size).toBe(end.invoices.length);

    // What the nightly pulls saw is exactly what the world holds.
    expect(sortedById(seenInvoices.values())).toEqual(sortedById(end.invoices));
    expect(sortedById(seenPayments.values())).toEqual(sortedById(end.payments));
    expect(sortedById(seenLines.values())).toEqual(sortedById(end.lines));
    for (const [day, ids] of dated) {
      expect(ids.sort(), day).toEqual(
        end.invoices
          .filter((i) => i.invoice_date === day)
          .map((i) => i.id)
          .sort(),
      );
    }

    // Amounts add up as for the history's invoices; open amounts and statuses follow the payments,
    // and an invoice's last change is its issue or its last payment.
    const paymentsOf = (id: string) => end.payments.filter((p) => p.invoice_id === id);
    for (const invoice of created) {
      const untaxed = invoice.lines.reduce((sum: number, l: Item) => sum + cents(l.untaxed_amount), 0);
      const tax = invoice.lines.reduce((sum: number, l: Item) => sum + cents(l.tax_amount), 0);
      expect(untaxed).toBe(cents(invoice.untaxed_amount));
      expect(tax).toBe(cents(invoice.tax_amount));
      expect(cents(invoice.untaxed_amount) + cents(invoice.tax_amount)).toBe(cents(invoice.total));
      for (const line of invoice.lines) {
        expect(cents(line.untaxed_amount) + cents(line.tax_amount)).toBe(cents(line.total));
      }
      const payments = paymentsOf(invoice.id);
      const paid = payments.reduce((sum, p) => sum + cents(p.amount), 0);
      expect(cents(invoice.outstanding_amount)).toBe(cents(invoice.total) - paid);
      expect(invoice.status).toBe(invoice.outstanding_amount === 0 ? 'paid' : 'posted');
      const instants = payments.map((p) => p.payment_date as string).sort();
      expect(invoice.last_payment_date).toBe(instants.at(-1)?.slice(0, 10) ?? null);
      if (instants.length) expect(invoice.last_updated_on).toBe(instants.at(-1));
      else expect(invoice.last_updated_on.slice(0, 10)).toBe(invoice.invoice_date);
      expect(invoice.last_updated_on > MORNING).toBe(true);
      for (const payment of payments) {
        expect(payment.payment_date.slice(0, 10) > invoice.invoice_date).toBe(true);
        expect(payment.payment_date.slice(0, 10) < today).toBe(true);
        expect(payment.currency).toBe(invoice.currency);
      }
    }
    // Each fate: paid on time and late, partly paid, left open past its due date, credited.
    const fates = {
      onTime: created.filter((i) => i.status === 'paid' && i.last_payment_date <= i.due_date),
      late: created.filter((i) => i.status === 'paid' && i.last_payment_date > i.due_date),
      partly: created.filter((i) => i.status === 'posted' && i.outstanding_amount < i.total),
      overdue: created.filter(
        (i) => i.status === 'posted' && i.due_date < today && i.outstanding_amount === i.total,
      ),
      credited: created.filter((i) => i.invoice_type.endsWith('refund')),
      received: created.filter((i) => i.invoice_type === 'supplier_invoice'),
    };
    for (const [fate, invoices] of Object.entries(fates)) expect(invoices.length, fate).toBeGreaterThan(0);
    const numbers = new Set(created.map((i) => i.invoice_number));
    for (const note of fates.credited) expect(numbers).toContain(note.reference);

    // The bank-transfer payments are on the statement lines, and the balances move by the done lines.
    const newLines = end.lines.filter((l) => !byId(initial.lines).has(l.id));
    expect(newLines.length).toBeGreaterThan(20);
    for (const line of newLines) {
      expect(line.date >= START && line.date < today).toBe(true);
      for (const doc of line.linked_documents) {
        const paid = paymentsOf(doc.id).filter(
          (p) => p.payment_date.slice(0, 10) === line.date && cents(p.amount) === cents(doc.amount),
        );
        expect(paid.length, line.id).toBeGreaterThan(0);
        expect(Math.abs(line.amount)).toBe(doc.amount);
      }
    }
    expect(newLines.some((l) => l.description === 'Frais bancaires')).toBe(true);
    for (const account of end.accounts) {
      const before = initial.accounts.find((a) => a.id === account.id);
      const moved = newLines
        .filter((l) => l.bank_account_id === account.id && l.status === 'done')
        .reduce((sum, l) => sum + cents(l.amount), 0);
      expect(cents(account.balance)).toBe(cents(before.balance) + moved);
    }
  }, 120_000);

  it('invoices appear as they are issued and change as they are paid: a pull every 31 minutes across a day misses none', async () => {
    // Thirteen days after the first use (Wednesday 28 January, the bank's fee day, 09:00), a full
    // sync; then a pull every 31 minutes for a day and a night: the invoices updated after the previous
    // pull, the payments and statement lines of the days from the previous pull's to the pull's, the
    // accounts' balances.
    await everything();
    await advanceDays(13);
    const since = `${isoDay(START, 13)}T09:00:00.000Z`;
    let previous = since;
    const first = await everything();
    const seenInvoices = byId(first.invoices);
    const seenPayments = byId(first.payments);
    const seenLines = byId(first.lines);
    const versions: string[] = [];
    const changed: [Item, Item][] = [];
    const balances = new Map<string, number>(first.accounts.map((a) => [a.id, cents(a.balance)]));
    for (let i = 0; i < 48; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status, moved.text).toBe(200);
      const now = (moved.body as { now: string }).now;
      const c = await client();
      const days = `date_from=${previous.slice(0, 10)}&date_to=${now.slice(0, 10)}`;
      for (const invoice of await all(c, `/invoices?updated_after=${previous}`)) {
        // Exactly what changed since the previous pull, nothing from the future.
        expect(invoice.last_updated_on > previous && invoice.last_updated_on <= now, invoice.id).toBe(true);
        expect(invoice.invoice_date <= now.slice(0, 10), invoice.id).toBe(true);
        const before = seenInvoices.get(invoice.id);
        if (before && before.status !== invoice.status) changed.push([before, invoice]);
        versions.push(`${invoice.id}@${invoice.last_updated_on}`);
        seenInvoices.set(invoice.id, invoice);
      }
      for (const payment of await all(c, `/payments?${days}`)) {
        expect(payment.payment_date <= now, payment.id).toBe(true);
        seenPayments.set(payment.id, payment);
      }
      const newLines: Item[] = [];
      for (const line of await bankLines(c, `&${days}`)) {
        expect(line.date <= now.slice(0, 10), line.id).toBe(true);
        if (!seenLines.has(line.id)) newLines.push(line);
        seenLines.set(line.id, line);
      }
      // The balances move by the lines as they come, not before.
      for (const account of await all(c, '/bank-accounts')) {
        const moved = newLines
          .filter((l) => l.bank_account_id === account.id && l.status === 'done')
          .reduce((sum, l) => sum + cents(l.amount), 0);
        expect(cents(account.balance), account.id).toBe((balances.get(account.id) ?? 0) + moved);
        balances.set(account.id, cents(account.balance));
      }
      previous = now;
    }
    const end = await everything();

    // What the pulls saw is exactly what the world holds, each change pulled once.
    expect(sortedById(seenInvoices.values())).toEqual(sortedById(end.invoices));
    expect(sortedById(seenPayments.values())).toEqual(sortedById(end.payments));
    expect(sortedById(seenLines.values())).toEqual(sortedById(end.lines));
    expect(new Set(versions).size).toBe(versions.length);

    // Invoices were issued during the pulls, and payments made: an invoice seen open was pulled again
    // paid, at the instant of its payment, its earlier state dated at its issue or an earlier payment.
    const issued = living(end.invoices).filter((i) => !first.invoices.some((f) => f.id === i.id));
    expect(issued.length).toBeGreaterThan(0);
    for (const invoice of issued) expect(invoice.last_updated_on > since).toBe(true);
    // The bank's monthly fees came on the statement during the day, after the full sync.
    const fees = (lines: Item[]) =>
      lines.filter((l) => l.description === 'Frais bancaires' && l.date === isoDay(START, 13));
    expect([fees(first.lines).length, fees(end.lines).length]).toEqual([0, 1]);
    const paid = end.payments.filter((p) => p.payment_date > since);
    expect(paid.length).toBeGreaterThan(0);
    expect(changed.length).toBeGreaterThan(0);
    for (const [before, after] of changed) {
      expect(before.last_updated_on < after.last_updated_on).toBe(true);
      expect(paid.some((p) => p.invoice_id === after.id && p.payment_date === after.last_updated_on)).toBe(
        true,
      );
      expect({
        ...after,
        status: before.status,
        outstanding_amount: before.outstanding_amount,
      }).toMatchObject({
        ...before,
        last_updated_on: after.last_updated_on,
        last_payment_date: after.last_payment_date,
      });
    }
    // Every instant of the days is a whole minute.
    for (const invoice of living(end.invoices)) expect(invoice.last_updated_on).toMatch(/:00\.000Z$/);
    for (const payment of paid) expect(payment.payment_date).toMatch(/:00\.000Z$/);
  }, 120_000);

  it('the numbers of the invoices a client creates never clash with the days’; its writes stay over them', async () => {
    let c = await client();
    const r = await reference(c);
    const line = { product_id: r.service.id, tax_id: r.standard.id, unit_price: 95, quantity: 2, rate: 20 };
    const first = await c.post('/invoices', invoiceBody('customer_invoice', r.customer.id, line));
    expect(first.status, first.text).toBe(200);
    expect(first.body.invoice_number).toMatch(/^FA2026-\d{4}$/);
    await advanceDays(20);
    c = await client();
    const dated = isoDay(START, 19);
    const second = await c.post(
      '/invoices',
      invoiceBody('customer_invoice', r.customer.id, line, { invoice_date: dated }),
    );
    expect(second.status, second.text).toBe(200);
    expect(second.body.invoice_number).toMatch(/^FA2026-\d{4}$/);
    // A payment of a generated invoice left open.
    const open = living(await all(c, '/invoices?payment_status=unpaid')).find(
      (i) => i.invoice_type === 'customer_invoice' && i.outstanding_amount === i.total,
    );
    expect(open).toBeDefined();
    const payment = await c.post('/payments', {
      invoice_id: open.id,
      amount: open.total,
      currency: open.currency,
      date: dated,
    });
    expect(payment.status, payment.text).toBe(201);
    await advanceDays(10);
    c = await client();
    const invoices = await all(c, '/invoices');
    expect(new Set(invoices.map((i) => `${i.invoice_type}:${i.invoice_number}`)).size).toBe(invoices.length);
    expect(new Set(invoices.map((i) => i.source_ref.id)).size).toBe(invoices.length);
    const ours = byId(invoices);
    expect(ours.get(first.body.id)).toEqual(first.body);
    expect(ours.get(second.body.id)).toEqual(second.body);
    // Paid by the client (the days may pay it again: the software takes an overpayment as given).
    expect(ours.get(open.id)?.status).toBe('paid');
    expect(ours.get(open.id)?.outstanding_amount).toBeLessThanOrEqual(0);
    expect(living(invoices).filter((i) => i.invoice_date >= dated).length).toBeGreaterThan(0);
  });

  it('the same clock moves give the same bytes, with a cache of one byte too; the days already there change only at their drawn instants', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await everything();
    expect(await everything(tiny)).toEqual(before);
    await advanceDays(10);
    await advanceDays(10, tiny);
    const after = await everything();
    expect(await everything(tiny)).toEqual(after);
    expect(after.invoices.length).toBeGreaterThan(before.invoices.length);
    // The history is as it was.
    const seeded = byId(after.invoices);
    for (const invoice of before.invoices) expect(seeded.get(invoice.id)).toEqual(invoice);

    // Five more days: the payments and statement lines there are kept, and an invoice changed only
    // when one of its payments fell in the new days.
    await advanceDays(5);
    const later = await everything();
    const tenth = `${isoDay(START, 10)}T00:00:00.000Z`;
    const now = byId(later.invoices);
    let changed = 0;
    for (const invoice of after.invoices) {
      const again = now.get(invoice.id);
      if (JSON.stringify(again) === JSON.stringify(invoice)) continue;
      changed += 1;
      expect(again.last_updated_on > tenth).toBe(true);
      expect(again.last_payment_date >= isoDay(START, 10)).toBe(true);
    }
    expect(changed).toBeGreaterThan(0);
    const payments = byId(later.payments);
    for (const payment of after.payments) expect(payments.get(payment.id)).toEqual(payment);
    const lines = byId(later.lines);
    for (const line of after.lines) expect(lines.get(line.id)).toEqual(line);
    expect(later.payments.filter((p) => p.payment_date >= tenth).length).toBeGreaterThan(0);
  });

  it('a busy pace from a day on scales the days from it and leaves the days before as they were', async () => {
    const busy = sandbox();
    await everything();
    await everything(busy);
    const from = isoDay(START, 14);
    const paced = await call(busy.app, 'POST', '/__sandbox/pace', { body: { pace: 'busy', from } });
    expect(paced.status, paced.text).toBe(200);
    await advanceDays(42);
    await advanceDays(42, busy);
    const normal = await everything();
    const fast = await everything(busy);
    // The day an invoice was drawn on is in its number (a credit note's: the day of its invoice).
    const drawnOn = (i: Item) => {
      const digits = (i.invoice_number as string).match(/\d{8}/)?.[0] as string;
      return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
    };
    const early = (list: Item[]) => sortedById(living(list).filter((i) => drawnOn(i) < from));
    const late = (list: Item[]) => living(list).filter((i) => drawnOn(i) >= from);
    expect(early(fast.invoices)).toEqual(early(normal.invoices));
    expect(early(normal.invoices).length).toBeGreaterThan(10);
    expect(late(fast.invoices).length).toBeGreaterThan(late(normal.invoices).length * 1.8);
    const paidEarly = (p: { payments: Item[]; invoices: Item[] }) => {
      const ids = new Set(early(p.invoices).map((i) => i.id));
      return sortedById(p.payments.filter((payment) => ids.has(payment.invoice_id)));
    };
    expect(paidEarly(fast)).toEqual(paidEarly(normal));
  });

  it('a clock moved a year at once adds a year of invoices, and the world stores none of them', async () => {
    await everything();
    await advanceDays(1);
    const oneDay = s.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364);
    const c = await client();
    const started = performance.now();
    const invoices = await all(c, '/invoices');
    const took = performance.now() - started;
    expect(living(invoices).length).toBeGreaterThan(250);
    expect(took).toBeLessThan(10_000);
    expect((s.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(32 * 1024);
    expect(oneDay).toBeLessThan(16 * 1024);
  });
});
