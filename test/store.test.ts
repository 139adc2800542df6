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

describe('journal', () => {
  const consumer = (id: string, name: string) => ({
    consumerid: id,
    accountid: 'a',
    envid: 'e',
    name,
    email: null,
    internal_reference: null,
    redirect_url: null,
    created_on: '2026-01-01T00:00:00.000Z',
  });

  it('a commit that names its changes appends them; reopening replays them and folds the journal', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    const snapshotBefore = readFileSync(file, 'utf8');
    store.world.consumers.j1 = consumer('j1', 'Journaled');
    store.world.meta.sequence += 1;
    await store.commit({ consumers: ['j1'] });
    expect(readFileSync(file, 'utf8')).toBe(snapshotBefore);
    expect(readFileSync(`${file}.journal`, 'utf8')).toContain('Journaled');
    delete store.world.consumers.j1;
    await store.commit({ consumers: ['j1'] });
    store.world.consumers.j2 = consumer('j2', 'Kept');
    await store.commit({ consumers: ['j2'] });

    const again = await Store.file(file, () => seedWorld(5));
    expect(again.world.consumers.j1).toBeUndefined();
    expect(again.world.consumers.j2?.name).toBe('Kept');
    expect(again.world.meta.sequence).toBe(store.world.meta.sequence);
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8')).consumers.j2.name).toBe('Kept');
  });

  it('ignores a torn last line, which was never acknowledged', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    store.world.consumers.t1 = consumer('t1', 'Whole');
    await store.commit({ consumers: ['t1'] });
    writeFileSync(`${file}.journal`, `${readFileSync(`${file}.journal`, 'utf8')}{"seq":99,"meta":{`);
    const again = await Store.file(file, () => seedWorld(5));
    expect(again.world.consumers.t1?.name).toBe('Whole');
  });

  it('never replays a line the snapshot already holds (a crash between snapshot and emptying the journal)', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    store.world.consumers.s1 = consumer('s1', 'Old name');
    await store.commit({ consumers: ['s1'] });
    const journal = readFileSync(`${file}.journal`, 'utf8');
    (store.world.consumers.s1 as { name: string }).name = 'New name';
    await store.commit(); // full snapshot, journal emptied
    writeFileSync(`${file}.journal`, journal); // as if the crash came before the journal was emptied
    const again = await Store.file(file, () => seedWorld(5));
    expect(again.world.consumers.s1?.name).toBe('New name');
  });

  it('env-style read-only opening writes nothing', async () => {
    const file = tempFile();
    const store = await Store.file(file, () => seedWorld(5));
    store.world.consumers.r1 = consumer('r1', 'Pending fold');
    await store.commit({ consumers: ['r1'] });
    const snapshot = readFileSync(file, 'utf8');
    const journal = readFileSync(`${file}.journal`, 'utf8');
    const read = await Store.file(file, () => seedWorld(5), { readOnly: true });
    expect(read.world.consumers.r1?.name).toBe('Pending fold');
    expect(readFileSync(file, 'utf8')).toBe(snapshot);
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(journal);
  });
});
