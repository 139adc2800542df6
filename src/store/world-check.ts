import { StoreFileError } from './file-adapter.js';
import { emptyWorld, type World } from './world.js';

/**
 * A world file is accepted when it has the sandbox's meta block and every collection it holds is an
 * object. Collections added by a newer version start empty in an older file.
 */
export function assertWorld(
  value: unknown,
  file: string,
  collections: readonly string[],
): asserts value is World {
  const record = value as Record<string, unknown> | null;
  const meta = record?.meta as World['meta'] | undefined;
  const ok =
    record !== null &&
    typeof record === 'object' &&
    !Array.isArray(record) &&
    meta?.schema === 1 &&
    typeof meta.seed === 'number' &&
    typeof meta.sequence === 'number' &&
    Object.entries(record).every(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
  if (!ok) throw new StoreFileError(`${file} does not hold a sandbox world; it was left untouched`);
  const empty = emptyWorld(meta.seed, meta.size ?? 'default', collections) as unknown as Record<
    string,
    unknown
  >;
  for (const [key, initial] of Object.entries(empty)) {
    if (!(key in record)) record[key] = initial;
  }
}
