import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedCredentials } from '../src/seed/credentials.js';
import { Store } from '../src/store/store.js';
import { runCli, serveCli, stop } from './cli-helpers.js';

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

describe('crash safety', () => {
  it('keeps every acknowledged write across repeated SIGKILLs', async () => {
    const random = prng(42);
    const db = join(mkdtempSync(join(tmpdir(), 'sandbox-crash-')), 'world.json');
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { child, url } = await serveCli(['--port', '0', '--seed', '5', '--db', db]);
      const bearer = await token(url, 5);
      // Everything acknowledged in earlier rounds is there after the restart.
      const list = await fetch(`${url}/consumers`, { headers: { authorization: `Bearer ${bearer}` } });
      const names = new Set(((await list.json()) as { name: string }[]).map((c) => c.name));
      for (const name of acknowledged) expect(names.has(name), `${name} lost`).toBe(true);

      let stopping = false;
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !stopping; i++) {
          const name = `round ${round} writer ${w} #${i}`;
          try {
            const res = await fetch(`${url}/consumers`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
              body: JSON.stringify({ name }),
            });
            if (res.status === 200) acknowledged.push(name);
            else await res.text();
          } catch {
            return; // the server is gone
          }
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.floor(random() * 350)));
      await stop(child, 'SIGKILL');
      stopping = true;
      await Promise.all(writers);
    }
    expect(acknowledged.length).toBeGreaterThan(ROUNDS * 5);
    // The file and its journal, as the next start reads them (without writing).
    const { world } = await Store.file(
      db,
      () => {
        throw new Error('the world file is gone');
      },
      { readOnly: true },
    );
    const saved = new Set(Object.values(world.consumers).map((c) => c.name));
    expect(acknowledged.filter((name) => !saved.has(name))).toEqual([]);
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
