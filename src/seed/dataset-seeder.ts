import { uuidFrom } from '../lib/ids.js';
import type { ConnectionDatasetArgs } from './datasets.js';
import { type Faker, fakerFor } from './fakers.js';

/** What a connection's seeded dataset is built from: the seed and the connection it belongs to. */
export interface SeedInput extends ConnectionDatasetArgs {
  seed: number;
}

/** Ids numbered in the order they are minted: `uuidFrom(...parts, kind, n)` for the n-th id of any kind. */
export function mintedIds(...parts: (string | number)[]): (kind: string) => string {
  let minted = 0;
  return (kind) => {
    minted += 1;
    return uuidFrom(...parts, kind, minted);
  };
}

/**
 * A builder of a connection's dataset whose records are numbered in the order they are made: the
 * faker and the ids both follow from (vertical, seed, consumerid, connectionid), so the same input
 * builds the same dataset. The dataset starts with its owner's ids and the given empty collections.
 */
export abstract class DatasetSeeder<D extends ConnectionDatasetArgs> {
  readonly data: D;
  readonly faker: Faker;
  readonly options: SeedInput;
  readonly #mint: (kind: string) => string;

  constructor(vertical: string, options: SeedInput, collections: Omit<D, keyof ConnectionDatasetArgs>) {
    const { seed, consumerid, connectionid } = options;
    this.options = options;
    this.faker = fakerFor(vertical, seed, consumerid, connectionid);
    this.#mint = mintedIds(vertical, seed, consumerid, connectionid);
    this.data = { consumerid, connectionid, integrationid: options.integrationid, ...collections } as D;
  }

  /** The id of the next record of the dataset. */
  id(kind: string): string {
    return this.#mint(kind);
  }
}
