import { existsSync } from 'node:fs';
import { type Materializers, type Registry, StoreFileError, type WorldFile } from './file-adapter.js';
import type { StoreOptions } from './store-options.js';
import type { World } from './world.js';
import { assertWorld } from './world-check.js';

/** How a store opens a world file (see Store.file). */
export type StoreFileOptions = StoreOptions & {
  readOnly?: boolean;
  materializers: Materializers;
  compactAfterBytes?: number;
};

/**
 * The world a world file holds, with its generated datasets, read through `adapter` (locked by the
 * caller unless `readOnly`). A missing file is created from `makeWorld()`; an unreadable or corrupt
 * one is refused with a StoreFileError and left as it is; one of the first format, or written before
 * worlds had an origin, is written again, upgraded, before anything else is written to it.
 */
export async function readStoreFile(
  adapter: WorldFile<World>,
  makeWorld: () => World,
  options: StoreFileOptions,
): Promise<{ world: World; registry: Registry }> {
  const { file } = adapter;
  const read = await adapter.read();
  if (read === null) {
    if (existsSync(file)) throw new StoreFileError(`${file} is empty or unreadable; it was left untouched`);
    const world = makeWorld();
    const registry: Registry = new Map();
    if (!options.readOnly) adapter.writeNow(world, registry);
    return { world, registry };
  }
  const { world, registry } = read;
  assertWorld(world, file, Object.keys(options.materializers));
  // A file written before worlds had an origin takes one from what it holds (see upgrade).
  const upgraded = world.meta.origin === undefined && (options.upgrade?.(world, registry) ?? false);
  // A file of the first format, or of the time before origins, is written again before anything
  // else is written to it.
  if (!options.readOnly && (read.migrated || upgraded)) adapter.writeNow(world, registry);
  return { world, registry };
}
