import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, EARLIEST_INSTANT, LATEST_INSTANT } from '../../../src/lib/calendar.js';
import { errors } from '../../../src/lib/errors.js';
import {
  call,
  everyOperationDocument,
  expectError,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

/**
 * The verticals at the edges of the sandbox's calendar: with the clock at its first instant, its
 * last, just before the last (a day, an hour) and at instants drawn from a seeded generator, every
 * list of every vertical of the showcase consumers answers (2xx, or an error its operation
 * documents) and answers soon, query dates of any year included (the service takes any date there),
 * with no date outside four-digit years; an instant just past either end is refused with 422.
 */

const FIRST = EARLIEST_INSTANT.getTime();
const LAST = LATEST_INSTANT.getTime();
const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * DAY_MS;

/** Instants drawn uniformly in the calendar by a small seeded generator (the same ones every run). */
function drawnInstants(seed: number, count: number): number[] {
  let state = seed >>> 0;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, () => FIRST + Math.floor(next() * (LAST - FIRST)));
}

const INSTANTS = [FIRST, LAST - DAY_MS, LAST - HOUR_MS, LAST, ...drawnInstants(20_260_115, 2)].map((ms) =>
  new Date(ms).toISOString(),
);

/** A date written with an expanded year, as Date writes one past 9999 or before year 0. */
const EXPANDED_YEAR = /"[+-]\d{6}-\d{2}-\d{2}/;

/** Generous: a list that walked days it should not would take minutes, or never answer. */
const SOON_MS = 10_000;

/** The id a required query parameter takes: the first item of a list of the same vertical. */
const ID_SOURCES: Record<string, string> = {
  account_id: '/accounts',
  bank_account_id: '/bank-accounts',
  partner_id: '/clients',
  document_id: '/invoices/type/customer_invoice',
  transaction_id: '/transactions?account_id={account_id}',
};

const VERTICALS = [
  ['accounting', 'ACCOUNTING'],
  ['invoicing', 'INVOICING'],
  ['banking', 'BANKING'],
  ['payment', 'PAYMENT'],
  ['pos', 'POS'],
  ['commerce', 'ECOMMERCE'],
  ['pms', 'PMS'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: the published document is walked as plain JSON
type Json = any;

interface List {
  path: string;
  operation: Json;
}

/** The list operations of a vertical: its GET paths with no record id in them. */
function listsOf(document: Json, segment: string): List[] {
  const prefix = `/consumers/{consumer_id}/${segment}/`;
  return Object.entries<Json>(document.paths)
    .filter(([path, item]) => path.startsWith(prefix) && item.get)
    .filter(([, item]) =>
      (item.get.parameters ?? []).every(
        (p: Json) => p.in !== 'path' || p.name === 'consumer_id' || p.name === 'date' || enumOf(document, p),
      ),
    )
    .map(([path, item]) => ({ path: path.slice(prefix.length - 1), operation: item.get }));
}

/** The values of a parameter's enum, where its schema (or the schema it names) has one. */
function enumOf(document: Json, parameter: Json): string[] | undefined {
  const schema = parameter.schema ?? {};
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  const named = ref ? document.components.schemas[ref.split('/').at(-1)] : schema;
  return named?.enum;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Bound {
  s: TestSandbox;
  token: string;
  base: string;
  ids: Map<string, string>;
}

async function get(v: Bound, path: string) {
  const started = performance.now();
  const res = await call(v.s.app, 'GET', `${v.base}${path}`, { token: v.token });
  return { res, ms: performance.now() - started };
}

/** The first id of a list (an array, or a page of items). */
async function firstId(v: Bound, path: string): Promise<string> {
  const { res } = await get(v, path.replace('{account_id}', v.ids.get('account_id') ?? ''));
  const items = Array.isArray(res.body) ? res.body : (res.body?.items ?? []);
  return items[0]?.id ?? '00000000-0000-4000-8000-000000000000';
}

/** The path of a list with its path and required query parameters filled for the clock's day. */
async function filled(v: Bound, document: Json, list: List, now: number, range?: [string, string]) {
  let path = list.path;
  const query = new URLSearchParams();
  for (const p of list.operation.parameters ?? []) {
    if (p.name === 'consumer_id') continue;
    const values = enumOf(document, p);
    let value: string | undefined;
    if (p.name === 'date_from') value = range?.[0] ?? isoDay(now - 30 * DAY_MS);
    else if (p.name === 'date_to') value = range?.[1] ?? isoDay(now);
    else if (p.name === 'date') value = isoDay(now);
    else if (!p.required) continue;
    else if (values) value = values[0];
    else if (ID_SOURCES[p.name]) {
      if (!v.ids.has(p.name)) v.ids.set(p.name, await firstId(v, ID_SOURCES[p.name] as string));
      value = v.ids.get(p.name);
    } else value = 'true';
    if (p.in === 'path') path = path.replace(`{${p.name}}`, String(value));
    else if (p.required || range) query.set(p.name, String(value));
  }
  return query.size ? `${path}?${query}` : path;
}

// The published operations, read once: they are the same in every world.
let published: Json;
beforeAll(async () => {
  published = await everyOperationDocument(sandbox().app);
});

describe.each(VERTICALS)('%s at the edges of the calendar', (segment, env) => {
  it.each(INSTANTS)('every list answers soon with the clock at %s', async (now) => {
    // A world begins a year before the instant (or at the calendar's first) and its clock moves
    // there: its history ends near the edge, and its living days run up to it.
    const s = sandbox({ clock: new Date(Math.max(FIRST, Date.parse(now) - YEAR_MS)) });
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { now } });
    expect(moved.status, moved.text).toBe(200);
    const v: Bound = {
      s,
      token: await sandboxToken(s),
      base: `/consumers/${s.ids.verticalConsumers[env]}/${segment}`,
      ids: new Map(),
    };
    const lists = listsOf(published, segment);
    expect(lists.length).toBeGreaterThan(3);
    const at = Date.parse(now);
    for (const list of lists) {
      const ranges: ([string, string] | undefined)[] = [undefined];
      // Query dates of any year: the service takes them; the sandbox walks no day for them.
      if ((list.operation.parameters ?? []).some((p: Json) => p.name === 'date_from'))
        ranges.push(['0001-01-01', '9999-12-31']);
      for (const range of ranges) {
        const path = await filled(v, published, list, at, range);
        const { res, ms } = await get(v, path);
        const documented = Object.keys(list.operation.responses).includes(String(res.status));
        expect(res.status < 300 || documented, `${path}: ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
        expect(res.status, path).toBeLessThan(500);
        expect(ms, path).toBeLessThan(SOON_MS);
        // Every date the sandbox writes has four digits of year (no +010000-01-01, no -000001-...).
        expect(res.text, path).not.toMatch(EXPANDED_YEAR);
      }
    }
  });
});

describe('an instant just past either end of the calendar', () => {
  it.each([new Date(FIRST - 1).toISOString(), new Date(LAST + 1).toISOString()])(
    'is refused with 422, and the clock stays',
    async (now) => {
      const s = sandbox();
      const before = (await call(s.app, 'GET', '/__sandbox/clock')).body.now;
      expectError(
        await call(s.app, 'POST', '/__sandbox/clock', { body: { now } }),
        errors.outsideCalendar('', null),
      );
      expect((await call(s.app, 'GET', '/__sandbox/clock')).body.now).toBe(before);
    },
  );
});
