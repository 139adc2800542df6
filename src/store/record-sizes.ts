import { sizeOf } from './bounds.js';

/**
 * The sizes (as JSON) of the records writes changed, as they are now: what the next change of one
 * adds to the bytes clients hold. And the collections whose records their module bounds itself, with
 * how it knows their size (they still count in the world's bound, without serializing a large record
 * at every write).
 */
export class RecordSizes {
  #sizes = new Map<string, number>();
  readonly #boundedElsewhere = new Map<string, (record: never) => number>();

  /** Leaves the records of `collection` to their module's bounds, sized by `size` (see Store.boundedElsewhere). */
  boundElsewhere<R>(collection: string, size: (record: R) => number): void {
    this.#boundedElsewhere.set(collection, size as (record: never) => number);
  }

  /** Whether the records of `collection` are bounded by their module, not by the bounds on a field and a record. */
  isBoundedElsewhere(collection: string): boolean {
    return this.#boundedElsewhere.has(collection);
  }

  /** The size of a record as the world's bound counts it (0 for none). */
  of(collection: string, record: unknown): number {
    if (record === undefined) return 0;
    const size = this.#boundedElsewhere.get(collection);
    return size ? size(record as never) : sizeOf(record);
  }

  has(id: string): boolean {
    return this.#sizes.has(id);
  }

  /** The size a write left the record with (undefined for a record no write changed yet). */
  get(id: string): number | undefined {
    return this.#sizes.get(id);
  }

  set(id: string, size: number): void {
    this.#sizes.set(id, size);
  }

  /** Forgets the sizes kept (the world they were of is gone). */
  clear(): void {
    this.#sizes = new Map();
  }
}
