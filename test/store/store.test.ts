import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldFile, seedWorld } from '../../src/control/seeded-world.js';
import type { buildInvoicingDataset } from '../../src/modules/invoicing/world/invoicing.living.js';
import { Store, StoreFileError, UnstorableChangeError } from '../../src/store/store.js';
import type { ConsumerRecord } from '../../src/store/world.js';
import { tempDir } from '../temp-dir.js';
import { snapshotOf } from './world-file.js';

const tempFile = () => join(tempDir('sandbox-store-'), 'world.json');
const open: Store[] = [];
async function openFile(file: string, options: Parameters<typeof openWorldFile>[2] = {}) {
  const store = await openWorldFile(file, () => seedWorld(5), options);
  open.push(store);
  return store;
}
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

const consumer = (id: string, name: string): ConsumerRecord =>
  ({
    consumerid: id,
    accountid: 'a',
    envid: 'e',
    name,
    email: null,
    internal_reference: null,
    redirect_url: null,
    created_on: '2026-01-01T00:00:00.000Z',
  }) as ConsumerRecord;

const journalLines = (file: string) =>
  existsSync(`${file}.journal`)
    ? readFileSync(`${file}.journal`, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

describe('file store', () => {
  it('creates a missing file from the seed and reopens it as it was left', async () => {
    const file = tempFile();
    const store = await openFile(file);
    await store.transact((tx) => {
      tx.world.meta.sequence = 41;
    });
    const again = await openWorldFile(file, () => {
      throw new Error('must not reseed an existing world');
    });
    open.push(again);
    expect(again.world.meta.sequence).toBe(41);
    expect(Object.keys(again.world.consumers)).toEqual(Object.keys(store.world.consumers));
  });

  it('every write resolves only once its line is on disk, and concurrent writes share appends', async () => {
    const file = tempFile();
    const store = await openFile(file);
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      const id = `c${i}`;
      writes.push(
        store
          .transact((tx) => {
            tx.world.consumers[id] = consumer(id, `Consumer ${i}`);
          })
          .then(() => {
            expect(readFileSync(`${file}.journal`, 'utf8')).toContain(`Consumer ${i}"`);
          }),
      );
    }
    await Promise.all(writes);
    expect(journalLines(file)).toHaveLength(50);
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
    await expect(openWorldFile(file, () => seedWorld(5))).rejects.toBeInstanceOf(StoreFileError);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('fills collections that an older world file does not have', async () => {
    const file = tempFile();
    writeFileSync(
      file,
      JSON.stringify({ meta: { schema: 1, seed: 1, size: 'default', sequence: 3 }, consumers: {} }),
    );
    const store = await openFile(file);
    expect(store.world.webhooks).toEqual({});
    expect(store.world.meta.sequence).toBe(3);
  });
});

describe('the write boundary', () => {
  it('journals exactly the values a write changed, not the records around them', async () => {
    const file = tempFile();
    const store = await openFile(file);
    const target = Object.keys(store.world.consumers)[0] as string;
    await store.transact((tx) => {
      const record = tx.world.consumers[target] as ConsumerRecord;
      record.name = 'Renamed';
    });
    const [line] = journalLines(file);
    expect(line.ops).toEqual([{ p: ['consumers', target, 'name'], v: 'Renamed' }]);
  });

  it('a change inside an array journals the array whole', async () => {
    const store = await openFile(tempFile());
    const file = store.file as string;
    await store.transact((tx) => {
      tx.world.consumers.arr = { ...consumer('arr', 'With list'), tags: [{ n: 1 }] } as ConsumerRecord;
    });
    await store.transact((tx) => {
      const tags = (tx.world.consumers.arr as unknown as { tags: { n: number }[] }).tags;
      (tags[0] as { n: number }).n = 2;
      tags.push({ n: 3 });
    });
    const second = journalLines(file)[1];
    expect(second.ops).toEqual([{ p: ['consumers', 'arr', 'tags'], v: [{ n: 2 }, { n: 3 }] }]);
    const again = await openWorldFile(file, () => seedWorld(5));
    open.push(again);
    expect((again.world.consumers.arr as unknown as { tags: unknown }).tags).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('a write that throws changes nothing in memory and writes nothing to disk', async () => {
    const file = tempFile();
    const store = await openFile(file);
    const before = JSON.stringify(store.world);
    const target = Object.keys(store.world.consumers)[0] as string;
    await expect(
      store.transact((tx) => {
        tx.world.consumers.gone = consumer('gone', 'Half written');
        (tx.world.consumers[target] as ConsumerRecord).name = 'Changed';
        delete tx.world.consumers[Object.keys(tx.world.consumers)[1] as string];
        tx.world.meta.sequence += 10;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(JSON.stringify(store.world)).toBe(before);
    expect(journalLines(file)).toEqual([]);
  });

  it('a write whose result is refused is rolled back, in memory too', async () => {
    const store = Store.memory(seedWorld(5));
    const before = JSON.stringify(store.world);
    const status = await store.transact(
      (tx) => {
        tx.world.consumers.x = consumer('x', 'Not kept');
        return 404;
      },
      (answer) => answer < 400,
    );
    expect(status).toBe(404);
    expect(JSON.stringify(store.world)).toBe(before);
  });

  it('never stores a tracking view inside the world', async () => {
    const store = Store.memory(seedWorld(5));
    const [first] = Object.keys(store.world.consumers);
    await store.transact((tx) => {
      const record = tx.world.consumers[first as string] as ConsumerRecord;
      tx.world.consumers.copy = { ...record, consumerid: 'copy', nested: { inner: record } } as never;
    });
    // structuredClone refuses proxies: the stored value is plain all the way down.
    expect(() => structuredClone(store.world.consumers.copy)).not.toThrow();
  });

  it('a change too deep to serialize is refused whole, and the world stays loadable', async () => {
    const file = tempFile();
    const store = await openFile(file);
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    await expect(
      store.transact((tx) => {
        tx.world.consumers.deep = { ...consumer('deep', 'Deep'), context: deep } as never;
      }),
    ).rejects.toBeInstanceOf(UnstorableChangeError);
    expect(store.world.consumers.deep).toBeUndefined();
    await store.transact((tx) => {
      tx.world.consumers.after = consumer('after', 'After');
    });
    const again = await openWorldFile(file, () => seedWorld(5));
    open.push(again);
    expect(again.world.consumers.after?.name).toBe('After');
    expect(again.world.consumers.deep).toBeUndefined();
  });

  it('a dataset a write changes is journaled as how to build it and the change, and replays identically', async () => {
    const file = tempFile();
    const store = await openFile(file);
    const args = { consumerid: 'c1', connectionid: 'k1', integrationid: 1 };
    const built = store.materialize<ReturnType<typeof buildInvoicingDataset>>(
      'invoicing_datasets',
      'c1:k1',
      args,
    );
    const firstInvoice = Object.keys(built.invoices)[0] as string;
    await store.transact((tx) => {
      const dataset = tx.world.invoicing_datasets['c1:k1'];
      (dataset?.invoices[firstInvoice] as { due_date: string | null }).due_date = '2099-01-01';
    });
    const text = readFileSync(`${file}.journal`, 'utf8');
    expect(text.length).toBeLessThan(8 * 1024);
    const again = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    const replayed = again.open<typeof built>('invoicing_datasets', 'c1:k1');
    expect(replayed?.invoices[firstInvoice]?.due_date).toBe('2099-01-01');
    expect(JSON.stringify(replayed)).toBe(JSON.stringify(store.world.invoicing_datasets['c1:k1']));
  });
});

describe('journal', () => {
  it('reopening replays the lines and folds the journal into the snapshot', async () => {
    const file = tempFile();
    const store = await openFile(file);
    const snapshotBefore = readFileSync(file, 'utf8');
    await store.transact((tx) => {
      tx.world.consumers.j1 = consumer('j1', 'Journaled');
      tx.world.meta.sequence += 1;
    });
    expect(readFileSync(file, 'utf8')).toBe(snapshotBefore);
    expect(readFileSync(`${file}.journal`, 'utf8')).toContain('Journaled');
    await store.transact((tx) => {
      delete tx.world.consumers.j1;
    });
    await store.transact((tx) => {
      tx.world.consumers.j2 = consumer('j2', 'Kept');
    });
    await store.close();
    const again = await openFile(file);
    expect(again.world.consumers.j1).toBeUndefined();
    expect(again.world.consumers.j2?.name).toBe('Kept');
    expect(again.world.meta.sequence).toBe(store.world.meta.sequence);
    // Folded in the background, right after opening.
    await again.flush();
    expect(existsSync(`${file}.journal`)).toBe(false);
    expect(existsSync(`${file}.journal.old`)).toBe(false);
    expect((snapshotOf(file).consumers as Record<string, { name: string }>).j2?.name).toBe('Kept');
  });

  it('ignores a torn last line, which was never acknowledged', async () => {
    const file = tempFile();
    const store = await openFile(file);
    await store.transact((tx) => {
      tx.world.consumers.t1 = consumer('t1', 'Whole');
    });
    writeFileSync(`${file}.journal`, `${readFileSync(`${file}.journal`, 'utf8')}{"seq":99,"meta":{`);
    const again = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    expect(again.world.consumers.t1?.name).toBe('Whole');
  });

  it('never replays a line the snapshot already holds (a crash between snapshot and emptying the journal)', async () => {
    const file = tempFile();
    const store = await openFile(file);
    await store.transact((tx) => {
      tx.world.consumers.s1 = consumer('s1', 'Old name');
    });
    const journal = readFileSync(`${file}.journal`, 'utf8');
    await store.transact((tx) => {
      (tx.world.consumers.s1 as ConsumerRecord).name = 'New name';
    });
    await store.replace(store.world); // full snapshot, journal emptied
    writeFileSync(`${file}.journal`, journal); // as if the crash came before the journal was emptied
    const again = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    expect(again.world.consumers.s1?.name).toBe('New name');
  });

  it('numbers lines after the snapshot even when the world file is opened without its journal', async () => {
    const file = tempFile();
    const first = await openFile(file);
    for (const n of [1, 2, 3]) {
      await first.transact((tx) => {
        tx.world.consumers[`old${n}`] = consumer(`old${n}`, `Old ${n}`);
      });
    }
    await first.close();
    // Opening folds the three lines into the snapshot (journal_seq 3) and leaves no journal file.
    await (await openFile(file)).close();
    expect(snapshotOf(file).meta.journal_seq).toBe(3);
    expect(existsSync(`${file}.journal`)).toBe(false);
    const third = await openFile(file);
    for (const n of [1, 2, 3]) {
      await third.transact((tx) => {
        tx.world.consumers[`new${n}`] = consumer(`new${n}`, `New ${n}`);
      });
    }
    expect(journalLines(file).map((line) => line.seq)).toEqual([4, 5, 6]);
    // A crash now: the next start reads the snapshot and the journal of acknowledged writes.
    const after = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    for (const n of [1, 2, 3]) expect(after.world.consumers[`new${n}`]?.name).toBe(`New ${n}`);
  });

  it('compacts a large journal in the background, and writes made meanwhile survive', async () => {
    const file = tempFile();
    const store = await openFile(file, { compactAfterBytes: 20_000 });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      writes.push(
        store.transact((tx) => {
          tx.world.consumers[`k${i}`] = consumer(`k${i}`, `${'x'.repeat(100)} ${i}`);
        }),
      );
    }
    await Promise.all(writes);
    await store.flush();
    const snapshot = snapshotOf(file) as Record<string, Record<string, unknown>> & {
      meta: Record<string, number>;
    };
    expect(snapshot.meta.journal_seq).toBeGreaterThan(0);
    expect(existsSync(`${file}.journal.old`)).toBe(false);
    const again = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    for (let i = 0; i < 300; i++)
      expect(again.world.consumers[`k${i}`]?.name).toBe(`${'x'.repeat(100)} ${i}`);
  });

  it('env-style read-only opening writes nothing', async () => {
    const file = tempFile();
    const store = await openFile(file);
    await store.transact((tx) => {
      tx.world.consumers.r1 = consumer('r1', 'Pending fold');
    });
    const snapshot = readFileSync(file, 'utf8');
    const journal = readFileSync(`${file}.journal`, 'utf8');
    const read = await openWorldFile(file, () => seedWorld(5), { readOnly: true });
    expect(read.world.consumers.r1?.name).toBe('Pending fold');
    expect(readFileSync(file, 'utf8')).toBe(snapshot);
    expect(readFileSync(`${file}.journal`, 'utf8')).toBe(journal);
  });
});

describe('lock', () => {
  it('refuses a world file that another live process holds, and takes over one left by a dead process', async () => {
    const file = tempFile();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${file}.lock`, `${holder.pid}\n`);
      await expect(openWorldFile(file, () => seedWorld(5))).rejects.toThrow(
        new RegExp(`in use by another sandbox \\(process ${holder.pid}\\)`),
      );
      expect(existsSync(file)).toBe(false);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    // The holder is gone: its lock is stale.
    const store = await openFile(file);
    expect(Number.parseInt(readFileSync(`${file}.lock`, 'utf8'), 10)).toBe(process.pid);
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('a key named __proto__ in the world', () => {
  it('is an ordinary own key through a write, its rollback and a replay of the journal', async () => {
    const { UnitOfWork, applyOp } = await import('../../src/store/unit-of-work.js');
    const world: Record<string, Record<string, unknown>> = { things: {} };
    const unit = new UnitOfWork(world);
    const view = unit.view as typeof world;
    expect(view.things?.__proto__).toBeUndefined();
    (view.things as Record<string, unknown>).__proto__ = { name: 'kept' };
    expect(Object.getPrototypeOf(world.things)).toBe(Object.prototype);
    expect(Object.hasOwn(world.things as object, '__proto__')).toBe(true);
    const ops = unit.ops();
    expect(ops).toEqual([{ p: ['things', '__proto__'], v: { name: 'kept' } }]);
    const replayed: Record<string, unknown> = { things: {} };
    for (const op of ops) applyOp(replayed, op);
    expect(JSON.stringify(replayed)).toBe('{"things":{"__proto__":{"name":"kept"}}}');
    unit.rollback();
    expect(Object.hasOwn(world.things as object, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('tracks the object it holds: a write under it is journaled, and undone by a rollback', async () => {
    const { UnitOfWork, applyOp } = await import('../../src/store/unit-of-work.js');
    const kept = JSON.parse('{"things":{"__proto__":{"name":"kept"}}}') as Record<
      string,
      Record<string, unknown>
    >;
    const unit = new UnitOfWork(kept);
    const view = unit.view as Record<string, Record<string, Record<string, unknown>>>;
    const inner = Reflect.get(view.things as object, '__proto__') as Record<string, unknown>;
    inner.name = 'changed';
    const ops = unit.ops();
    expect(ops).toEqual([{ p: ['things', '__proto__', 'name'], v: 'changed' }]);
    const replayed = JSON.parse('{"things":{"__proto__":{"name":"kept"}}}') as Record<string, unknown>;
    for (const op of ops) applyOp(replayed, op);
    expect(JSON.stringify(replayed)).toBe('{"things":{"__proto__":{"name":"changed"}}}');
    unit.rollback();
    expect(JSON.stringify(kept)).toBe('{"things":{"__proto__":{"name":"kept"}}}');
  });
});
