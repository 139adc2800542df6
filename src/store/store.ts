import { existsSync } from 'node:fs';
import { Low, Memory } from 'lowdb';
import { type Change, GroupCommitFile, StoreFileError } from './file-adapter.js';
import { emptyWorld, type World } from './world.js';

export { StoreFileError };

/**
 * The only owner of the world. Handlers change `store.world` synchronously after every check has
 * passed (so a refused request leaves nothing half-written), then `await store.commit()` before they
 * answer: with a file behind it, an acknowledged write is on disk.
 */
export class Store {
  readonly #db: Low<World>;
  readonly #file: GroupCommitFile<World> | null;
  readonly file: string | null;

  private constructor(db: Low<World>, file: string | null, adapter: GroupCommitFile<World> | null) {
    this.#db = db;
    this.file = file;
    this.#file = adapter;
  }

  get world(): World {
    return this.#db.data;
  }

  static memory(world: World): Store {
    return new Store(new Low<World>(new Memory<World>(), world), null, null);
  }

  /**
   * Opens a world file (and replays its journal). A missing file is created from `makeWorld()`; an
   * unreadable or corrupt one is refused with a StoreFileError and left as it is. `readOnly` opens
   * without writing anything (the env command).
   */
  static async file(
    file: string,
    makeWorld: () => World,
    options: { readOnly?: boolean } = {},
  ): Promise<Store> {
    const adapter = new GroupCommitFile<World>(file);
    let world = await adapter.read();
    if (world === null) {
      if (existsSync(file)) throw new StoreFileError(`${file} is empty or unreadable; it was left untouched`);
      world = makeWorld();
      if (!options.readOnly) adapter.writeNow(world);
    } else {
      assertWorld(world, file);
      // Fold the journal into the snapshot, so the file stands alone again.
      if (!options.readOnly && adapter.hasJournal()) adapter.writeNow(world);
    }
    return new Store(new Low<World>(adapter, world), file, adapter);
  }

  /**
   * Saves the world; resolves once it is on disk (with a file). A caller that knows which records it
   * added, changed or removed passes them (`{ consumers: [id] }`): with a file, only those are
   * appended to the journal instead of the whole world being written. Without it, everything is.
   */
  commit(change?: Change): Promise<void> {
    if (this.#file) return this.#file.write(this.#db.data, change);
    return this.#db.write();
  }

  /** Replaces the whole world (the reset control endpoint) and saves it. */
  replace(world: World): Promise<void> {
    this.#db.data = world;
    return this.commit();
  }
}

/**
 * A world file is accepted when it has the sandbox's meta block and every collection it holds is an
 * object. Collections added by a newer version start empty in an older file.
 */
function assertWorld(value: unknown, file: string): asserts value is World {
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
  const empty = emptyWorld(meta.seed, meta.size ?? 'default') as unknown as Record<string, unknown>;
  for (const [key, initial] of Object.entries(empty)) {
    if (!(key in record)) record[key] = initial;
  }
}
