import { setImmediate as nextTurn } from 'node:timers/promises';
import { DATALAB_BUDGET, type QueryBudget, SLICE_MS } from '../../lib/budgets.js';
import { ApiError, errors } from '../../lib/errors.js';
import type { CubeDef, DimensionDef, MeasureDef, Row, RowSource } from '../../platform/cube.js';
import { BETWEEN_CONNECTIONS } from '../../platform/cube.js';
import { round2 } from '../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import type { ConsumerRecord } from '../../store/world.js';
import type {
  CubeFilterValue,
  CubeJoinQueryInput,
  CubeLoadQueryInput,
  CubeMetaOut,
  QueryResponseOut,
} from './datalab.schemas.js';

/**
 * A small Cube-style query engine over the cubes of datalab.cubes.ts: members, filters (and/or,
 * the usual operators), time dimensions with date ranges and granularities, grouping, ordering and
 * paging, in the query's time zone (UTC by default). It runs over the sandbox's own records. Refused
 * queries answer 400 with the service's generic message and a detail naming the problem; what Cube
 * takes without complaint (a date range that ends before it starts, a filter on a measure the query
 * does not select) it takes too.
 *
 * Rows are read one by one and aggregated as they come: a query keeps its groups (an ungrouped one
 * the rows its page needs), never the rows. It gives way to other requests every few milliseconds,
 * and before each connection's dataset it reads once it has worked a while (a dataset is generated in
 * one piece), and stops with a 400 past the budget of a request (DATALAB_BUDGET, lib/budgets.ts).
 */

const fail = (detail: string) => verticalFailure(detail);

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

/** Steps (rows read, rows merged or joined) between two looks at the time. */
const STEPS_PER_LOOK = 256;

const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type Granularity = (typeof GRANULARITIES)[number];

/**
 * Reads an instant (ISO, UTC) as the wall-clock time of the query's time zone, written the same way
 * (so that instants, days and buckets compare as text, as in UTC).
 */
export type LocalClock = (instant: string) => string;
const utc: LocalClock = (instant) => instant;

/** Names of UTC that need no conversion. */
const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'Z', 'GMT', 'ETC/GMT', 'UCT', 'ETC/UCT', 'UNIVERSAL', 'ZULU']);

/** The clock of a query's time zone (an IANA name; absent: UTC). An unknown zone is refused. */
export function localClockOf(timezone: string | null | undefined): LocalClock {
  if (!timezone || UTC_NAMES.has(timezone.toUpperCase())) return utc;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    throw fail(`Unknown time zone '${timezone}': give an IANA time zone, e.g. Europe/Brussels`);
  }
  return (instant) => {
    const date = new Date(instant);
    if (Number.isNaN(date.getTime())) return instant;
    const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
    const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
    const year = String(part.year).padStart(4, '0');
    return `${year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}.${ms}Z`;
  };
}

export function cubeSchemas(cubes: readonly CubeDef[]): CubeMetaOut[] {
  return cubes.map((cube) => ({
    name: cube.name,
    type: 'cube',
    title: cube.title,
    description: cube.description,
    connectedComponent: 1,
    measures: cube.measures.map((m) => ({
      name: `${cube.name}.${m.name}`,
      title: `${cube.title} ${m.title}`,
      shortTitle: m.title,
      aliasName: null,
      type: 'number',
      description: m.description,
      aggType: m.agg,
      drillMembers: [],
      format: m.monetary ? 'currency' : null,
      primaryKey: null,
      suggestFilterValues: null,
      nullable: null,
      values: null,
      allowedGranularities: null,
      jsonSchema: null,
      monetary: m.monetary ?? false,
      currencyDimension: m.monetary && cube.currency ? `${cube.name}.currency` : null,
      currencySensitive: m.monetary ?? false,
      alignAxis: null,
    })),
    dimensions: cube.dimensions.map((d) => ({
      name: `${cube.name}.${d.name}`,
      title: `${cube.title} ${d.title}`,
      shortTitle: d.title,
      aliasName: null,
      type: d.type,
      description: d.description,
      aggType: null,
      drillMembers: null,
      format: null,
      primaryKey: d.primaryKey ?? false,
      suggestFilterValues: d.values !== undefined,
      nullable: !d.primaryKey,
      values: d.values ?? null,
      allowedGranularities: d.type === 'time' ? [...GRANULARITIES] : null,
      jsonSchema: null,
      monetary: false,
      currencyDimension: null,
      currencySensitive: false,
      alignAxis: d.alignAxis ?? null,
    })),
    hierarchies: [],
    segments: [],
    relationships: cube.relationships,
    domain: cube.domain,
    queryGroup: cube.domain ?? 'platform',
  }));
}

type Member =
  | { kind: 'measure'; cube: CubeDef; def: MeasureDef; name: string }
  | { kind: 'dimension'; cube: CubeDef; def: DimensionDef; name: string };

function resolveMember(cubes: readonly CubeDef[], name: string): Member {
  const [cubeName, memberName, extra] = name.split('.');
  const cube = cubes.find((c) => c.name === cubeName);
  if (!cube || !memberName || extra !== undefined) {
    throw fail(`Unknown member '${name}' (GET /datalab/cube-schemas lists the cubes and their members)`);
  }
  const measure = cube.measures.find((m) => m.name === memberName);
  if (measure) return { kind: 'measure', cube, def: measure, name };
  const dimension = cube.dimensions.find((d) => d.name === memberName);
  if (dimension) return { kind: 'dimension', cube, def: dimension, name };
  throw fail(`Unknown member '${name}' of the cube '${cube.name}'`);
}

const isLeaf = (f: CubeFilterValue): f is { member: string; operator: string; values?: string[] | null } =>
  'member' in f;

/** The members filters name (the JSON depth guard bounds their nesting). */
function filterMembers(filters: readonly CubeFilterValue[]): string[] {
  return filters.flatMap((f) => (isLeaf(f) ? [f.member] : filterMembers('and' in f ? f.and : f.or)));
}

/**
 * The time range of a date range, as [first instant, last instant] (both included), in the local
 * time of `local` (`now` read in it too). Days and instants without a zone are local times; an
 * instant with one is converted. A range that ends before it starts matches nothing, as in Cube.
 */
export function dateRangeOf(range: string | string[], now: Date, local: LocalClock = utc): [string, string] {
  const startOfDay = (day: string) => `${day}T00:00:00.000Z`;
  const endOfDay = (day: string) => `${day}T23:59:59.999Z`;
  const asInstant = (value: string, end: boolean) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return end ? endOfDay(value) : startOfDay(value);
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
    let parsed = zoned ? Date.parse(value) : Date.parse(`${value}Z`);
    if (Number.isNaN(parsed) && !zoned) parsed = Date.parse(value);
    if (Number.isNaN(parsed)) throw fail(`'${value}' is not a date`);
    const instant = new Date(parsed).toISOString();
    return zoned ? local(instant) : instant;
  };
  if (Array.isArray(range)) {
    if (range.length !== 2 && range.length !== 1) throw fail('A date range is [from, to]');
    const from = asInstant(range[0] as string, false);
    const to = asInstant((range[1] ?? range[0]) as string, true);
    return [from, to];
  }
  const text = range.trim().toLowerCase();
  const today = now.toISOString().slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(startOfDay(today)) + offset * 86_400_000).toISOString().slice(0, 10);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const q = Math.floor(m / 3);
  const monthStart = (year: number, month: number) =>
    new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  const monthEnd = (year: number, month: number) =>
    new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
  const weekday = (now.getUTCDay() + 6) % 7; // Monday 0
  const relative: Record<string, [string, string]> = {
    today: [today, today],
    yesterday: [day(-1), day(-1)],
    'this week': [day(-weekday), day(6 - weekday)],
    'last week': [day(-weekday - 7), day(-weekday - 1)],
    'this month': [monthStart(y, m), monthEnd(y, m)],
    'last month': [monthStart(y, m - 1), monthEnd(y, m - 1)],
    'this quarter': [monthStart(y, q * 3), monthEnd(y, q * 3 + 2)],
    'last quarter': [monthStart(y, q * 3 - 3), monthEnd(y, q * 3 - 1)],
    'this year': [`${y}-01-01`, `${y}-12-31`],
    'last year': [`${y - 1}-01-01`, `${y - 1}-12-31`],
  };
  const known = relative[text];
  if (known) return [startOfDay(known[0]), endOfDay(known[1])];
  const lastN = /^last (\d{1,4}) (day|week|month)s?$/.exec(text);
  if (lastN) {
    const n = Number(lastN[1]);
    const unit = lastN[2];
    if (unit === 'day') return [startOfDay(day(-n)), endOfDay(day(-1))];
    if (unit === 'week') return [startOfDay(day(-7 * n)), endOfDay(day(-1))];
    return [startOfDay(monthStart(y, m - n)), endOfDay(monthEnd(y, m - 1))];
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return [startOfDay(text), endOfDay(text)];
  throw fail(
    `Unknown date range '${range}': give [from, to], one date, today, yesterday, this/last week, month, quarter or year, or 'last N days/weeks/months'`,
  );
}

/** The start of the bucket of an instant, as Cube writes it (local time without a zone: UTC here). */
export function truncate(instant: string, granularity: Granularity): string {
  const d = new Date(instant);
  let out: Date;
  switch (granularity) {
    case 'second':
      out = new Date(Math.floor(d.getTime() / 1000) * 1000);
      break;
    case 'minute':
      out = new Date(Math.floor(d.getTime() / 60_000) * 60_000);
      break;
    case 'hour':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()));
      break;
    case 'day':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      break;
    case 'week': {
      const monday = (d.getUTCDay() + 6) % 7;
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - monday));
      break;
    }
    case 'month':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
      break;
    case 'quarter':
      out = new Date(Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1));
      break;
    default:
      out = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  }
  return out.toISOString().slice(0, 23);
}

const NUMBER_OPERATORS = new Set(['gt', 'gte', 'lt', 'lte']);
const OPERATORS = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'afterDate',
  'beforeOrOnDate',
  'afterOrOnDate',
]);

type Value = string | number | boolean | null;

function matches(
  value: Value,
  type: string,
  operator: string,
  values: readonly string[],
  now: Date,
  local: LocalClock,
): boolean {
  const present = value !== null && value !== undefined && value !== '';
  switch (operator) {
    case 'set':
      return present;
    case 'notSet':
      return !present;
    case 'equals':
      return present && values.some((v) => equalsValue(value, v, type));
    case 'notEquals':
      return !present || !values.some((v) => equalsValue(value, v, type));
    case 'contains':
      return present && values.some((v) => String(value).toLowerCase().includes(v.toLowerCase()));
    case 'notContains':
      return !present || !values.some((v) => String(value).toLowerCase().includes(v.toLowerCase()));
    case 'startsWith':
      return present && values.some((v) => String(value).toLowerCase().startsWith(v.toLowerCase()));
    case 'endsWith':
      return present && values.some((v) => String(value).toLowerCase().endsWith(v.toLowerCase()));
    case 'inDateRange':
    case 'notInDateRange': {
      const [from, to] = dateRangeOf(values.length === 1 ? (values[0] as string) : [...values], now, local);
      const inside = present && String(value) >= from && String(value) <= to;
      return operator === 'inDateRange' ? inside : present && !inside;
    }
    case 'beforeDate':
    case 'beforeOrOnDate':
    case 'afterDate':
    case 'afterOrOnDate': {
      const [from, to] = dateRangeOf(values[0] as string, now, local);
      if (!present) return false;
      const v = String(value);
      if (operator === 'beforeDate') return v < from;
      if (operator === 'beforeOrOnDate') return v <= to;
      if (operator === 'afterDate') return v > to;
      return v >= from;
    }
    default: {
      if (!present) return false;
      const limit = Number(values[0]);
      const v = Number(value);
      if (operator === 'gt') return v > limit;
      if (operator === 'gte') return v >= limit;
      if (operator === 'lt') return v < limit;
      return v <= limit;
    }
  }
}

function equalsValue(value: Value, expected: string, type: string): boolean {
  if (type === 'number') return Number(value) === Number(expected);
  if (type === 'boolean') return String(value) === expected.toLowerCase();
  return String(value) === expected;
}

function checkLeaf(
  leaf: { member: string; operator: string; values?: string[] | null },
  member: Member,
  now: Date,
  local: LocalClock,
): void {
  if (!OPERATORS.has(leaf.operator))
    throw fail(`Unknown filter operator '${leaf.operator}' on ${leaf.member}`);
  const values = leaf.values ?? [];
  const type = member.kind === 'measure' ? 'number' : member.def.type;
  if (leaf.operator !== 'set' && leaf.operator !== 'notSet' && values.length === 0) {
    throw fail(`The filter ${leaf.operator} on ${leaf.member} needs values`);
  }
  if (NUMBER_OPERATORS.has(leaf.operator) && values.some((v) => Number.isNaN(Number(v)))) {
    throw fail(`The filter ${leaf.operator} on ${leaf.member} needs numbers`);
  }
  if (leaf.operator.includes('Date')) {
    if (type !== 'time') throw fail(`${leaf.operator} applies to time dimensions; ${leaf.member} is not one`);
    dateRangeOf(values.length === 1 ? (values[0] as string) : [...values], now, local);
  }
}

const amount = (n: number) => n.toLocaleString('en-US');

/** The budget of one request as it is spent, and its turns given to other requests. */
class Meter {
  readonly budget: QueryBudget;
  readonly #started = performance.now();
  #turn = this.#started;
  #rows = 0;
  #steps = 0;
  /** Where the work is (a cube, the join), for the refusal's detail. */
  where = '';

  constructor(budget: QueryBudget) {
    this.budget = budget;
  }

  #over(exceeded: string, detail: string): ApiError {
    return errors.queryOverBudget(exceeded, `${this.where}: ${detail}`);
  }

  /**
   * Counts a row read off a cube; true when it is time to `pause`. Before a connection's dataset,
   * generated in one piece (BETWEEN_CONNECTIONS, no row), it is time once half a slice is spent.
   */
  read(row: Row): boolean {
    if (row === BETWEEN_CONNECTIONS) return performance.now() - this.#turn >= SLICE_MS / 2;
    this.#rows += 1;
    if (this.#rows > this.budget.rows) {
      const rows = amount(this.budget.rows);
      throw this.#over(`${rows} rows`, `more than ${rows} rows to read`);
    }
    return this.step();
  }

  /** Counts a step of work; true when it is time to `pause`. */
  step(): boolean {
    this.#steps += 1;
    return this.#steps % STEPS_PER_LOOK === 0;
  }

  /** Refuses to keep more than the budget's groups (`what`: groups, joined rows...). */
  keep(count: number, what = 'groups'): void {
    if (count > this.budget.groups) {
      const groups = amount(this.budget.groups);
      throw this.#over(`${groups} ${what}`, `more than ${groups} ${what} to keep`);
    }
  }

  /** Gives other requests their turn once the work has gone on for a slice; stops past the time. */
  async pause(sliceMs = SLICE_MS): Promise<void> {
    if (performance.now() - this.#turn >= sliceMs) {
      await nextTurn();
      this.#turn = performance.now();
    }
    if (performance.now() - this.#started > this.budget.ms) {
      const ms = amount(this.budget.ms);
      throw this.#over(`${ms} ms`, `still working after ${ms} ms`);
    }
  }
}

export interface QueryContext {
  now: Date;
  /** The cubes of the app: the platform's and its verticals' (cubesOf). */
  cubes: readonly CubeDef[];
  /** The consumers the caller reaches. */
  consumers: ConsumerRecord[];
  source: Omit<RowSource, 'consumers' | 'now'>;
  /** What the request may spend, where it differs from DATALAB_BUDGET. */
  budget?: Partial<QueryBudget>;
}

const meterOf = (context: QueryContext) => new Meter({ ...DATALAB_BUDGET, ...context.budget });

/** Consumer ids a query narrows to: equals filters on <cube>.consumer_id at the top level. */
function consumerNarrowing(cube: CubeDef, filters: readonly CubeFilterValue[]): Set<string> | null {
  let narrowed: Set<string> | null = null;
  const visit = (list: readonly CubeFilterValue[]) => {
    for (const f of list) {
      if (isLeaf(f)) {
        if (f.member === `${cube.name}.consumer_id` && f.operator === 'equals' && f.values?.length) {
          const values = new Set(f.values.map((v) => v.toLowerCase()));
          narrowed = narrowed ? new Set([...narrowed].filter((v) => values.has(v))) : values;
        }
      } else if ('and' in f) visit(f.and);
    }
  };
  visit(filters);
  return narrowed;
}

export function runQuery(query: CubeLoadQueryInput, context: QueryContext): Promise<QueryResponseOut> {
  return execute(query, context, meterOf(context));
}

/** One entry of an answer: the values of its group (dimensions, buckets) and of its measures. */
interface Result {
  key: Value[];
  measures: Value[];
}

async function execute(
  query: CubeLoadQueryInput,
  context: QueryContext,
  meter: Meter,
): Promise<QueryResponseOut> {
  const local = localClockOf(query.timezone);
  const now = new Date(local(context.now.toISOString()));
  if (query.segments?.length)
    throw fail(`Unknown segment '${query.segments[0]}': the cubes have no segments`);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  if (limit < 0 || limit > MAX_LIMIT) throw fail(`limit must be between 0 and ${MAX_LIMIT}`);
  if (offset < 0) throw fail('offset cannot be negative');
  const filters = query.filters ?? [];
  const timeDimensions = query.timeDimensions ?? [];
  const measures = (query.measures ?? []).map((name) => resolveMember(context.cubes, name));
  const dimensions = (query.dimensions ?? []).map((name) => resolveMember(context.cubes, name));
  for (const m of measures) if (m.kind !== 'measure') throw fail(`${m.name} is a dimension, not a measure`);
  for (const d of dimensions)
    if (d.kind !== 'dimension') throw fail(`${d.name} is a measure, not a dimension`);
  const times = timeDimensions.map((td) => {
    const member = resolveMember(context.cubes, td.dimension);
    if (member.kind !== 'dimension' || member.def.type !== 'time')
      throw fail(`${td.dimension} is not a time dimension`);
    if (td.compareDateRange?.length)
      throw fail('compareDateRange is not supported: send one query per range');
    const granularity = td.granularity ?? null;
    if (granularity !== null && !(GRANULARITIES as readonly string[]).includes(granularity)) {
      throw fail(`Unknown granularity '${granularity}': ${GRANULARITIES.join(', ')}`);
    }
    const range = td.dateRange ? dateRangeOf(td.dateRange, now, local) : null;
    return { member, granularity: granularity as Granularity | null, range };
  });
  const filterMemberList = filterMembers(filters).map((name) => resolveMember(context.cubes, name));
  const all = [...measures, ...dimensions, ...times.map((t) => t.member), ...filterMemberList];
  if (measures.length + dimensions.length + times.filter((t) => t.granularity).length === 0) {
    throw fail(
      'The query asks for nothing: give measures, dimensions or a time dimension with a granularity',
    );
  }
  const cube = (all[0] as Member).cube;
  const other = all.find((m) => m.cube !== cube);
  if (other) throw fail(`A query reads one cube: ${other.name} is not a member of '${cube.name}'`);
  const byName = new Map(all.map((m) => [m.name, m]));
  const checkFilters = (list: readonly CubeFilterValue[]) => {
    for (const f of list) {
      if (isLeaf(f)) checkLeaf(f, byName.get(f.member) as Member, now, local);
      else checkFilters('and' in f ? f.and : f.or);
    }
  };
  checkFilters(filters);
  // Filters on dimensions choose the rows, filters on measures the groups; a condition (and/or)
  // cannot mix them, as in Cube.
  const kindOf = (f: CubeFilterValue): 'dimension' | 'measure' | 'mixed' => {
    if (isLeaf(f)) return (byName.get(f.member) as Member).kind;
    const kinds = new Set(('and' in f ? f.and : f.or).map(kindOf));
    if (kinds.has('mixed') || kinds.size > 1) return 'mixed';
    return kinds.has('measure') ? 'measure' : 'dimension';
  };
  const kinds = filters.map(kindOf);
  if (kinds.includes('mixed'))
    throw fail('A condition (and/or) cannot mix dimensions and measures: filter on each apart');
  const rowFilters = filters.filter((_, i) => kinds[i] === 'dimension');
  const groupFilters = filters.filter((_, i) => kinds[i] === 'measure');
  // Measures filtered on but not selected are computed for the filter alone.
  const aggregated = [...measures];
  for (const m of filterMemberList) {
    if (m.kind === 'measure' && !aggregated.some((a) => a.name === m.name)) aggregated.push(m);
  }
  if (query.ungrouped && measures.some((m) => m.kind === 'measure' && m.def.agg === 'countDistinct')) {
    throw fail('countDistinct measures cannot be read ungrouped');
  }

  // The rows: the reachable consumers, narrowed by a consumer_id filter, then their datasets.
  const narrowing = consumerNarrowing(cube, filters);
  const consumers = narrowing
    ? context.consumers.filter((c) => narrowing.has(c.consumerid))
    : context.consumers;
  const source: RowSource = { ...context.source, consumers, now: context.now };
  const dimensionValue = (row: Row, member: Member): Value => {
    const def = member.def as DimensionDef;
    const value = def.get(row);
    if (local === utc || def.type !== 'time' || value === null || value === undefined) return value;
    return local(String(value));
  };
  const rowMatches = (row: Row, list: readonly CubeFilterValue[], mode: 'and' | 'or'): boolean => {
    const results = list.map((f) => {
      if (isLeaf(f)) {
        const member = byName.get(f.member) as Member;
        const type = (member.def as DimensionDef).type;
        return matches(dimensionValue(row, member), type, f.operator, f.values ?? [], now, local);
      }
      return 'and' in f ? rowMatches(row, f.and, 'and') : rowMatches(row, f.or, 'or');
    });
    if (results.length === 0) return true;
    return mode === 'and' ? results.every(Boolean) : results.some(Boolean);
  };
  const rowChosen = (row: Row): boolean => {
    for (const t of times) {
      if (!t.range) continue;
      const value = dimensionValue(row, t.member);
      if (value === null || String(value) < t.range[0] || String(value) > t.range[1]) return false;
    }
    return rowMatches(row, rowFilters, 'and');
  };

  // Groups: by the dimensions and the time buckets (ungrouped: one group per row).
  const timeColumns = times.filter((t) => t.granularity);
  const keyOf = (row: Row): Value[] => [
    ...dimensions.map((d) => dimensionValue(row, d)),
    ...timeColumns.map((t) => {
      const value = dimensionValue(row, t.member);
      return value === null ? null : truncate(String(value), t.granularity as Granularity);
    }),
  ];

  // Filters on measures apply to the groups.
  const groupMatches = (values: Value[], list: readonly CubeFilterValue[], mode: 'and' | 'or'): boolean => {
    const outcomes = list.map((f) => {
      if (isLeaf(f)) {
        const index = aggregated.findIndex((m) => m.name === f.member);
        return matches(values[index] ?? null, 'number', f.operator, f.values ?? [], now, local);
      }
      return 'and' in f ? groupMatches(values, f.and, 'and') : groupMatches(values, f.or, 'or');
    });
    if (outcomes.length === 0) return true;
    return mode === 'and' ? outcomes.every(Boolean) : outcomes.some(Boolean);
  };

  // Order: as asked, else the first time bucket ascending, else the first measure descending.
  const columns = [
    ...dimensions.map((d) => d.name),
    ...timeColumns.map((t) => `${t.member.name}.${t.granularity}`),
    ...measures.map((m) => m.name),
  ];
  const valueAt = (r: Result, column: number) =>
    column < r.key.length ? r.key[column] : r.measures[column - r.key.length];
  const order = orderOf(
    query.order,
    columns,
    timeColumns.length ? `${timeColumns[0]?.member.name}.${timeColumns[0]?.granularity}` : null,
    measures[0]?.name ?? null,
    dimensions[0]?.name ?? null,
  ).map(({ column, desc }) => ({ index: columns.indexOf(column), desc }));
  const inOrder = (a: Result, b: Result): number => {
    for (const { index, desc } of order) {
      const cmp = compare(valueAt(a, index) ?? null, valueAt(b, index) ?? null);
      if (cmp !== 0) return desc ? -cmp : cmp;
    }
    return 0;
  };

  // The rows are read one by one: each adds to its group's totals (ungrouped: is a row of the
  // answer, of which only those the page needs are kept).
  meter.where = cube.name;
  const measureDefs = aggregated.map((m) => m.def as MeasureDef);
  const groups = new Map<string, { key: Value[]; totals: Totals[] }>();
  const firstRows = query.ungrouped ? new FirstRows(offset + limit, inOrder, meter) : null;
  const currencies = new Set<string>();
  for (const row of cube.rows(source)) {
    if (meter.read(row)) await meter.pause(SLICE_MS / 2);
    if (row === BETWEEN_CONNECTIONS || !rowChosen(row)) continue;
    const currency = cube.currency?.(row);
    if (currency) currencies.add(currency);
    const key = keyOf(row);
    if (firstRows) {
      const values = measureDefs.map((def) => new Totals(def).add(row).value());
      const chosen = groupFilters.length === 0 || groupMatches(values, groupFilters, 'and');
      if (chosen && firstRows.add({ key, measures: values })) await firstRows.trim();
      continue;
    }
    const id = JSON.stringify(key);
    let group = groups.get(id);
    if (!group) {
      group = { key, totals: measureDefs.map((def) => new Totals(def)) };
      groups.set(id, group);
      meter.keep(groups.size);
    }
    for (const totals of group.totals) totals.add(row);
  }
  let results: Result[];
  if (firstRows) results = await firstRows.all();
  else {
    // Measures alone (no dimension, no bucket) always make one row, as SQL without GROUP BY does.
    if (groups.size === 0 && dimensions.length + timeColumns.length === 0) {
      groups.set('[]', { key: [], totals: measureDefs.map((def) => new Totals(def)) });
    }
    results = [];
    for (const group of groups.values()) {
      const values = group.totals.map((totals) => totals.value());
      if (groupFilters.length === 0 || groupMatches(values, groupFilters, 'and')) {
        results.push({ key: group.key, measures: values });
      }
    }
    groups.clear();
    results = await sortGently(results, inOrder, meter);
  }
  const page = results.slice(offset, offset + limit);

  const monetary = measures.filter((m) => m.kind === 'measure' && m.def.monetary).map((m) => m.name);
  return {
    results: columns.map((column, index) => {
      const member = byName.get(column) ?? byName.get(column.split('.').slice(0, 2).join('.'));
      const type =
        member?.kind === 'measure' ? 'number' : ((member?.def as DimensionDef | undefined)?.type ?? 'time');
      // Raw instants of a time zone are its local times, written without a zone (buckets already are).
      const shown = (value: Value) =>
        local !== utc && type === 'time' && typeof value === 'string' ? value.replace(/Z$/, '') : value;
      return {
        column,
        title: member ? `${cube.title} ${member.def.title}` : column,
        data: page.map((r) => shown(valueAt(r, index) ?? null)),
        type,
      };
    }),
    meta: { currency: [...currencies].sort(), monetary_measures: monetary },
  };
}

// ------------------------------------------------------------------------------------------------
// Joined queries (POST /datalab/query-groups-join).

/** A refusal of one query of a join, its place named first. */
async function inQuery<T>(index: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(error.status, error.message, `queries[${index}]: ${error.detail}`, error.errorCode);
  }
}

/** The dimension a column of an answer shows: cube.dimension, or cube.dimension.granularity. */
function dimensionOfColumn(cubes: readonly CubeDef[], column: string): DimensionDef | undefined {
  const [cubeName, memberName, granularity, extra] = column.split('.');
  if (extra !== undefined) return undefined;
  const dimension = cubes.find((c) => c.name === cubeName)?.dimensions.find((d) => d.name === memberName);
  if (!dimension) return undefined;
  if (granularity === undefined) return dimension;
  return dimension.type === 'time' && (GRANULARITIES as readonly string[]).includes(granularity)
    ? dimension
    : undefined;
}

/**
 * Runs each query as POST /datalab/query-db does, then full-outer joins the answers on the aligned
 * dimensions: each entry of `align` names one column per query (null where a query lacks the axis),
 * all on one alignAxis, which names the joined column. The answers join in their order, each on
 * the axes it shares with those before it (no shared axis: every row with every row); rows match
 * when their values are equal (a missing value matches a missing one), and a row that matches none
 * is kept with empty cells. The axis columns come first, ordered ascending (missing values last),
 * then every other column of each answer in turn; a column name already taken gets the index of its
 * query (`_1`). The meta lists the currencies and monetary measures of every answer.
 */
export async function runJoinQuery(
  join: CubeJoinQueryInput,
  context: QueryContext,
): Promise<QueryResponseOut> {
  // One budget for the whole request: its queries, then the join.
  const meter = meterOf(context);
  const answers: QueryResponseOut[] = [];
  for (const [i, query] of join.queries.entries()) {
    answers.push(await inQuery(i, () => execute(query, context, meter)));
  }
  meter.where = 'the join';
  const axes = (join.align ?? []).map((entry, k) => {
    const where = `align[${k}]`;
    if (entry.length !== answers.length) {
      throw fail(
        `${where} names ${entry.length} column(s): give one per query (${answers.length}), null where a query lacks the axis`,
      );
    }
    let axis: string | null = null;
    const columns = entry.map((name, i) => {
      if (name === null) return null;
      const index = (answers[i] as QueryResponseOut).results.findIndex((r) => r.column === name);
      const dimension = index < 0 ? undefined : dimensionOfColumn(context.cubes, name);
      if (!dimension) {
        throw fail(`${where}[${i}]: '${name}' is not a dimension of the answer of queries[${i}]`);
      }
      if (!dimension.alignAxis) {
        throw fail(`${where}[${i}]: '${name}' declares no alignAxis (GET /datalab/cube-schemas)`);
      }
      if (axis !== null && dimension.alignAxis !== axis) {
        throw fail(
          `${where}: '${name}' is on the axis '${dimension.alignAxis}', not '${axis}': the columns of an entry share one alignAxis`,
        );
      }
      axis = dimension.alignAxis;
      return index;
    });
    if (axis === null) throw fail(`${where} names no column: give the dimension of at least one query`);
    return { axis: axis as string, columns };
  });
  axes.forEach((a, k) => {
    const first = axes.findIndex((b) => b.axis === a.axis);
    if (first !== k) throw fail(`align[${k}]: the axis '${a.axis}' is already aligned by align[${first}]`);
  });

  interface Joined {
    axes: Value[];
    /** The row of each answer joined in (null: none). */
    parts: (number | null)[];
  }
  const NONE = undefined as unknown as Value;
  let joined: Joined[] = [];
  const known = new Set<number>();
  for (const [i, answer] of answers.entries()) {
    const mine = axes.flatMap((a, k) => (a.columns[i] === null ? [] : [k]));
    const shared = mine.filter((k) => known.has(k));
    const count = answer.results[0]?.data.length ?? 0;
    const rows = Array.from({ length: count }, (_, r) => {
      const values: Value[] = axes.map(() => NONE);
      for (const k of mine) {
        const column = answer.results[axes[k]?.columns[i] as number];
        values[k] = (column?.data[r] ?? null) as Value;
      }
      return values;
    });
    const keyOf = (values: Value[]) => JSON.stringify(shared.map((k) => values[k] ?? null));
    if (i === 0) {
      joined = rows.map((values, r) => ({ axes: values, parts: [r] }));
    } else {
      const byKey = new Map<string, number[]>();
      rows.forEach((values, r) => {
        const key = keyOf(values);
        const hits = byKey.get(key);
        if (hits) hits.push(r);
        else byKey.set(key, [r]);
      });
      const matched = new Set<number>();
      const next: Joined[] = [];
      for (const row of joined) {
        const hits = byKey.get(keyOf(row.axes)) ?? [];
        if (hits.length === 0) next.push({ axes: row.axes, parts: [...row.parts, null] });
        for (const r of hits) {
          matched.add(r);
          const values = [...row.axes];
          for (const k of mine) values[k] = rows[r]?.[k] ?? null;
          next.push({ axes: values, parts: [...row.parts, r] });
          if (meter.step()) {
            meter.keep(next.length, 'joined rows');
            await meter.pause();
          }
        }
      }
      rows.forEach((values, r) => {
        if (!matched.has(r)) next.push({ axes: values, parts: [...answers.slice(0, i).map(() => null), r] });
      });
      meter.keep(next.length, 'joined rows');
      joined = next;
    }
    for (const k of mine) known.add(k);
  }
  joined = await sortGently(
    joined,
    (a, b) => {
      for (let k = 0; k < axes.length; k++) {
        const cmp = compare(a.axes[k] ?? null, b.axes[k] ?? null);
        if (cmp !== 0) return cmp;
      }
      return 0;
    },
    meter,
  );

  const results: QueryResponseOut['results'] = axes.map((a, k) => {
    const i = a.columns.findIndex((c) => c !== null);
    const source = (answers[i] as QueryResponseOut).results[a.columns[i] as number];
    return {
      column: a.axis,
      title: a.axis,
      type: source?.type ?? 'string',
      data: joined.map((row) => row.axes[k] ?? null),
    };
  });
  const taken = new Set(results.map((r) => r.column));
  const monetary: string[] = [];
  answers.forEach((answer, i) => {
    const aligned = new Set(axes.map((a) => a.columns[i]));
    answer.results.forEach((result, c) => {
      if (aligned.has(c)) return;
      let column = result.column;
      while (taken.has(column)) column = `${column}_${i}`;
      taken.add(column);
      if (answer.meta?.monetary_measures?.includes(result.column)) monetary.push(column);
      results.push({
        ...result,
        column,
        data: joined.map((row) => {
          const r = row.parts[i];
          return r === null || r === undefined ? null : (result.data[r] ?? null);
        }),
      });
    });
  });
  const currencies = [...new Set(answers.flatMap((a) => a.meta?.currency ?? []))].sort();
  return { results, meta: { currency: currencies, monetary_measures: monetary } };
}

/** The totals of one measure over the rows of a group, added one by one. */
class Totals {
  readonly #measure: MeasureDef;
  #rows = 0;
  /** How many values are numbers, their sum in cents, their least and greatest. */
  #numbers = 0;
  #cents = 0;
  #min = 0;
  #max = 0;
  /** The distinct values (countDistinct), as text. */
  readonly #distinct: Set<string> | null;

  constructor(measure: MeasureDef) {
    this.#measure = measure;
    this.#distinct = measure.agg === 'countDistinct' ? new Set() : null;
  }

  add(row: Row): this {
    this.#rows += 1;
    if (this.#measure.agg === 'count') return this;
    const value = this.#measure.get?.(row);
    if (value === null || value === undefined) return this;
    if (this.#distinct) {
      this.#distinct.add(String(value));
      return this;
    }
    const n = Number(value);
    if (Number.isNaN(n)) return this;
    this.#cents += Math.round(n * 100);
    this.#min = this.#numbers === 0 ? n : Math.min(this.#min, n);
    this.#max = this.#numbers === 0 ? n : Math.max(this.#max, n);
    this.#numbers += 1;
    return this;
  }

  value(): number | null {
    const agg = this.#measure.agg;
    if (agg === 'count') return this.#rows;
    if (this.#distinct) return this.#distinct.size;
    if (this.#numbers === 0) return agg === 'sum' ? 0 : null;
    const sum = this.#cents / 100;
    if (agg === 'sum') return round2(sum);
    if (agg === 'avg') return round2(sum / this.#numbers);
    return agg === 'min' ? this.#min : this.#max;
  }
}

/**
 * The first `wanted` rows of an ungrouped answer in its order (ties in the order they came), among
 * rows added one by one: past about twice as many, the others are dropped.
 */
class FirstRows {
  readonly #wanted: number;
  readonly #inOrder: (a: Result, b: Result) => number;
  readonly #meter: Meter;
  #rows: Result[] = [];
  /** Whether the rows are in order: none added since the last trim. */
  #sorted = true;
  /** Rows held before a trim: about twice those wanted, one more than the budget's groups at most. */
  readonly #most: number;

  constructor(wanted: number, inOrder: (a: Result, b: Result) => number, meter: Meter) {
    this.#wanted = wanted;
    this.#inOrder = inOrder;
    this.#meter = meter;
    this.#most = Math.min(wanted + Math.max(wanted, 1024), meter.budget.groups + 1);
  }

  /** Adds a row; true when the rows are to be trimmed (`trim`) before the next one. */
  add(row: Result): boolean {
    this.#rows.push(row);
    this.#sorted = false;
    return this.#rows.length >= this.#most;
  }

  /** Keeps the first rows wanted, in order; refuses when they are more than the budget's groups. */
  async trim(): Promise<void> {
    this.#rows = (await sortGently(this.#rows, this.#inOrder, this.#meter)).slice(0, this.#wanted);
    this.#sorted = true;
    this.#meter.keep(this.#rows.length);
  }

  async all(): Promise<Result[]> {
    if (!this.#sorted) await this.trim();
    return this.#rows;
  }
}

/** Rows sorted together at once; longer lists are merged from such runs. */
const RUN = 2048;

/**
 * Sorts as Array.prototype.sort does (stable: ties keep their order), giving other requests their
 * turn between runs and while merging.
 */
async function sortGently<T>(items: T[], inOrder: (a: T, b: T) => number, meter: Meter): Promise<T[]> {
  if (items.length <= RUN) return items.sort(inOrder);
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += RUN) {
    runs.push(items.slice(start, start + RUN).sort(inOrder));
    await meter.pause();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r < runs.length; r += 2) {
      const left = runs[r] as T[];
      const right = runs[r + 1];
      if (!right) {
        merged.push(left);
        continue;
      }
      const out: T[] = [];
      let i = 0;
      let j = 0;
      while (i < left.length && j < right.length) {
        // On a tie the left one, which came first.
        out.push(inOrder(right[j] as T, left[i] as T) < 0 ? (right[j++] as T) : (left[i++] as T));
        if (meter.step()) await meter.pause();
      }
      for (; i < left.length; i++) out.push(left[i] as T);
      for (; j < right.length; j++) out.push(right[j] as T);
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function orderOf(
  order: CubeLoadQueryInput['order'],
  columns: string[],
  firstTime: string | null,
  firstMeasure: string | null,
  firstDimension: string | null,
): { column: string; desc: boolean }[] {
  const wanted: { column: string; desc: boolean }[] = [];
  if (order && Array.isArray(order)) {
    for (const item of order) {
      if (Array.isArray(item))
        wanted.push({ column: String(item[0]), desc: String(item[1] ?? 'asc').toLowerCase() === 'desc' });
      else {
        const column = item.member ?? item.id;
        if (!column) throw fail('An order item names its member (member or id)');
        wanted.push({ column, desc: item.desc === true || item.direction === 'desc' });
      }
    }
  } else if (order) {
    for (const [column, direction] of Object.entries(order))
      wanted.push({ column, desc: direction === 'desc' });
  }
  for (const w of wanted) {
    if (!columns.includes(w.column))
      throw fail(`Cannot order by ${w.column}: it is not a column of the answer`);
  }
  if (wanted.length) return wanted;
  if (firstTime) return [{ column: firstTime, desc: false }];
  if (firstMeasure) return [{ column: firstMeasure, desc: true }];
  return firstDimension ? [{ column: firstDimension, desc: false }] : [];
}
