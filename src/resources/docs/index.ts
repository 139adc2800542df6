import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
  // Generating the document walks every route schema (tens of milliseconds): do it once, on the
  // first request, when every route is registered.
  let document: string | undefined;
  app.get('/openapi.json', (c) => {
    document ??= JSON.stringify(app.getOpenAPI31Document(documentConfig));
    return c.body(document, 200, { 'content-type': 'application/json' });
  });

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
