import { readFileSync } from 'node:fs';
import type { Store } from '../../src/store/store.js';
import type { World } from '../../src/store/world.js';

type Json = Record<string, unknown>;

/**
 * A world file's snapshot as plain data, read line by line as docs/persistence.md describes it: the
 * head's meta block, each collection's records, and each generated dataset as `{ a, o }` (the
 * arguments it was built with and the changes writes made to it).
 */
export function snapshotOf(file: string): Json & { meta: Json } {
  const out: Json & { meta: Json } = { meta: {} };
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as Json;
    if (line.format !== undefined) {
      out.meta = line.meta as Json;
      for (const name of line.collections as string[]) out[name] = {};
    } else if (typeof line.c === 'string') {
      const records = out[line.c] as Json;
      records[line.k as string] = 'o' in line ? { a: line.a, o: line.o } : line.v;
    }
  }
  return out;
}

/** The store's world with every generated dataset in use opened (open the store with no cache bound). */
export function withDatasets(store: Store): World {
  for (const name of Object.keys(store.world)) {
    for (const key of store.generatedKeys(name)) store.open(name, key);
  }
  return store.world;
}
