import { DATALAB_BUDGET, type QueryBudget, SLICE_MS } from '../../lib/budgets.js';
import type { CubeDef, DimensionDef, MeasureDef, Row, RowSource } from '../../platform/cube.js';
import { BetweenConnections } from '../../platform/cube.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import type { ConsumerRecord } from '../../store/world.js';
import {
  dateRangeOf,
  GRANULARITIES,
  type Granularity,
  localClockOf,
  truncate,
  utc,
} from './datalab.dates.js';
import {
  checkLeaf,
  consumerNarrowing,
  filterMembers,
  isLeaf,
  type Member,
  matches,
  resolveMember,
  type Value,
} from './datalab.filters.js';
import { compare, FirstRows, orderOf, sortGently, Totals } from './datalab.groups.js';
import { Meter } from './datalab.meter.js';
import type { CubeFilterValue, CubeLoadQueryInput, QueryResponseOut } from './datalab.schemas.js';

/** One query (POST /datalab/query-db): checked, then read row by row into its groups. */

const fail = (detail: string) => verticalFailure(detail);

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;

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

export const meterOf = (context: QueryContext) => new Meter({ ...DATALAB_BUDGET, ...context.budget });

export function runQuery(query: CubeLoadQueryInput, context: QueryContext): Promise<QueryResponseOut> {
  return execute(query, context, meterOf(context));
}

/** One entry of an answer: the values of its group (dimensions, buckets) and of its measures. */
export interface Result {
  key: Value[];
  measures: Value[];
}

/** A query checked against the cubes: its members, its filters (on rows and on groups) and its page. */
type Plan = ReturnType<typeof planQuery>;

/**
 * Checks a query and resolves its members: the refusals of a query come from here, before any row
 * is read.
 */
function planQuery(query: CubeLoadQueryInput, context: QueryContext) {
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
  return {
    local,
    now,
    limit,
    offset,
    filters,
    cube,
    measures,
    dimensions,
    times,
    byName,
    rowFilters,
    groupFilters,
    aggregated,
  };
}

/** How the rows of a plan are chosen and grouped, and how its groups are filtered. */
function matchersOf(plan: Plan) {
  const { local, now, times, dimensions, byName, rowFilters, aggregated } = plan;
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
  return { rowChosen, keyOf, groupMatches, timeColumns };
}

/** The answer of a plan: a column per dimension, time bucket and measure, with the page's values. */
function answerOf(
  plan: Plan,
  columns: string[],
  page: Result[],
  valueAt: (r: Result, column: number) => Value | undefined,
  currencies: Set<string>,
): QueryResponseOut {
  const { measures, byName, local, cube } = plan;
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

export async function execute(
  query: CubeLoadQueryInput,
  context: QueryContext,
  meter: Meter,
): Promise<QueryResponseOut> {
  const plan = planQuery(query, context);
  const { limit, offset, filters, cube, measures, dimensions, groupFilters, aggregated } = plan;
  // The rows: the reachable consumers, narrowed by a consumer_id filter, then their datasets.
  const narrowing = consumerNarrowing(cube, filters);
  const consumers = narrowing
    ? context.consumers.filter((c) => narrowing.has(c.consumerid))
    : context.consumers;
  const source: RowSource = { ...context.source, consumers, now: context.now };
  const { rowChosen, keyOf, groupMatches, timeColumns } = matchersOf(plan);

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
    if (row instanceof BetweenConnections) {
      // The next connection's dataset, built in slices with the other requests going on.
      if (row.ready) await row.ready;
      continue;
    }
    if (!rowChosen(row)) continue;
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

  return answerOf(plan, columns, page, valueAt, currencies);
}
