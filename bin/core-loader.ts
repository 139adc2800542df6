/**
 * How the package's two entries (dist/index.mjs, the library; dist/cli.mjs, the command line) load the
 * built sandbox, dist/core-<hash>.cjs, one bundle of src/ and bin/cli.ts.
 *
 * Compiling that bundle was a third of a new process's import. V8 can hand out the code it compiled
 * and take it back in a later process (`vm.Script`'s cached data, what Node 22 offers as its module
 * compile cache), so the first process to load a build writes it to a cache file and the others read
 * it: a test suite's workers and each start of the command line skip the compilation. V8 checks the
 * data against its own version, its flags and the source, and compiles anew when it does not fit;
 * the file is then written again.
 *
 * Where the file is: `node_modules/.cache/unified-api-sandbox/` of the project the package is
 * installed in (or of the clone it is built in), as other tools keep their caches; where that folder
 * cannot be written, no cache. UNIFIED_API_SANDBOX_CODE_CACHE=off turns it off, and a path in it
 * chooses the folder. NODE_DEBUG=unified-api-sandbox says what happened to it.
 *
 * Only node's own modules are imported here: this file is bundled into both entries.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';

export const CODE_CACHE_SETTING = 'UNIFIED_API_SANDBOX_CODE_CACHE';

const log = debuglog('unified-api-sandbox');

/** The folder of the code cache for a bundle at `coreFile`, or null when there is to be none. */
export function codeCacheFolder(coreFile: string, setting = process.env[CODE_CACHE_SETTING]): string | null {
  if (setting !== undefined && /^(?:0|off|false|no)$/i.test(setting.trim())) return null;
  if (setting && isAbsolute(setting)) return setting;
  // dist/ is in the package's folder: the nearest node_modules above it, or the package's own.
  const packageFolder = dirname(dirname(coreFile));
  const parts = packageFolder.split(sep);
  const at = parts.lastIndexOf('node_modules');
  const modules = at > 0 ? parts.slice(0, at + 1).join(sep) : join(packageFolder, 'node_modules');
  return existsSync(modules) ? join(modules, '.cache', 'unified-api-sandbox') : null;
}

/**
 * Loads the bundle at `coreUrl` and returns its exports. `flavour` names the entry: each has a cache
 * file of its own, made under the V8 flags that entry loads with.
 */
export function loadCore<T>(coreUrl: URL, flavour: 'lib' | 'cli'): T {
  const file = fileURLToPath(coreUrl);
  const source = readFileSync(file, 'utf8');
  const folder = codeCacheFolder(file);
  const build = basename(file, '.cjs');
  const cacheFile = folder && join(folder, `${build}-${process.version}-${process.arch}-${flavour}.bin`);
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // none yet
    }
  }
  // The bundle is an ES module's code: strict, as it was.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {'use strict';${source}\n})`,
    {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    },
  );
  const module: { exports: unknown } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  if (cacheFile) {
    if (cachedData && !script.cachedDataRejected) log('code cache used: %s', cacheFile);
    else {
      log(cachedData ? 'code cache rejected, written again: %s' : 'code cache written: %s', cacheFile);
      // Now, before the entry runs anything that could change V8's flags (the data would not fit
      // then), and once per build, node version and flags: the next processes read it.
      writeCodeCache(script, cacheFile, build);
    }
  }
  return module.exports as T;
}

function writeCodeCache(script: Script, cacheFile: string, build: string): void {
  const folder = dirname(cacheFile);
  try {
    mkdirSync(folder, { recursive: true });
    // Another process may write the same file: each writes its own, then renames it into place.
    const partial = `${cacheFile}.${process.pid}.partial`;
    writeFileSync(partial, script.createCachedData());
    renameSync(partial, cacheFile);
    // The files of other builds of the bundle are of no use any more.
    for (const name of readdirSync(folder)) {
      if (name.startsWith('core-') && !name.startsWith(`${build}-`))
        rmSync(join(folder, name), { force: true });
    }
  } catch (error) {
    // A cache not written only makes the next start as slow as this one.
    log('code cache not written: %s', (error as Error).message);
  }
}
