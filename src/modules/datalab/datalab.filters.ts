import type { CubeDef, DimensionDef, MeasureDef } from '../../platform/cube.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import { dateRangeOf, type LocalClock } from './datalab.dates.js';
import type { CubeFilterValue } from './datalab.schemas.js';

/** The members a query names and its filters: how they resolve, are checked and match a value. */

const fail = (detail: string) => verticalFailure(detail);

export type Member =
  | { kind: 'measure'; cube: CubeDef; def: MeasureDef; name: string }
  | { kind: 'dimension'; cube: CubeDef; def: DimensionDef; name: string };

export function resolveMember(cubes: readonly CubeDef[], name: string): Member {
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

export const isLeaf = (
  f: CubeFilterValue,
): f is { member: string; operator: string; values?: string[] | null } => 'member' in f;

/** The members filters name (the JSON depth guard bounds their nesting). */
export function filterMembers(filters: readonly CubeFilterValue[]): string[] {
  return filters.flatMap((f) => (isLeaf(f) ? [f.member] : filterMembers('and' in f ? f.and : f.or)));
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

export type Value = string | number | boolean | null;

export function matches(
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

export function checkLeaf(
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

/** Consumer ids a query narrows to: equals filters on <cube>.consumer_id at the top level. */
export function consumerNarrowing(cube: CubeDef, filters: readonly CubeFilterValue[]): Set<string> | null {
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
