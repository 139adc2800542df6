import { existsSync } from 'node:fs';
import { Low, Memory } from 'lowdb';
import { GroupCommitFile, StoreFileError } from './file-adapter.js';
import type { World } from './world.js';

export { StoreFileError };

/**
 * The only owner of the world. Handlers change `store.world` synchronously after every check has
 * passed (so a refused request leaves nothing half-written), then `await store.commit()` before they
 * answer: with a file behind it, an acknowledged write is on disk.
 */
export class Store {
  readonly #db: Low<World>;
  readonly file: string | null;

  private constructor(db: Low<World>, file: string | null) {
    this.#db = db;
    this.file = file;
  }

  get world(): World {
    return this.#db.data;
  }

  static memory(world: World): Store {
    return new Store(new Low<World>(new Memory<World>(), world), null);
  }

  /**
   * Opens a world file. A missing file is created from `makeWorld()`; an unreadable or corrupt one
   * is refused with a StoreFileError and left as it is.
   */
  static async file(file: string, makeWorld: () => World): Promise<Store> {
    const adapter = new GroupCommitFile<World>(file);
    const db = new Low<World>(adapter, undefined as unknown as World);
    const existing = await adapter.read();
    if (existing === null) {
      if (existsSync(file)) throw new StoreFileError(`${file} is empty or unreadable; it was left untouched`);
      db.data = makeWorld();
      adapter.writeNow(db.data);
    } else {
      assertWorld(existing, file);
      db.data = existing;
    }
    return new Store(db, file);
  }

  commit(): Promise<void> {
    return this.#db.write();
  }

  /** Replaces the whole world (the reset control endpoint) and saves it. */
  replace(world: World): Promise<void> {
    this.#db.data = world;
    return this.commit();
  }
}

const WORLD_KEYS: (keyof World)[] = [
  'meta',
  'accounts',
  'environments',
  'keys',
  'consumers',
  'connections',
  'links',
  'transactions',
  'webhooks',
  'webhook_logs',
];

function assertWorld(value: unknown, file: string): asserts value is World {
  const ok =
    value !== null &&
    typeof value === 'object' &&
    WORLD_KEYS.every((key) => typeof (value as Record<string, unknown>)[key] === 'object') &&
    (value as World).meta?.schema === 1;
  if (!ok) throw new StoreFileError(`${file} does not hold a sandbox world; it was left untouched`);
}
