/**
 * How the package's two entries (dist/index.mjs, the library; dist/cli.mjs, the command line) load the
 * built sandbox, dist/core-<hash>.cjs, one bundle of src/ and bin/cli.ts: with `require`, after
 * turning on Node's own compile cache where the Node version has it (`module.enableCompileCache`,
 * Node 22.1 and later; Node 20 compiles the bundle at every start).
 *
 * Compiling the bundle was a third of a new process's import, and vendors start one process per test
 * file. Node's compile cache keeps the code V8 compiled for the next process and checks each entry
 * against a hash of the source it was made from, so a cache made for other code is never run. The
 * folder is still guarded: created by this user with mode 0700, used only when it is a real folder
 * (no link), owned by this user and writable by nobody else; anything else means no cache, never an
 * error. The loader deletes nothing.
 *
 * Where the folder is: `node_modules/.cache/unified-api-sandbox/` of the project the package is
 * installed in (or of the clone it is built in), as other tools keep their caches; where no such
 * node_modules exists, no cache. UNIFIED_API_SANDBOX_CODE_CACHE=off turns it off, and an absolute path
 * in it chooses the folder. NODE_DEBUG=unified-api-sandbox says what happened to it. Node turns the
 * cache on for the whole process: modules loaded after the package are cached there too.
 *
 * Only node's own modules are imported here: this file is bundled into both entries.
 */
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debuglog } from 'node:util';

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
  try {
    return statSync(modules).isDirectory() ? join(modules, '.cache', 'unified-api-sandbox') : null;
  } catch {
    return null;
  }
}

/**
 * Why `folder` may not hold the cache, or null when it may: it is created (mode 0700) when missing,
 * and must then be a folder, not a link, of this user, that no one else may write.
 */
export function unsafeCacheFolder(folder: string, uid = process.getuid?.()): string | null {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const stat = lstatSync(folder);
    if (stat.isSymbolicLink()) return 'it is a link';
    if (!stat.isDirectory()) return 'it is not a folder';
    if (uid !== undefined && stat.uid !== uid) return 'another user owns it';
    if ((stat.mode & 0o022) !== 0) return 'others may write it';
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

interface CompileCacheApi {
  enableCompileCache?: (directory?: string) => { status: number; message?: string; directory?: string };
  flushCompileCache?: () => void;
  constants?: { compileCacheStatus?: Record<string, number> };
}

/** Turns on Node's compile cache for the bundle at `file` where it can; says what it did in the log. */
function enableCodeCache(file: string): boolean {
  const api = module as unknown as CompileCacheApi;
  const folder = codeCacheFolder(file);
  if (!folder) return false;
  if (typeof api.enableCompileCache !== 'function') {
    log('no code cache: node %s has no compile cache', process.version);
    return false;
  }
  const unsafe = unsafeCacheFolder(folder);
  if (unsafe) {
    log('no code cache in %s: %s', folder, unsafe);
    return false;
  }
  const result = api.enableCompileCache(folder);
  const statuses = api.constants?.compileCacheStatus ?? {};
  const status = Object.keys(statuses).find((name) => statuses[name] === result.status) ?? result.status;
  log('code cache %s: %s', String(status).toLowerCase(), result.directory ?? folder);
  return result.status !== statuses.FAILED && result.status !== statuses.DISABLED;
}

/** Loads the bundle at `coreUrl` and returns its exports. */
export function loadCore<T>(coreUrl: URL): T {
  const file = fileURLToPath(coreUrl);
  const cached = enableCodeCache(file);
  const core = createRequire(file)(file) as T;
  // Written now, before the command line changes V8's heap flags (`serve`): data made under other
  // flags would not fit the next start.
  if (cached) (module as unknown as CompileCacheApi).flushCompileCache?.();
  return core;
}
