import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { ROOT } from './helpers.js';

/**
 * SIGTERM stops the server within a few seconds whatever runs. A clock moved past timelines of
 * 90,000 POS orders used to hold the event loop until all of them were applied: the signal waited
 * for it (some 12 s after it was sent, on a busy machine).
 */

const CLI = join(ROOT, 'dist', 'cli.mjs');
const SEED = 7;
/** What "a few seconds" means here: the server's own grace (3 s) and the time to spawn an exit. */
const STOPPED_WITHIN_MS = 5000;

/** 100 POS orders of one line, 100 times a second apart: a declaration at its budget. */
const burst = (consumer: string, at: string) => ({
  at,
  repeat: 100,
  every_seconds: 1,
  consumer,
  pos: {
    orders: Array.from({ length: 100 }, () => ({
      creation_date: '{{at}}',
      closing_date: '{{at}}',
      items: [{ product: 'Espresso' }],
    })),
  },
});

describe('serve, stopped with SIGTERM', () => {
  it('exits within a few seconds while a clock move applies timelines of 90,000 orders', async () => {
    expect(existsSync(CLI), 'dist/cli.mjs is missing: npm run build').toBe(true);
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--quiet', '--port', '0', '--seed', String(SEED), '--now', '2026-01-15T09:00:00Z'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: performance.now() })),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /http:\/\/\S+/.exec(out);
          if (match) resolve(match[0]);
        });
        void exited.then(({ code }) => reject(new Error(`the server exited with ${code}`)));
      });
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const pos = seedDirectory(SEED).verticalConsumers.POS as string;
      for (let hour = 10; hour < 19; hour++) {
        const declared = await post('/__sandbox/timeline', {
          events: [burst(pos, `2026-01-15T${hour}:00:00Z`)],
        });
        expect(declared.status, await declared.text()).toBe(200);
      }
      // The clock reaches all of them: seconds of work, under way when the signal comes.
      const moving = post('/__sandbox/clock', { advance_seconds: 12 * 3600 }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(child.exitCode).toBeNull();
      const sent = performance.now();
      child.kill('SIGTERM');
      const { code, at } = await exited;
      expect(code).toBe(0);
      expect(at - sent).toBeLessThan(STOPPED_WITHIN_MS);
      await moving;
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
