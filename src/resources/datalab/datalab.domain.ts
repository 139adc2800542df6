import { round2 } from '../../seed/vertical-data.js';
import type { ConsumerRecord } from '../../store/world.js';
import { verticalFailure } from '../consumers/vertical-connection.js';
import {
  activeConnections,
  type CubeDef,
  type DimensionDef,
  type MeasureDef,
  type Row,
  type RowSource,
} from './datalab.cube-def.js';
import { CUBES, MAX_DATASETS_PER_QUERY } from './datalab.cubes.js';
import type {
  CubeFilterValue,
  CubeLoadQueryInput,
  CubeMetaOut,
  QueryResponseOut,
} from './datalab.schemas.js';

/**
 * A small Cube-style query engine over the cubes of datalab.cubes.ts: members, filters (and/or,
 * the usual operators), time dimensions with date ranges and granularities, grouping, ordering and
 * paging. It runs over the sandbox's own records, in UTC. Refused queries answer 400 with the
 * service's generic message and a detail naming the problem.
 */

const fail = (detail: string) => verticalFailure(detail);

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;
const MAX_FILTER_DEPTH = 16;
const GRANULARITIES = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type Granularity = (typeof GRANULARITIES)[number];

export function cubeSchemas(): CubeMetaOut[] {
  return CUBES.map((cube) => ({
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

function resolveMember(name: string): Member {
  const [cubeName, memberName, extra] = name.split('.');
  const cube = CUBES.find((c) => c.name === cubeName);
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

function filterMembers(filters: readonly CubeFilterValue[], depth = 0): string[] {
  if (depth > MAX_FILTER_DEPTH) throw fail(`Filters nest at most ${MAX_FILTER_DEPTH} levels deep`);
  return filters.flatMap((f) =>
    isLeaf(f) ? [f.member] : filterMembers('and' in f ? f.and : f.or, depth + 1),
  );
}

/** The time range of a date range, as [first instant, last instant] (ISO, both included). */
export function dateRangeOf(range: string | string[], now: Date): [string, string] {
  const startOfDay = (day: string) => `${day}T00:00:00.000Z`;
  const endOfDay = (day: string) => `${day}T23:59:59.999Z`;
  const asInstant = (value: string, end: boolean) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return end ? endOfDay(value) : startOfDay(value);
    const parsed = Date.parse(value);
    if (Number.isNaN(parsed)) throw fail(`'${value}' is not a date`);
    return new Date(parsed).toISOString();
  };
  if (Array.isArray(range)) {
    if (range.length !== 2 && range.length !== 1) throw fail('A date range is [from, to]');
    const from = asInstant(range[0] as string, false);
    const to = asInstant((range[1] ?? range[0]) as string, true);
    if (to < from) throw fail(`The date range ends (${range[1]}) before it starts (${range[0]})`);
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
    if (n < 1) throw fail(`'${range}' is an empty range`);
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
      const [from, to] = dateRangeOf(values.length === 1 ? (values[0] as string) : [...values], now);
      const inside = present && String(value) >= from && String(value) <= to;
      return operator === 'inDateRange' ? inside : present && !inside;
    }
    case 'beforeDate':
    case 'beforeOrOnDate':
    case 'afterDate':
    case 'afterOrOnDate': {
      const [from, to] = dateRangeOf(values[0] as string, now);
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
    dateRangeOf(values.length === 1 ? (values[0] as string) : [...values], now);
  }
}

export interface QueryContext {
  now: Date;
  /** The consumers the caller reaches. */
  consumers: ConsumerRecord[];
  source: Omit<RowSource, 'consumers'>;
}

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

export function runQuery(query: CubeLoadQueryInput, context: QueryContext): QueryResponseOut {
  if (query.timezone && !['UTC', 'ETC/UTC', 'Z'].includes(query.timezone.toUpperCase())) {
    throw fail(
      `Only UTC is supported: the sandbox keeps every instant in UTC (timezone '${query.timezone}')`,
    );
  }
  if (query.segments?.length)
    throw fail(`Unknown segment '${query.segments[0]}': the cubes have no segments`);
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  if (limit < 1 || limit > MAX_LIMIT) throw fail(`limit must be between 1 and ${MAX_LIMIT}`);
  if (offset < 0) throw fail('offset cannot be negative');
  const filters = query.filters ?? [];
  const timeDimensions = query.timeDimensions ?? [];
  const measures = (query.measures ?? []).map(resolveMember);
  const dimensions = (query.dimensions ?? []).map(resolveMember);
  for (const m of measures) if (m.kind !== 'measure') throw fail(`${m.name} is a dimension, not a measure`);
  for (const d of dimensions)
    if (d.kind !== 'dimension') throw fail(`${d.name} is a measure, not a dimension`);
  const times = timeDimensions.map((td) => {
    const member = resolveMember(td.dimension);
    if (member.kind !== 'dimension' || member.def.type !== 'time')
      throw fail(`${td.dimension} is not a time dimension`);
    if (td.compareDateRange?.length)
      throw fail('compareDateRange is not supported: send one query per range');
    const granularity = td.granularity ?? null;
    if (granularity !== null && !(GRANULARITIES as readonly string[]).includes(granularity)) {
      throw fail(`Unknown granularity '${granularity}': ${GRANULARITIES.join(', ')}`);
    }
    const range = td.dateRange ? dateRangeOf(td.dateRange, context.now) : null;
    return { member, granularity: granularity as Granularity | null, range };
  });
  const filterMemberList = filterMembers(filters).map(resolveMember);
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
  const checkFilters = (list: readonly CubeFilterValue[], topLevel: boolean) => {
    for (const f of list) {
      if (isLeaf(f)) {
        const member = byName.get(f.member) as Member;
        if (member.kind === 'measure' && !topLevel)
          throw fail(`Filters on measures (${f.member}) go at the top level`);
        checkLeaf(f, member, context.now);
      } else checkFilters('and' in f ? f.and : f.or, topLevel && 'and' in f);
    }
  };
  checkFilters(filters, true);
  if (query.ungrouped && measures.some((m) => m.kind === 'measure' && m.def.agg === 'countDistinct')) {
    throw fail('countDistinct measures cannot be read ungrouped');
  }

  // The rows: the reachable consumers, narrowed by a consumer_id filter, then their datasets.
  const narrowing = consumerNarrowing(cube, filters);
  const consumers = narrowing
    ? context.consumers.filter((c) => narrowing.has(c.consumerid))
    : context.consumers;
  const source: RowSource = { ...context.source, consumers };
  if (cube.api) {
    const connections = activeConnections(source, cube.api).length;
    if (connections > MAX_DATASETS_PER_QUERY) {
      throw fail(
        `The query reads ${connections} ${cube.api} connections; at most ${MAX_DATASETS_PER_QUERY} at once: filter on ${cube.name}.consumer_id`,
      );
    }
  }
  const dimensionValue = (row: Row, member: Member) => (member.def as DimensionDef).get(row);
  const rowMatches = (row: Row, list: readonly CubeFilterValue[], mode: 'and' | 'or'): boolean => {
    const results = list.map((f) => {
      if (isLeaf(f)) {
        const member = byName.get(f.member) as Member;
        if (member.kind === 'measure') return true; // applied to the groups
        return matches(dimensionValue(row, member), member.def.type, f.operator, f.values ?? [], context.now);
      }
      return 'and' in f ? rowMatches(row, f.and, 'and') : rowMatches(row, f.or, 'or');
    });
    if (results.length === 0) return true;
    return mode === 'and' ? results.every(Boolean) : results.some(Boolean);
  };
  const rows = cube.rows(source).filter((row) => {
    for (const t of times) {
      if (!t.range) continue;
      const value = dimensionValue(row, t.member);
      if (value === null || String(value) < t.range[0] || String(value) > t.range[1]) return false;
    }
    return rowMatches(row, filters, 'and');
  });

  // Groups: by the dimensions and the time buckets (ungrouped: one group per row).
  const timeColumns = times.filter((t) => t.granularity);
  const keyOf = (row: Row): Value[] => [
    ...dimensions.map((d) => dimensionValue(row, d)),
    ...timeColumns.map((t) => {
      const value = dimensionValue(row, t.member);
      return value === null ? null : truncate(String(value), t.granularity as Granularity);
    }),
  ];
  const groups = new Map<string, { key: Value[]; rows: Row[] }>();
  rows.forEach((row, index) => {
    const key = keyOf(row);
    const id = query.ungrouped ? String(index) : JSON.stringify(key);
    const group = groups.get(id) ?? { key, rows: [] };
    group.rows.push(row);
    groups.set(id, group);
  });
  let results = [...groups.values()].map((group) => ({
    key: group.key,
    measures: measures.map((m) => aggregate(m.def as MeasureDef, group.rows)),
  }));

  // Filters on measures apply to the groups.
  for (const f of filters) {
    if (!isLeaf(f)) continue;
    const member = byName.get(f.member) as Member;
    if (member.kind !== 'measure') continue;
    const index = measures.findIndex((m) => m.name === f.member);
    if (index < 0) throw fail(`Filtering on the measure ${f.member} needs it among the measures`);
    results = results.filter((r) =>
      matches(r.measures[index] ?? null, 'number', f.operator, f.values ?? [], context.now),
    );
  }

  // Order: as asked, else the first time bucket ascending, else the first measure descending.
  const columns = [
    ...dimensions.map((d) => d.name),
    ...timeColumns.map((t) => `${t.member.name}.${t.granularity}`),
    ...measures.map((m) => m.name),
  ];
  const valueAt = (r: { key: Value[]; measures: Value[] }, column: number) =>
    column < r.key.length ? r.key[column] : r.measures[column - r.key.length];
  const order = orderOf(
    query.order,
    columns,
    timeColumns.length ? `${timeColumns[0]?.member.name}.${timeColumns[0]?.granularity}` : null,
    measures[0]?.name ?? null,
    dimensions[0]?.name ?? null,
  );
  results.sort((a, b) => {
    for (const { column, desc } of order) {
      const i = columns.indexOf(column);
      const cmp = compare(valueAt(a, i) ?? null, valueAt(b, i) ?? null);
      if (cmp !== 0) return desc ? -cmp : cmp;
    }
    return 0;
  });
  const page = results.slice(offset, offset + limit);

  const monetary = measures.filter((m) => m.kind === 'measure' && m.def.monetary).map((m) => m.name);
  const currencies = cube.currency
    ? [...new Set(rows.map((r) => cube.currency?.(r)).filter((c): c is string => Boolean(c)))].sort()
    : [];
  return {
    results: columns.map((column, index) => {
      const member = byName.get(column) ?? byName.get(column.split('.').slice(0, 2).join('.'));
      const type =
        member?.kind === 'measure' ? 'number' : ((member?.def as DimensionDef | undefined)?.type ?? 'time');
      return {
        column,
        title: member ? `${cube.title} ${member.def.title}` : column,
        data: page.map((r) => valueAt(r, index) ?? null),
        type,
      };
    }),
    meta: { currency: currencies, monetary_measures: monetary },
  };
}

function aggregate(measure: MeasureDef, rows: readonly Row[]): number | null {
  if (measure.agg === 'count') return rows.length;
  const values = rows.map((r) => measure.get?.(r)).filter((v) => v !== null && v !== undefined);
  if (measure.agg === 'countDistinct') return new Set(values.map(String)).size;
  const numbers = values.map(Number).filter((n) => !Number.isNaN(n));
  if (numbers.length === 0) return measure.agg === 'sum' ? 0 : null;
  const sum = numbers.reduce((t, n) => t + Math.round(n * 100), 0) / 100;
  if (measure.agg === 'sum') return round2(sum);
  if (measure.agg === 'avg') return round2(sum / numbers.length);
  if (measure.agg === 'min') return Math.min(...numbers);
  return Math.max(...numbers);
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
