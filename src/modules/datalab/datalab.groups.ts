import type { MeasureDef, Row } from '../../platform/cube.js';
import { round2 } from '../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import type { Value } from './datalab.filters.js';
import type { Meter } from './datalab.meter.js';
import type { Result } from './datalab.query.js';
import type { CubeLoadQueryInput } from './datalab.schemas.js';

/** The groups of an answer: their totals, the first rows of an ungrouped one, and their order. */

const fail = (detail: string) => verticalFailure(detail);

/** The totals of one measure over the rows of a group, added one by one. */
export class Totals {
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
export class FirstRows {
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
export async function sortGently<T>(items: T[], inOrder: (a: T, b: T) => number, meter: Meter): Promise<T[]> {
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

export function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function orderOf(
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
