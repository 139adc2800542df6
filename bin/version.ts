import { readFileSync } from 'node:fs';

/**
 * The package's version, read from its package.json when asked: the file is one folder above this
 * code's, in a clone (bin/) as in the package (the bundle in dist/).
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof manifest.version !== 'string') throw new Error('package.json names no version');
  return manifest.version;
}
