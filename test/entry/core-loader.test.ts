/**
 * Where the package's entries keep the code V8 compiled (bin/core-loader.ts): beside the project's
 * dependencies, never outside a node_modules folder that exists, nowhere when turned off, and only in
 * a folder of this user's that no one else may write.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFolder, unsafeCacheFolder } from '../../bin/core-loader.js';

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

describe('the code cache folder is used only when it is safe', () => {
  it('is created for this user alone when missing', () => {
    const folder = join(root, 'node_modules', '.cache', 'unified-api-sandbox');
    expect(unsafeCacheFolder(folder)).toBeNull();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('is refused when it is a link, a file, writable by others or owned by another user', () => {
    const target = join(root, 'elsewhere');
    mkdirSync(target);
    const link = join(root, 'link');
    symlinkSync(target, link);
    const file = join(root, 'file');
    writeFileSync(file, '');
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const groupWritable = join(root, 'group');
    mkdirSync(groupWritable);
    chmodSync(groupWritable, 0o770);
    const mine = join(root, 'mine');
    mkdirSync(mine, { mode: 0o755 });
    expect(unsafeCacheFolder(link)).toBe('it is a link');
    expect(unsafeCacheFolder(file)).toMatch(/EEXIST|ENOTDIR|not a folder/);
    expect(unsafeCacheFolder(open)).toBe('others may write it');
    expect(unsafeCacheFolder(groupWritable)).toBe('others may write it');
    expect(unsafeCacheFolder(mine, (process.getuid?.() ?? 0) + 1)).toBe('another user owns it');
    expect(unsafeCacheFolder(mine)).toBeNull();
  });
});
