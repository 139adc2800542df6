import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The calendar's end, in a process of its own with a time limit: a day loop that never ended stops it. */

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');

describe('no instant can hang the server', () => {
  it('a world taken past the end by the clock, a new world or an advance is refused, and the lists whose days looped answer', () => {
    // In a process of its own, with a time limit: a loop that never ended would stop it, not this run.
    const run = spawnSync(process.execPath, ['--import', 'tsx', resolve(here, 'calendar-end.child.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, `${run.signal ?? ''} ${run.stderr.slice(-1000)}`).toBe(0);
    const statuses = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
    expect(statuses).toEqual({ set: 422, world: 422, advance: 422, pos: 200, commerce: 200, banking: 200 });
  }, 90_000);
});
