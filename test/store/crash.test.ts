import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldFile, seedDirectory } from '../../src/control/seeded-world.js';
import { INVOICE_STATE } from '../../src/modules/datastores/datastores.seed.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import type { World } from '../../src/store/world.js';
import { runCli, serveCli, stop } from '../cli/helpers.js';
import { withDatasets } from './world-file.js';

/**
 * A child sandbox with --db under concurrent writes is killed with SIGKILL at moments drawn from a
 * fixed seed, several times, and restarted on the same file: the file always loads, and every write
 * answered 2xx before a kill is there.
 */
const ROUNDS = 4;
const WRITERS = 8;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function token(url: string, seed: number): Promise<string> {
  const creds = seedCredentials(seed);
  const res = await fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

type Json = Record<string, unknown>;

/**
 * The kinds of write a crash may interrupt, each with how to find its result in a world read from
 * the file: consumers created, renamed and deleted, datasets built on first use and written into
 * (invoicing contacts, accounting clients, POS customers), and datastore rows.
 */
interface WriteKind {
  name: string;
  send(n: string): { method: string; path: string; body: unknown };
  /** Whether the world holds what the acknowledged write `n` did. */
  holds(world: World, n: string): boolean;
}

const values = <T>(records: Record<string, T>) => Object.values(records);

function writeKinds(seed: number, datastoreid: string): WriteKind[] {
  const ids = seedDirectory(seed);
  const v = ids.verticalConsumers as Record<string, string>;
  const renamed = ids.pendingConsumerId;
  return [
    {
      name: 'consumer created',
      send: (n) => ({ method: 'POST', path: '/consumers', body: { name: n } }),
      holds: (world, n) => values(world.consumers).some((c) => c.name === n),
    },
    {
      name: 'consumer renamed',
      send: (n) => ({ method: 'PATCH', path: `/consumers/${renamed}`, body: { name: n } }),
      // Renames overwrite each other: the file holds the last acknowledged one or a later one.
      holds: () => true,
    },
    {
      name: 'invoicing contact',
      send: (n) => ({
        method: 'POST',
        path: `/consumers/${v.INVOICING}/invoicing/contacts`,
        body: { company_name: n },
      }),
      holds: (world, n) =>
        values(world.invoicing_datasets).some((d) => values(d.contacts).some((c) => c.company_name === n)),
    },
    {
      name: 'accounting client',
      send: (n) => ({
        method: 'POST',
        path: `/consumers/${v.ACCOUNTING}/accounting/clients`,
        body: { name: n, addresses: [] },
      }),
      holds: (world, n) =>
        values(world.accounting_ledgers).some((l) =>
          values(l.partners).some((p) => (p as unknown as Json).name === n),
        ),
    },
    {
      name: 'POS customer',
      send: (n) => ({
        method: 'POST',
        path: `/consumers/${v.POS}/pos/customers`,
        body: { first_name: n, last_name: 'Crash' },
      }),
      holds: (world, n) =>
        values(world.pos_datasets).some((d) =>
          JSON.stringify((d as unknown as Json).customers ?? {}).includes(n),
        ),
    },
    {
      name: 'datastore row',
      send: (n) => ({
        method: 'POST',
        path: `/consumers/${v.INVOICING}/datastore/${datastoreid}/data`,
        body: [{ data: { invoice_number: n, amount: 1.5, synced_at: '2026-01-10T10:00:00Z' } }],
      }),
      holds: (world, n) => values(world.datastore_data).some((row) => JSON.stringify(row).includes(n)),
    },
  ];
}

describe('crash safety', () => {
  it('keeps every acknowledged write of every kind across repeated SIGKILLs, compactions included', async () => {
    const random = prng(42);
    const db = join(mkdtempSync(join(tmpdir(), 'sandbox-crash-')), 'world.json');
    const acknowledged: { kind: WriteKind; n: string }[] = [];
    let kinds: WriteKind[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A small journal limit: compactions start (and get killed) during the rounds.
      const { child, url } = await serveCli([
        '--port',
        '0',
        '--seed',
        '5',
        '--db',
        db,
        '--journal-limit',
        '20000',
      ]);
      const bearer = await token(url, 5);
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${bearer}` };
      if (kinds.length === 0) {
        const stores = (await (await fetch(`${url}/datastores`, { headers })).json()) as Json[];
        kinds = writeKinds(5, stores.find((d) => d.name === INVOICE_STATE.name)?.id as string);
      }
      // Everything acknowledged in earlier rounds is there after the restart.
      const list = await fetch(`${url}/consumers`, { headers });
      const names = new Set(((await list.json()) as { name: string }[]).map((c) => c.name));
      for (const { kind, n } of acknowledged) {
        if (kind.name === 'consumer created') expect(names.has(n), `${n} lost`).toBe(true);
      }

      let stopping = false;
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !stopping; i++) {
          const kind = kinds[(w + i) % kinds.length] as WriteKind;
          const n = `round ${round} writer ${w} #${i}`;
          const { method, path, body } = kind.send(n);
          try {
            const res = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
            await res.arrayBuffer();
            if (res.status === 200) acknowledged.push({ kind, n });
          } catch {
            return; // the server is gone
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.floor(random() * 500)));
      await stop(child, 'SIGKILL');
      stopping = true;
      await Promise.all(writers);
    }
    for (const kind of kinds) {
      expect(acknowledged.filter((a) => a.kind === kind).length, kind.name).toBeGreaterThan(0);
    }
    // The file and its journals, as the next start reads them (without writing).
    const opened = await openWorldFile(
      db,
      () => {
        throw new Error('the world file is gone');
      },
      { readOnly: true, cacheBytes: Number.POSITIVE_INFINITY },
    );
    const world = withDatasets(opened);
    const lost = acknowledged
      .filter(({ kind, n }) => !kind.holds(world, n))
      .map(({ kind, n }) => `${kind.name}: ${n}`);
    expect(lost).toEqual([]);
  });

  it('refuses a second server on the same world file while the first runs (exit 2)', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'sandbox-lock-')), 'world.json');
    const first = await serveCli(['--port', '0', '--seed', '5', '--db', db]);
    try {
      const second = runCli(['serve', '--port', '0', '--db', db]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/in use by another sandbox \(process \d+\)/);
    } finally {
      await stop(first.child);
    }
    // Once the first has stopped, the file is free again.
    const again = await serveCli(['--port', '0', '--db', db]);
    await stop(again.child);
  });

  it('refuses a truncated world at start with a clear message and leaves it untouched', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'sandbox-trunc-')), 'world.json');
    const first = await serveCli(['--port', '0', '--seed', '5', '--db', db]);
    await stop(first.child);
    const size = readFileSync(db).length;
    truncateSync(db, Math.floor(size / 2));
    const before = readFileSync(db);
    const out = runCli(['serve', '--port', '0', '--db', db]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/not a valid sandbox world/);
    expect(readFileSync(db).equals(before)).toBe(true);
    writeFileSync(db, '\u0000\u0000garbage');
    expect(runCli(['serve', '--port', '0', '--db', db]).code).toBe(2);
  });
});
