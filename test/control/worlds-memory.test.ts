import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A world that is deleted frees what it held: 10,000 worlds created over HTTP (each answering a
 * request) and deleted leave the process's resident memory where it was; worlds used the way clients
 * use them (an MCP client still connected among them) can all be collected once deleted. Measured in
 * a process of its own, with the garbage collected before each reading.
 */
const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '../..');

describe('worlds free their memory', () => {
  it('creates and deletes 10,000 worlds, and the resident memory returns to its level', () => {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', resolve(here, 'worlds-memory.child.ts'), '10000'],
      { cwd: ROOT, encoding: 'utf8', timeout: 280_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const { before, after, live } = JSON.parse(run.stdout) as { before: number; after: number; live: number };
    expect(live).toBe(0);
    // 10,000 worlds kept would hold gigabytes; 32 MiB is the allocator's slack, not 3 KiB a world.
    expect(after - before).toBeLessThan(32 * 1024 * 1024);
  }, 300_000);

  it('collects every world once deleted, used as clients use them, an MCP client still connected', () => {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', resolve(here, 'worlds-memory.child.ts'), 'used', '16'],
      { cwd: ROOT, encoding: 'utf8', timeout: 280_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const { worlds, kept } = JSON.parse(run.stdout) as { worlds: number; kept: number };
    expect(worlds).toBe(16);
    expect(kept).toBe(0);
  }, 300_000);
});
