import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedWorld } from '../src/seed/world.js';
import { Store, StoreFileError } from '../src/store/store.js';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'sandbox-store-')), 'world.json');

describe('file store', () => {
  it('creates a missing file from the seed and reopens it as it was left', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    store.world.meta.sequence = 41;
    await store.commit();
    const again = await Store.file(file, () => {
      throw new Error('must not reseed an existing world');
    });
    expect(again.world.meta.sequence).toBe(41);
    expect(Object.keys(again.world.consumers)).toEqual(Object.keys(store.world.consumers));
  });

  it('every commit resolves only once its data is on disk, and concurrent commits share writes', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    const commits: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      store.world.meta.sequence = i;
      const seen = i;
      commits.push(
        store.commit().then(() => {
          const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { meta: { sequence: number } };
          expect(onDisk.meta.sequence).toBeGreaterThanOrEqual(seen);
        }),
      );
    }
    await Promise.all(commits);
    expect(JSON.parse(readFileSync(file, 'utf8')).meta.sequence).toBe(49);
  });

  it.each([
    ['truncated JSON', '{"meta": {"schema": 1, "seed": 1'],
    ['an empty file', ''],
    ['JSON that is not a world', '{"hello": "world"}'],
    ['a world with a broken collection', '{"meta": {"schema": 1, "seed": 1, "sequence": 0}, "consumers": 3}'],
    ['an array', '[]'],
  ])('refuses %s and leaves the file untouched', async (_n, text) => {
    const file = tempFile();
    writeFileSync(file, text);
    await expect(Store.file(file, () => seedWorld(5))).rejects.toBeInstanceOf(StoreFileError);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('fills collections that an older world file does not have', async () => {
    const file = tempFile();
    writeFileSync(
      file,
      JSON.stringify({ meta: { schema: 1, seed: 1, size: 'default', sequence: 3 }, consumers: {} }),
    );
    const store = await Store.file(file, () => seedWorld(5));
    expect(store.world.webhooks).toEqual({});
    expect(store.world.meta.sequence).toBe(3);
  });
});
