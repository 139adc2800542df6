import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUIDES_PATH, guidePath } from '../../lib/guides.js';
import { packageFile } from '../../lib/package-files.js';

/**
 * The guides the package holds: every Markdown file of its docs/ folder, and the README and the
 * changelog beside it (the package ships them: package.json `files`), found relative to the code as
 * the fixtures are (lib/package-files.ts); and the pictures the guides show, in docs/'s folders.
 */

/** A guide: its name in /guides/<name>, its file, and its path in the package (where its relative links start). */
export interface GuideSource {
  name: string;
  file: string;
  path: string;
}

/** A picture a guide shows, served at /guides/<path> (`console/overview.png`). */
export interface GuideAsset {
  path: string;
  file: string;
  type: string;
}

export interface GuideLibrary {
  /** By name: `control`, `readiness`... and `readme`, `changelog`. */
  guides: ReadonlyMap<string, GuideSource>;
  /** By path under docs/. */
  assets: ReadonlyMap<string, GuideAsset>;
}

/** The files beside docs/ that are guides too, by the name each is served under. */
const BESIDE: readonly [name: string, path: string][] = [
  ['readme', 'README.md'],
  ['changelog', 'CHANGELOG.md'],
];

const DOCS = 'docs/';

const ASSET_TYPES: Readonly<Record<string, string>> = { '.png': 'image/png' };

/** A name that is a path segment as it is: a guide's file name, a picture's. */
const PLAIN_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** What docs/ holds: its Markdown files, and the pictures of its folders (one level down). */
function listDocs(folder: string, guides: Map<string, GuideSource>, assets: Map<string, GuideAsset>): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const extension = extname(entry.name);
    const stem = entry.name.slice(0, entry.name.length - extension.length);
    if (entry.isFile() && extension === '.md' && PLAIN_NAME.test(stem)) {
      guides.set(stem, { name: stem, file: join(folder, entry.name), path: `${DOCS}${entry.name}` });
    } else if (entry.isDirectory() && PLAIN_NAME.test(entry.name)) {
      const sub = join(folder, entry.name);
      for (const inner of readdirSync(sub, { withFileTypes: true })) {
        const type = ASSET_TYPES[extname(inner.name)];
        const plain = PLAIN_NAME.test(inner.name.slice(0, inner.name.length - extname(inner.name).length));
        if (!inner.isFile() || type === undefined || !plain) continue;
        const path = `${entry.name}/${inner.name}`;
        assets.set(path, { path, file: join(sub, inner.name), type });
      }
    }
  }
}

/** The guides of the package, as its files are now. */
export function findGuides(): GuideLibrary {
  const guides = new Map<string, GuideSource>();
  const assets = new Map<string, GuideAsset>();
  const folder = packageFile('docs');
  if (folder) listDocs(fileURLToPath(folder), guides, assets);
  for (const [name, path] of BESIDE) {
    const url = packageFile(path);
    if (url && !guides.has(name)) guides.set(name, { name, file: fileURLToPath(url), path });
  }
  return { guides, assets };
}

/** The path a guide or a picture is served at, from its path in the package; undefined for another file. */
export function servedPathOf(library: GuideLibrary, path: string): string | undefined {
  for (const guide of library.guides.values()) if (guide.path === path) return guidePath(guide.name);
  const asset = path.startsWith(DOCS) ? library.assets.get(path.slice(DOCS.length)) : undefined;
  return asset ? `${GUIDES_PATH}/${asset.path}` : undefined;
}
