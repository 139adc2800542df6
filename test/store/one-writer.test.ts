import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { openWorldFile, seedDirectory, seedWorld } from '../../src/control/seeded-world.js';
import { SEED, sandboxToken } from '../helpers.js';
import { forConsumer, invoiceBody, line, referenceOf } from '../modules/accounting/helpers.js';

/**
 * One writer at a time: a write holds the world from its first line to its commit, awaits included,
 * so a refused write (rolled back) never undoes what a concurrent write built on its changes. The
 * official SDK sends x-chift-client-requestid on every write, and a refused write with one records
 * its answer apart: that used to await a separate write before the rollback, letting other writes
 * take invoice numbers in between, which the rollback then gave back (numbers burnt in memory, and
 * another number after a restart from the file).
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fileSandbox(file: string) {
  const store = await openWorldFile(file, () => seedWorld(SEED));
  const app = createApp({ seed: SEED, store });
  const s = { app, ids: seedDirectory(SEED) };
  const token = await sandboxToken(s);
  return { store, a: forConsumer(s, token, s.ids.verticalConsumers.ACCOUNTING as string) };
}

const numberOf = (invoice: { invoice_number: string }) => Number(/(\d+)$/.exec(invoice.invoice_number)?.[1]);

describe('one writer at a time', () => {
  it('a refused write with a client request id burns no number of the writes beside it, in memory or on disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-writer-'));
    dirs.push(dir);
    const file = join(dir, 'world.json');
    const { store, a } = await fileSandbox(file);
    const ref = await referenceOf(a);
    const good = (price: number) =>
      invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 1, unit_price: price, vat: 'V21' })]);
    const bad = { ...good(3), total: 1 };
    const first = await a.post('/invoices', good(1));
    expect(first.status, first.text).toBe(200);
    const start = numberOf(first.body);

    const ROUNDS = 150;
    const answers = await Promise.all(
      Array.from({ length: ROUNDS }, (_, i) => [
        a.post('/batch/invoices', [good(10 + i), bad], {
          headers: { 'x-chift-client-requestid': randomUUID() },
        }),
        a.post('/invoices', good(1000 + i)),
      ]).flat(),
    );
    const booked = answers.filter((res) => res.status === 200).map((res) => numberOf(res.body));
    const refused = answers.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(ROUNDS);
    expect(booked).toHaveLength(ROUNDS);
    // Every valid invoice took the next number: none was burnt by a refused batch.
    expect([...booked].sort((x, y) => x - y)).toEqual(
      Array.from({ length: ROUNDS }, (_, i) => start + 1 + i),
    );

    // The refused batches were each recorded once (their answers replay), and nothing more.
    const next = await a.post('/invoices', good(5000));
    expect(numberOf(next.body)).toBe(start + ROUNDS + 1);
    await store.close();

    // After a restart from the file, the next number is the one memory would have given.
    const again = await fileSandbox(file);
    const after = await again.a.post('/invoices', good(6000));
    expect(after.status, after.text).toBe(200);
    expect(numberOf(after.body)).toBe(start + ROUNDS + 2);
    await again.store.close();
  }, 60_000);
});
