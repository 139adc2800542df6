/**
 * The last step of `npm run build`: writes dist/openapi.prebuilt, the document of every route as the
 * built code generates it (what the two served documents, /openapi.json and /__sandbox/openapi.json,
 * are split from), after the fingerprint of its routes (see src/surfaces/docs/index.ts). A process
 * serves it instead of generating the document (~200 ms) when its routes have the same fingerprint.
 * Run it after every build of dist/ (the build script does): a document left from an older build
 * whose routes are the same would be served as it is.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from '../dist/src/app.js';
import { generateDocument, PREBUILT_DOCUMENT, routesFingerprint } from '../dist/src/surfaces/docs/index.js';

const file = fileURLToPath(new URL(`../dist/${PREBUILT_DOCUMENT}`, import.meta.url));
// The document is generated, never read from the file of a previous build.
rmSync(file, { force: true });
const app = createApp();
writeFileSync(file, `${routesFingerprint(app)}\n${generateDocument(app)}`);
