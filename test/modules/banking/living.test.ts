import { beforeEach, describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { cents } from '../verticals/finance-helpers.js';

/**
 * The Banking business goes on with the clock: every business day after the first use of a
 * connection's data draws its transactions, which appear as they are made; card payments are
 * pending until the bank books them a business day or two later, at the booking's minute; the
 * balances follow the transactions; the days already there never change; the same moves give the
 * same bytes, whatever the cache.
 */

const DAY = 86_400;
/** The clock starts on this day at 09:00: the history runs up to that morning. */
const START = '2026-01-15';
// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

let s: TestSandbox;
let consumer: string;

beforeEach(() => {
  s = sandbox();
  consumer = s.ids.verticalConsumers.BANKING as string;
});

async function advanceDays(days: number, app = s.app): Promise<void> {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: days * DAY } });
  expect(moved.status, moved.text).toBe(200);
}

/**
 * Every item of a Banking list, all pages, as the API answers them (a new token unless given: the
 * clock moved).
 */
async function list(path: string, t: TestSandbox = s, token?: string): Promise<Item[]> {
  const bearer = token ?? (await sandboxToken(t));
  const out: Item[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await call(
      t.app,
      'GET',
      `/consumers/${consumer}/banking/${path}${sep}page=${page}&size=100`,
      {
        token: bearer,
      },
    );
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) return out;
  }
}

/** The transactions of every account matching a query, account after account. */
async function transactions(query: string, t: TestSandbox = s, token?: string): Promise<Item[]> {
  const out: Item[] = [];
  for (const account of await list('accounts', t, token))
    out.push(...(await list(`transactions?account_id=${account.id}${query ? `&${query}` : ''}`, t, token)));
  return out;
}

/** What a reader sees of the accounts: the accounts, their transactions and their counterparts. */
async function everything(t: TestSandbox = s) {
  return {
    accounts: await list('accounts', t),
    transactions: await transactions('', t),
    counterparts: await list('counterparts', t),
  };
}

const dayOf = (instant: string) => instant.slice(0, 10);
const isoDay = (base: string, days: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + days * DAY * 1000).toISOString().slice(0, 10);
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
const made = (t: Item) => t.creation_date > `${START}T09:00:00.000Z`;
const byId = (items: Item[]) => new Map(items.map((t) => [t.id, t]));

/** The counterparts of some transactions as the API groups them: name, reference, count, last day. */
function counterpartsOf(items: Item[]) {
  const groups = new Map<string, { name: string; reference: string | null; count: number; last: string }>();
  for (const t of items) {
    if (!t.counterpart_name) continue;
    const key = `${t.counterpart_name}\u0000${t.counterpart_reference ?? ''}`;
    const group = groups.get(key) ?? {
      name: t.counterpart_name,
      reference: t.counterpart_reference,
      count: 0,
      last: '',
    };
    group.count += 1;
    if (dayOf(t.value_date) > group.last) group.last = dayOf(t.value_date);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || (a.reference ?? '').localeCompare(b.reference ?? ''))
    .map((g) => ({
      name: g.name,
      reference: g.reference,
      details: `${g.count} transaction${g.count === 1 ? '' : 's'}, the last on ${g.last}`,
    }));
}

/** Each account's balances are those its transactions add up to. */
function expectBalances(accounts: Item[], all: Item[]) {
  for (const account of accounts) {
    const own = all.filter((t) => t.bank_account_id === account.id);
    const completed = own.filter((t) => t.status === 'completed').reverse();
    for (let i = 1; i < completed.length; i++)
      expect(cents(completed[i].opening_balance), completed[i].id).toBe(
        cents(completed[i - 1].opening_balance) + cents(completed[i - 1].amount),
      );
    const last = completed.at(-1);
    expect(cents(account.current_balance)).toBe(cents(last.opening_balance) + cents(last.amount));
    const held = own
      .filter((t) => t.status === 'pending' && t.amount < 0)
      .reduce((sum, t) => sum + cents(t.amount), 0);
    expect(cents(account.available_balance)).toBe(cents(account.current_balance) + held);
  }
}

describe('the Banking business on the clock', () => {
  it('a vendor nightly sync over 60 days with updated_after, and one by value date, see exactly what the world holds', async () => {
    // The first sync: everything up to now.
    const initial = await everything();
    const seen = byId(initial.transactions);
    const pendingFirst = initial.transactions.filter((t) => t.status === 'pending');
    expect(pendingFirst.length).toBeGreaterThan(0);
    const byDay = new Map<string, Item[]>();
    const partiesByDay = new Map<string, Item[]>();
    for (let night = 1; night <= 60; night++) {
      await advanceDays(1);
      const yesterday = isoDay(START, night - 1);
      const now = `${isoDay(START, night)}T09:00:00.000Z`;
      // What changed since yesterday (its whole day, and this morning so far), and yesterday's value
      // date.
      for (const t of await transactions(`updated_after=${yesterday}`)) {
        expect(dayOf(t.last_update_on) >= yesterday && t.last_update_on <= now, t.id).toBe(true);
        seen.set(t.id, t);
      }
      byDay.set(yesterday, await transactions(`date_from=${yesterday}&date_to=${yesterday}`));
      partiesByDay.set(yesterday, await list(`counterparts?date_from=${yesterday}&date_to=${yesterday}`));
    }
    const end = await everything();
    const last = isoDay(START, 59);
    const now = `${isoDay(START, 60)}T09:00:00.000Z`;

    // The business moved: transactions on every business day, none on a weekend, none after the
    // clock (the last morning's are there).
    const created = end.transactions.filter(made);
    const days = new Set(created.map((t) => dayOf(t.creation_date)));
    expect([...days].every((d) => d >= START && !isWeekend(d))).toBe(true);
    expect(created.every((t) => t.creation_date <= now && t.last_update_on <= now)).toBe(true);
    expect(days.size).toBeGreaterThanOrEqual(30);
    expect(created.length).toBeGreaterThan(80);
    const kinds = new Set(created.map((t) => t.operation_type));
    for (const kind of ['incoming_transfer', 'outgoing_transfer', 'card', 'direct_debit', 'fee'])
      expect(kinds, kind).toContain(kind);
    expect(created.filter((t) => t.description?.startsWith('Salary')).length).toBeGreaterThanOrEqual(6);
    // Card payments are booked a business day or two after they were made, updated then; those of
    // the first morning too.
    const booked = end.transactions.filter(
      (t) =>
        t.operation_type === 'card' &&
        t.status === 'completed' &&
        t.last_update_on > `${START}T09:00:00.000Z`,
    );
    expect(booked.length).toBeGreaterThan(5);
    for (const t of booked) {
      expect(t.value_date, t.id).toBe(`${dayOf(t.last_update_on)}T00:00:00.000Z`);
      expect(dayOf(t.last_update_on) > dayOf(t.execution_date), t.id).toBe(true);
    }
    for (const t of pendingFirst) expect(byId(end.transactions).get(t.id)?.status, t.id).toBe('completed');
    // Still pending: those of the last days, booked on a day not over yet (today's after 09:00).
    for (const t of end.transactions.filter((x) => x.status === 'pending'))
      expect(dayOf(t.value_date) > last, t.id).toBe(true);

    // What the nightly pulls saw is exactly what the world holds: ids and bodies.
    expect([...seen.keys()].sort()).toEqual(end.transactions.map((t) => t.id).sort());
    for (const t of end.transactions) expect(seen.get(t.id), t.id).toEqual(t);
    // A day by value date never changed once over, and its counterparts are its transactions'.
    for (const [day, seenThen] of byDay) {
      const now = end.transactions.filter((t) => dayOf(t.value_date) === day);
      expect(now, day).toEqual(seenThen);
      expect(partiesByDay.get(day), day).toEqual(counterpartsOf(now));
      expect(await list(`counterparts?date_from=${day}&date_to=${day}`), day).toEqual(partiesByDay.get(day));
    }
    expect(end.counterparts).toEqual(counterpartsOf(end.transactions));
    // The balances add up the transactions the sync saw.
    expectBalances(end.accounts, end.transactions);
    const [current] = end.accounts;
    const balance = await call(
      s.app,
      'GET',
      `/consumers/${consumer}/banking/opening-balance?account_id=${current.id}&date=${isoDay(START, 60)}`,
      { token: await sandboxToken(s) },
    );
    // Today's opening balance and what this morning booked so far make the current balance.
    const bookedToday = end.transactions
      .filter(
        (t) =>
          t.bank_account_id === current.id &&
          t.status === 'completed' &&
          dayOf(t.value_date) === isoDay(START, 60),
      )
      .reduce((sum, t) => sum + cents(t.amount), 0);
    expect(cents(balance.body.opening_balance) + bookedToday).toBe(cents(current.current_balance));
    expect(current.current_balance).not.toBe(initial.accounts[0].current_balance);
  }, 180_000);

  it('transactions appear as they are made and card payments are booked at their minute: a pull every 31 minutes misses none', async () => {
    // A busy pace, for more business. The first sync at 09:00, then a pull every 31 minutes for 31
    // hours, at odd minutes: what changed since the day of the pull before (the API's updated_after
    // is a day), kept by id.
    const busy = await call(s.app, 'POST', '/__sandbox/pace', { body: { pace: 'busy' } });
    expect(busy.status, busy.text).toBe(200);
    const vendor = byId(await transactions(''));
    let previous = `${START}T09:00:00.000Z`;
    const views: { now: string; all: Item[] }[] = [];
    for (let i = 0; i < 60; i++) {
      const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
      expect(moved.status, moved.text).toBe(200);
      const now = (moved.body as { now: string }).now;
      const token = await sandboxToken(s);
      for (const t of await transactions(`updated_after=${dayOf(previous)}`, s, token)) {
        // Nothing from the future: a pending card payment's value date is the day the bank will book it.
        expect(t.creation_date <= now && t.execution_date <= now && t.last_update_on <= now, t.id).toBe(true);
        if (t.status !== 'pending') expect(t.value_date <= now, t.id).toBe(true);
        expect(dayOf(t.last_update_on) >= dayOf(previous), t.id).toBe(true);
        vendor.set(t.id, t);
      }
      // What the vendor holds is, at every pull, what the accounts hold, body for body, balances
      // included.
      const all = await transactions('', s, token);
      expect([...vendor.keys()].sort()).toEqual(all.map((t) => t.id).sort());
      for (const t of all) expect(vendor.get(t.id), t.id).toEqual(t);
      expectBalances(await list('accounts', s, token), all);
      views.push({ now, all });
      previous = now;
    }
    const final = (views.at(-1) as { all: Item[] }).all;
    expect(final.filter(made).length).toBeGreaterThan(4);
    // Each transaction was there from the first pull after it was made, as it was made; a card
    // payment pending until the first pull after its booking, then booked as the end shows it.
    const withoutBalance = ({ opening_balance: _balance, ...t }: Item) => t;
    let booked = 0;
    for (const { now, all } of views) {
      const then = byId(all);
      for (const t of final) {
        const seen = then.get(t.id);
        if (t.creation_date > now) {
          expect(seen, t.id).toBeUndefined();
          continue;
        }
        expect(seen, `${t.id} at ${now}`).toBeDefined();
        if (t.last_update_on <= now) {
          expect(withoutBalance(seen), t.id).toEqual(withoutBalance(t));
          continue;
        }
        expect(seen.status, t.id).toBe('pending');
        expect(seen.last_update_on, t.id).toBe(t.creation_date);
        expect(seen.attachments_info.attachments, t.id).toEqual([]);
        expect(seen.opening_balance, t.id).toBeNull();
        booked++;
      }
    }
    // Some card payments were pending in a pull and booked in a later one, the day's as the history's.
    expect(booked).toBeGreaterThan(0);
    const bookedInPulls = final.filter(
      (t) =>
        t.status === 'completed' &&
        t.last_update_on > `${START}T09:00:00.000Z` &&
        t.operation_type === 'card',
    );
    expect(bookedInPulls.some((t) => made(t))).toBe(true);
    expect(bookedInPulls.some((t) => !made(t))).toBe(true);
  }, 180_000);

  it('the same clock moves give the same bytes, with a cache of one byte too, in one move or in many; the days already there stay as they were', async () => {
    const tiny = sandbox({ cacheBytes: 1 });
    const before = await everything();
    expect(await everything(tiny)).toEqual(before);
    for (let i = 0; i < 10; i++) await advanceDays(1);
    await advanceDays(10, tiny.app);
    const after = await everything();
    expect(JSON.stringify(await everything(tiny))).toBe(JSON.stringify(after));
    expect(after.transactions.length).toBeGreaterThan(before.transactions.length + 5);
    expectBalances(after.accounts, after.transactions);
    // The transactions that were there are there still, unchanged but for the card payments booked
    // since, which say when.
    const now = byId(after.transactions);
    for (const t of before.transactions) {
      const later = now.get(t.id);
      if (later.last_update_on === t.last_update_on) expect(later, t.id).toEqual(t);
      else expect(later.status, t.id).toBe('completed');
    }
    // A further move adds days and leaves the first ten as they were.
    await advanceDays(5);
    const later = await everything();
    const firstTen = (items: Item[]) => items.filter((t) => dayOf(t.value_date) < isoDay(START, 10));
    expect(firstTen(later.transactions)).toEqual(firstTen(after.transactions));
    expect(later.transactions.length).toBeGreaterThan(after.transactions.length);
  });

  it('a busier pace from a day on draws more business from that day, and leaves the days before', async () => {
    const normal = sandbox();
    const from = '2026-02-01';
    const changed = await call(s.app, 'POST', '/__sandbox/pace', { body: { pace: 'busy', from } });
    expect(changed.status, changed.text).toBe(200);
    for (const t of [s, normal]) await list('accounts', t);
    for (const app of [s.app, normal.app]) await advanceDays(45, app);
    const [busy, usual] = [await everything(s), await everything(normal)];
    // The days before by value date are as they were; the transactions made before are as they were
    // drawn, but for the balance they are booked on, which counts the busier days' business.
    const valued = (items: Item[]) => items.filter((t) => dayOf(t.value_date) < from);
    expect(valued(busy.transactions)).toEqual(valued(usual.transactions));
    const drawn = (items: Item[]) =>
      items.filter((t) => dayOf(t.execution_date) < from).map(({ opening_balance: _balance, ...t }) => t);
    expect(drawn(busy.transactions)).toEqual(drawn(usual.transactions));
    // The trade's business (customers, suppliers, cards) follows the pace; salaries and standing
    // orders do not.
    const traded = (items: Item[]) =>
      items.filter(
        (t) =>
          dayOf(t.execution_date) >= from &&
          !t.internal_transaction &&
          (t.operation_type === 'card' ||
            t.description?.startsWith('Transfer from') ||
            (t.description?.startsWith('Transfer to') && t.counterpart_reference?.startsWith('BE'))),
      ).length;
    expect(traded(usual.transactions)).toBeGreaterThan(10);
    expect(traded(busy.transactions)).toBeGreaterThan(traded(usual.transactions) * 1.8);
    const standing = (items: Item[]) =>
      items.filter((t) => dayOf(t.execution_date) >= from && t.operation_type === 'direct_debit').length;
    expect(standing(busy.transactions)).toBe(standing(usual.transactions));
    for (const { accounts, transactions: all } of [busy, usual]) expectBalances(accounts, all);
  });

  it('a clock moved a year at once adds the year of business to what a read answers, and none of it to the world', async () => {
    const first = await everything();
    await advanceDays(1);
    const oneDay = s.app.services.store.world.meta.client_bytes ?? 0;
    await advanceDays(364);
    const year = await everything();
    expect(year.transactions.length).toBeGreaterThan(first.transactions.length + 200);
    const days = new Set(year.transactions.filter(made).map((t) => dayOf(t.creation_date)));
    expect(days.size).toBeGreaterThan(180);
    expect([...days].every((d) => d <= isoDay(START, 365))).toBe(true);
    expectBalances(year.accounts, year.transactions);
    expect((s.app.services.store.world.meta.client_bytes ?? 0) - oneDay).toBeLessThan(16 * 1024);
  });
});
