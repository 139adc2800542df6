import { existsSync } from 'node:fs';

/**
 * A file the package ships beside its code (fixtures/, docs/, README.md), found from this module.
 * The package's root is the nearest folder above it that holds a package.json, as the code runs from
 * the bundle (`dist/core-<hash>.cjs`, whose import.meta.url is its own file: one level up), from the
 * sources (`src/lib/`: two) or from tsc's output (`dist/src/lib/`: three); the file is looked for
 * there only, so that the lookup never leaves the package (a project's own docs/ above an installed
 * package is not ours). Undefined when the package does not hold it.
 */
export function packageFile(relative: string): URL | undefined {
  for (const up of ['../', '../../', '../../../']) {
    let root: URL;
    try {
      root = new URL(up, import.meta.url);
    } catch {
      return undefined;
    }
    if (root.protocol !== 'file:') return undefined;
    if (!existsSync(new URL('package.json', root))) continue;
    const url = new URL(relative, root);
    return existsSync(url) ? url : undefined;
  }
  return undefined;
}
