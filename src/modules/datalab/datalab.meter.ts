import { setImmediate as nextTurn } from 'node:timers/promises';
import { type QueryBudget, SLICE_MS } from '../../lib/budgets.js';
import { type ApiError, errors } from '../../lib/errors.js';
import type { Row } from '../../platform/cube.js';
import { BetweenConnections } from '../../platform/cube.js';

/** The budget of a query as it is spent (see DATALAB_BUDGET), and its turns given to other requests. */

/** Steps (rows read, rows merged or joined) between two looks at the time. */
const STEPS_PER_LOOK = 256;

const amount = (n: number) => n.toLocaleString('en-US');

/** The budget of one request as it is spent, and its turns given to other requests. */
export class Meter {
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
   * Counts a row read off a cube; true when it is time to `pause`. Before a connection's dataset
   * (BetweenConnections, no row), it is time once half a slice is spent.
   */
  read(row: Row): boolean {
    if (row instanceof BetweenConnections) return performance.now() - this.#turn >= SLICE_MS / 2;
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
