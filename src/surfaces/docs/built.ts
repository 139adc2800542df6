import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files the build writes into dist/ beside the bundle (scripts/bundle.mjs): where a file of that name
 * would be, next to the bundle (`dist/core-<hash>.cjs`) or three levels above this module as tsc
 * wrote it (`dist/src/surfaces/docs/`). Only a folder named dist counts: the sources never read what
 * a build left.
 */
export function builtFiles(name: string): string[] {
  const files: string[] = [];
  for (const relative of [`./${name}`, `../../../${name}`]) {
    let file: string;
    try {
      file = fileURLToPath(new URL(relative, import.meta.url));
    } catch {
      return files; // not a file url
    }
    if (basename(dirname(file)) === 'dist') files.push(file);
  }
  return files;
}

/**
 * Swagger UI's files the /docs page loads, by name, with their content type. The build copies them
 * from the swagger-ui-dist dev dependency into dist/swagger-ui/, with its license notices: the
 * package installs no dependency of Swagger UI's (swagger-ui-dist's own dependency runs an
 * install script that reports the install over the network).
 */
export const SWAGGER_UI_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** The folder of dist/ the build copies them into, and the notices it copies with them. */
export const SWAGGER_UI_FOLDER = 'swagger-ui';
export const SWAGGER_UI_NOTICES = [
  'LICENSE',
  'NOTICE',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui-standalone-preset.js.LICENSE.txt',
];

/** swagger-ui-dist's own folder (a dev dependency: present in a clone, where the sources run). */
export function swaggerUiPackageFolder(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Where the assets are read: the build's copy, else (the sources, in a clone) the dev dependency. */
export function swaggerUiFolder(): string {
  return (
    builtFiles(SWAGGER_UI_FOLDER).find((folder) => existsSync(join(folder, 'LICENSE'))) ??
    swaggerUiPackageFolder()
  );
}
