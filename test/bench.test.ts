import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-helpers.js';

/**
 * The benchmark harness in quick mode (every scenario for a second), so that it never rots. It
 * asserts that every scenario ran and produced numbers, never a speed: speeds are ratios measured in
 * one run and written up by `npm run bench` in docs/.
 */
describe('benchmark harness', () => {
  it('runs every scenario in quick mode', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--no-write'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const rows = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| scenario'));
    const scenarios = rows.map((line) => line.split('|')[1]?.trim());
    expect(scenarios).toEqual(
      expect.arrayContaining([
        'bare node:http, fixed 200-byte JSON',
        'cold start to first 2xx',
        'POST /token',
        'GET /consumers/{id} (authenticated)',
        'POST /consumers (in memory)',
        'GET /consumers?search= (1,000 consumers)',
        'POST /consumers with --db (durable)',
        'GET /consumers?search=',
        'POST one datastore row, durable',
        'POST invoicing contact, durable',
        'largest journal line of one write',
      ]),
    );
    const measured = (line: string) =>
      !line.includes('cold start') && !line.includes('not served') && !line.includes('journal line');
    for (const row of rows.filter(measured)) {
      const rps = Number(row.split('|')[3]);
      expect(rps, row).toBeGreaterThan(0);
    }
  }, 300_000);
});
