import { afterEach, expect } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { call, sandbox, type TestSandbox, tokenFor } from '../helpers.js';

/**
 * What the checks of work done in slices share: a default world and another world served beside it,
 * and the waits of the other world's reads while a call runs. A read is due every few milliseconds;
 * its wait runs from the instant it was due to its answer, so a read due while a slice runs waits
 * for its end. The one kind of timed assertion of the suite, with a generous bound: the p99 of the
 * waits under 100 ms.
 */

export const P99_MS = 100;
/** A read of the other world is due every few milliseconds. */
const EVERY_MS = 2;

let apps: SandboxApp[] = [];

/** Closes the worlds of the apps made by `twoWorlds` after each test of the file. */
export function closingWorlds(): void {
  afterEach(async () => {
    for (const app of apps) await app.services.worlds?.close();
    apps = [];
  });
}

/** The default world, at a known instant, and another world served beside it, with its reader. */
export async function twoWorlds(options: Parameters<typeof sandbox>[0] = {}) {
  const s = sandbox({ clock: new Date('2026-01-15T09:00:00Z'), ...options });
  apps.push(s.app);
  const created = await call(s.app, 'POST', '/__sandbox/worlds', { body: { clock: '2026-01-15T09:00:00Z' } });
  expect(created.status, created.text).toBe(201);
  const other = created.body as { credentials: { account_id: string; sandbox: Record<string, string> } };
  const token = await tokenFor(s.app, {
    accountId: other.credentials.account_id,
    clientId: other.credentials.sandbox.client_id as string,
    clientSecret: other.credentials.sandbox.client_secret as string,
  });
  const consumers = await call(s.app, 'GET', '/consumers?size=1', { token });
  const path = `/consumers/${consumers.body[0].consumerid}`;
  const read = async () => {
    const res = await call(s.app, 'GET', path, { token });
    expect(res.status).toBe(200);
  };
  await read();
  return { s, read };
}

/** How long each read of the other world waited while `work` ran. */
export async function waitsWhile(work: Promise<unknown>, read: () => Promise<void>): Promise<number[]> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  const waits: number[] = [];
  while (!done) {
    const due = performance.now() + EVERY_MS;
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    await read();
    waits.push(performance.now() - due);
  }
  await finished;
  return waits;
}

export const p99 = (waits: number[]) =>
  [...waits].sort((a, b) => a - b)[Math.ceil(waits.length * 0.99) - 1] ?? 0;

/** The p99 of the waits under P99_MS; with `atLeast`, the work lasted enough reads for a percentile. */
export function expectAnswered(waits: number[], what: string, atLeast = 20): void {
  expect(waits.length, what).toBeGreaterThanOrEqual(atLeast);
  expect(
    p99(waits),
    `${what}: ${waits.length} reads, the slowest ${Math.round(Math.max(...waits))} ms`,
  ).toBeLessThan(P99_MS);
}

/**
 * A datastore of `rows` rows: the document's items are its two lists and a row each. The rows go to
 * two consumers in turn, so that a document at its budget stays within the rows one consumer keeps.
 */
export const rowsDocument = (s: TestSandbox, rows: number, name = 'Rows') => {
  const consumers = [s.ids.verticalConsumers.POS, s.ids.verticalConsumers.INVOICING];
  return {
    datastores: [
      {
        name,
        columns: [{ name: 'n', type: 'number' }],
        rows: Array.from({ length: rows }, (_, n) => ({ consumer: consumers[n % 2], data: { n } })),
      },
    ],
  };
};
