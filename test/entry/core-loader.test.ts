/**
 * Where the package's entries keep the code V8 compiled (bin/core-loader.ts): beside the project's
 * dependencies, never outside a node_modules folder that exists, nowhere when turned off.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFolder } from '../../bin/core-loader.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'core-loader-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the code cache folder', () => {
  it('is the .cache of the nearest node_modules above an installed package', () => {
    const core = join(root, 'project', 'node_modules', 'unified-api-sandbox', 'dist', 'core-abc.cjs');
    mkdirSync(join(root, 'project', 'node_modules', 'unified-api-sandbox', 'dist'), { recursive: true });
    expect(codeCacheFolder(core, undefined)).toBe(
      join(root, 'project', 'node_modules', '.cache', 'unified-api-sandbox'),
    );
    // A package installed inside another's node_modules keeps to the nearest.
    const nested = join(
      root,
      'project',
      'node_modules',
      'a',
      'node_modules',
      'unified-api-sandbox',
      'dist',
      'core-abc.cjs',
    );
    mkdirSync(join(root, 'project', 'node_modules', 'a', 'node_modules'), { recursive: true });
    expect(codeCacheFolder(nested, undefined)).toBe(
      join(root, 'project', 'node_modules', 'a', 'node_modules', '.cache', 'unified-api-sandbox'),
    );
  });

  it("is the clone's own node_modules/.cache when built in a clone, and none without node_modules", () => {
    const core = join(root, 'clone', 'dist', 'core-abc.cjs');
    mkdirSync(join(root, 'clone', 'dist'), { recursive: true });
    expect(codeCacheFolder(core, undefined)).toBeNull();
    mkdirSync(join(root, 'clone', 'node_modules'));
    expect(codeCacheFolder(core, undefined)).toBe(
      join(root, 'clone', 'node_modules', '.cache', 'unified-api-sandbox'),
    );
  });

  it.each([
    ['off', null],
    ['OFF', null],
    ['0', null],
    ['false', null],
    ['no', null],
    ['', 'default'],
    ['relative/folder', 'default'],
    ['/var/cache/sandbox', '/var/cache/sandbox'],
  ])('UNIFIED_API_SANDBOX_CODE_CACHE=%j gives %j', (setting, expected) => {
    mkdirSync(join(root, 'clone', 'node_modules'), { recursive: true });
    const core = join(root, 'clone', 'dist', 'core-abc.cjs');
    const folder = codeCacheFolder(core, setting);
    expect(folder).toBe(
      expected === 'default'
        ? join(root, 'clone', 'node_modules', '.cache', 'unified-api-sandbox')
        : expected,
    );
  });
});
