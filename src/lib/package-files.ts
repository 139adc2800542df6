import { existsSync } from 'node:fs';

/**
 * A file the package ships beside its code (fixtures/, docs/, README.md), found from this module, as
 * the code runs from the bundle (`dist/core-<hash>.cjs`, whose import.meta.url is its own file), from
 * the sources (`src/lib/`) or from tsc's output (`dist/src/lib/`): nearest first, so that the lookup
 * never leaves the package when the nearer file exists (a folder of the same name above a checkout is
 * not ours). Undefined when none of them holds it.
 */
export function packageFile(relative: string): URL | undefined {
  for (const up of ['../', '../../', '../../../']) {
    let url: URL;
    try {
      url = new URL(`${up}${relative}`, import.meta.url);
      if (url.protocol !== 'file:') return undefined;
    } catch {
      return undefined;
    }
    if (existsSync(url)) return url;
  }
  return undefined;
}
