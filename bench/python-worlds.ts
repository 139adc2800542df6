import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type Row, spawnListening } from './proc.js';

/**
 * The row of a fresh world per test over HTTP as the pytest plugin makes it: bench/python-worlds.py,
 * through the plugin's own client, against a server of the built package started here. Python 3 with
 * `requests` (what the plugin needs) must be on the machine; without it the row says so.
 */

const SCENARIO = 'a fresh world per test over HTTP, from the pytest plugin (create + token + first read)';
const ADMIN = 'bench-admin-token';

export async function worldsFromPython(rows: Row[], root: string, count = 100): Promise<void> {
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    rows.push({
      scenario: SCENARIO,
      world: 'created',
      rps: null,
      p50: null,
      p99: null,
      rssMiB: 0,
      note: 'not measured: python3 with requests not found',
    });
    return;
  }
  const { child, url } = await spawnListening(
    ['dist/cli.mjs', 'serve', '--port', '0', '--quiet', '--admin-token', ADMIN],
    root,
  );
  try {
    const out = spawnSync('python3', [join(root, 'bench/python-worlds.py'), url, ADMIN, String(count)], {
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(`bench/python-worlds.py failed: ${out.stderr}`);
    const r = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as {
      p50: number;
      p99: number;
      deleteP50: number;
    };
    rows.push({
      scenario: SCENARIO,
      world: 'created',
      rps: null,
      p50: r.p50,
      p99: r.p99,
      rssMiB: 0,
      note: `World.create, world.api.get('/consumers'), then delete() (p50 ${r.deleteP50} ms, not counted); ${count} in a row (target p50 < 15 ms: ${r.p50 < 15 ? 'met' : '**not met**'})`,
    });
  } finally {
    child.kill('SIGTERM');
  }
}
