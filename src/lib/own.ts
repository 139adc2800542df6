/**
 * Records are kept in plain objects keyed by id (the world's collections, a vertical's datasets), and
 * the ids looked up come from outside: a path, a query, a body, a fixture. A plain object also
 * answers, under `toString`, `constructor`, `hasOwnProperty` or `__proto__`, what every object
 * inherits; such an id must find no record, never a function or Object.prototype. A world reloaded
 * from its file is made of ordinary objects again (JSON.parse), so the check is made at the lookup
 * rather than by giving the collections no prototype.
 */

/** The record `records` holds under `key` itself; undefined for an inherited member or no key. */
export function own<T>(records: Readonly<Record<string, T>>, key: string | null | undefined): T | undefined {
  return key !== null && key !== undefined && Object.hasOwn(records, key) ? records[key] : undefined;
}

/**
 * Sets `key` as an own property of a plain object built from outside keys (a form's fields, a
 * consumer's values): an assignment under `__proto__` would replace the object's prototype instead
 * of storing the value. Not for the world's collections, whose writes are replayed by assignment.
 */
export function putOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Whether a key chosen from outside (an account number a client opens) can name a record of the
 * world. `__proto__` cannot: the world's writes, and their replay from the journal, store by
 * assignment, which under that key replaces the collection's prototype instead of adding a record.
 */
export const isStorableKey = (key: string): boolean => key !== '__proto__';
