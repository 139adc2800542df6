import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { errors } from '../../lib/errors.js';

/**
 * The served documentation: /openapi.json generated from the route schemas, and /docs, a Swagger UI
 * page whose assets come from the swagger-ui-dist package, so it works with no network at all.
 */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const assetDirectory = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const assetCache = new Map<string, Buffer>();

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>unified-api-sandbox: API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#docs',
  deepLinking: true,
  docExpansion: 'none',
  defaultModelsExpandDepth: -1,
  validatorUrl: null,
  persistAuthorization: true
});`;

/** The root page: where to go from a browser (never a 404). */
const HOME_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>unified-api-sandbox</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
  <h1>unified-api-sandbox</h1>
  <p>An offline, stateful sandbox of the unified integration API.</p>
  <ul>
    <li><a href="/docs">API reference</a> (Swagger UI, offline)</li>
    <li><a href="/openapi.json">OpenAPI document</a> (<code>/openapi.json</code>)</li>
    <li><a href="/__sandbox/requests">Requests this sandbox answered</a> (the request journal, JSON)</li>
    <li><a href="/__sandbox/fixtures/schema">Fixtures document schema</a> (JSON Schema)</li>
  </ul>
  <p>Start with <code>POST /token</code> and the credentials the command line printed
  (<code>unified-api-sandbox env</code> prints them again); the control endpoints are under
  <code>/__sandbox/</code> (clock, reset).</p>
</body>
</html>`;

export function registerDocs(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of POST /token, valid 30 minutes.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'mcp_auth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A token of POST /mcp-token: bound to one consumer and to scopes. An operation accepts it when the token carries one of the scopes the operation lists.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'sandboxAdmin', {
    type: 'http',
    scheme: 'bearer',
    description: 'The --admin-token of the sandbox, needed only when one is configured.',
  });

  const documentConfig: Parameters<typeof app.getOpenAPI31Document>[0] = {
    openapi: '3.1.0',
    info: {
      title: 'Unified integration API (sandbox)',
      version: '1.0.0',
      description:
        'An offline, stateful sandbox of the unified integration API. Every operation answers as the service does; the Sandbox control operations move the clock and reset the seeded world.',
    },
    security: [{ bearerAuth: [] }],
  };
  // Generating the document walks every route schema (~200 ms): it is a function of the routes
  // alone, so it is made once per process (or read as the build wrote it), on the first request,
  // when every route is registered.
  let document: string | undefined;
  app.get('/openapi.json', (c) => {
    document ??= openApiDocument(app, () => JSON.stringify(app.getOpenAPI31Document(documentConfig)));
    return c.body(document, 200, { 'content-type': 'application/json' });
  });

  app.get('/', (c) => c.html(HOME_PAGE));
  app.get('/docs', (c) => c.html(DOCS_PAGE));
  app.get('/docs/init.js', (c) =>
    c.body(DOCS_INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) return c.json(errors.notFound().toBody(), 404);
    let bytes = assetCache.get(file);
    if (!bytes) {
      bytes = readFileSync(join(assetDirectory(), file));
      assetCache.set(file, bytes);
    }
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': type,
      'cache-control': 'public, max-age=3600',
    });
  });
}

/**
 * What the served document depends on: the operations (method, path, operationId) and the count of
 * every definition, in the order they were registered. Two apps of one process have the same, unless
 * one was built by other code.
 */
export function routesFingerprint(app: OpenAPIHono<AppEnv>): string {
  const definitions = app.openAPIRegistry.definitions;
  const hash = createHash('sha256').update(String(definitions.length));
  for (const definition of definitions) {
    if (definition.type === 'route') {
      const { method, path, operationId } = definition.route;
      hash.update(`\n${method} ${path} ${operationId ?? ''}`);
    } else if (definition.type === 'component') {
      hash.update(`\n${definition.componentType} ${definition.name}`);
    } else {
      hash.update(`\n${definition.type}`);
    }
  }
  return hash.digest('hex');
}

/** Documents made in this process, by the fingerprint of their routes (a pure function of code). */
const documents = new Map<string, string>();

/**
 * The file the build writes beside the built code (`dist/openapi.prebuilt`): the fingerprint of the
 * routes on its first line, the document after it. Looked for only in a folder named dist, next to
 * the bundles (`dist/cli.mjs`) or three levels above this module (`dist/src/resources/docs/`).
 */
export const PREBUILT_DOCUMENT = 'openapi.prebuilt';

function prebuiltDocument(fingerprint: string): string | undefined {
  for (const relative of [`./${PREBUILT_DOCUMENT}`, `../../../${PREBUILT_DOCUMENT}`]) {
    let file: string;
    try {
      file = fileURLToPath(new URL(relative, import.meta.url));
    } catch {
      return undefined; // not a file url
    }
    if (basename(dirname(file)) !== 'dist') continue;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const newline = text.indexOf('\n');
    if (newline > 0 && text.slice(0, newline) === fingerprint) return text.slice(newline + 1);
  }
  return undefined;
}

/** The served document of `app`: made by `generate` once per process and set of routes. */
export function openApiDocument(app: OpenAPIHono<AppEnv>, generate: () => string): string {
  const fingerprint = routesFingerprint(app);
  let document = documents.get(fingerprint);
  if (document === undefined) {
    document = prebuiltDocument(fingerprint) ?? generate();
    documents.set(fingerprint, document);
  }
  return document;
}
