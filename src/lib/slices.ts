import { setImmediate as nextTurn } from 'node:timers/promises';
import { SLICE_MS } from './budgets.js';

/**
 * Long work written once, run two ways: a generator that yields between its steps (a record
 * applied, an event declared), each step short. Run at once where nothing else may run meanwhile
 * (an app being created); run in slices where requests are being served, the event loop given back
 * whenever a slice has lasted SLICE_MS, so that the other requests (and the other worlds) are
 * answered between them.
 */
export type Sliced<T> = Generator<void, T, void>;

/** Runs sliced work to its end in one go. */
export function runAtOnce<T>(work: Sliced<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs sliced work, giving the event loop back whenever a slice has lasted `sliceMs`, and before
 * its first slice and after its last: what comes before it (the request read) and after it (its
 * write's commit) are pieces of their own.
 */
export async function runInSlices<T>(work: Sliced<T>, sliceMs = SLICE_MS): Promise<T> {
  await nextTurn();
  let started = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) {
      await nextTurn();
      return step.value;
    }
    if (performance.now() - started >= sliceMs) {
      await nextTurn();
      started = performance.now();
    }
  }
}

/** Gives the event loop back once: the requests waiting are answered before the work goes on. */
export const giveTurn = (): Promise<void> => nextTurn();
