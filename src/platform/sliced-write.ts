import type { WorldStore, Write } from '../store/store.js';

/**
 * A write whose work runs in slices (lib/slices.ts: a fixture document loaded, a timeline declared
 * or applied), the event loop given back between them. It holds the world from its first slice to
 * its commit, as every write does, so other writes wait for their turn; the reads of the same world
 * wait for its end too (between its slices they would see it half done, and a refusal undoes it);
 * other worlds, whose stores it does not hold, are answered between its slices.
 */
const held = new WeakMap<WorldStore, Promise<void>>();

/** Runs `work` as a write of `store` (the app's store: reads find it there) whose reads wait for it. */
export async function slicedWrite<T>(store: WorldStore, work: Write<T>): Promise<T> {
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const written = store.transact((scope) => {
    // Held from its turn on, not while it waits for it.
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    held.set(store, gate);
    return work(scope);
  });
  try {
    return await written;
  } finally {
    if (gate && held.get(store) === gate) held.delete(store);
    release?.();
  }
}

/** What a read of `store` waits for: the end of the sliced write under way, or nothing. */
export const readsWaitFor = (store: WorldStore): Promise<void> | undefined => held.get(store);
