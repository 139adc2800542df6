import { runAtOnce, runInSlices, type Sliced } from '../lib/slices.js';

/**
 * What the builder of a generated collection gives: the dataset, or the work that builds it, which
 * yields between its pieces (a day of living business) so that it can run in slices (lib/slices.ts).
 */
export type Built<R extends object = object> = R | Sliced<R>;

const isSliced = <R extends object>(built: Built<R>): built is Sliced<R> =>
  typeof (built as Partial<Sliced<R>>).next === 'function' && Symbol.iterator in built;

/** The dataset a builder gave, its work run to the end at once. */
export const builtAtOnce = <R extends object>(built: Built<R>): R =>
  isSliced(built) ? runAtOnce(built) : built;

/** The dataset a builder gave, its work run in slices, the event loop given back between them. */
export const builtInSlices = <R extends object>(built: Built<R>): Promise<R> =>
  isSliced(built) ? runInSlices(built) : Promise.resolve(built);

/**
 * Builds under way in slices, by dataset: the reads that ask for one while it is built share it.
 * The builds of one world run one after another: builds run side by side would each take a slice
 * of every turn of the event loop, and the other requests would wait for all of those slices.
 */
export class BuildsInFlight {
  readonly #going = new Map<string, Promise<void>>();
  #last: Promise<void> = Promise.resolve();

  /** The build of `id` under way, else the one `start` begins once the builds before it end. */
  share(id: string, start: () => Promise<void>): Promise<void> {
    const going = this.#going.get(id);
    if (going) return going;
    const started = this.#last.then(start).finally(() => {
      if (this.#going.get(id) === started) this.#going.delete(id);
    });
    this.#going.set(id, started);
    this.#last = started.catch(() => undefined);
    return started;
  }
}
