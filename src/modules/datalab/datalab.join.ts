import { ApiError } from '../../lib/errors.js';
import type { CubeDef, DimensionDef } from '../../platform/cube.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import { GRANULARITIES } from './datalab.dates.js';
import type { Value } from './datalab.filters.js';
import { compare, sortGently } from './datalab.groups.js';
import { execute, meterOf, type QueryContext } from './datalab.query.js';
import type { CubeJoinQueryInput, QueryResponseOut } from './datalab.schemas.js';

/** Joined queries (POST /datalab/query-groups-join). */

const fail = (detail: string) => verticalFailure(detail);

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
  const axes = alignedAxes(join, answers, context.cubes);

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

  return joinedAnswer(answers, axes, joined);
}

/** An aligned axis of a join: its name, and the column of each answer on it (null: none). */
interface Axis {
  axis: string;
  columns: (number | null)[];
}

/** The axes `align` names, checked against the answers of the join's queries. */
function alignedAxes(
  join: CubeJoinQueryInput,
  answers: QueryResponseOut[],
  cubes: readonly CubeDef[],
): Axis[] {
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
      const dimension = index < 0 ? undefined : dimensionOfColumn(cubes, name);
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

  return axes;
}

/** The joined answer: the axis columns, then every other column of each answer in turn. */
function joinedAnswer(
  answers: QueryResponseOut[],
  axes: Axis[],
  joined: { axes: Value[]; parts: (number | null)[] }[],
): QueryResponseOut {
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
