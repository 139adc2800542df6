import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errors } from '../../lib/errors.js';
import { GUIDES_PATH } from '../../lib/guides.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { publicOrigin } from '../../platform/urls.js';
import { definitionSummaries, documentApp } from '../../platform/vertical-mount.js';
import { builtFiles, SWAGGER_UI_ASSETS, swaggerUiFolder } from './built.js';
import { requestBodyExamples, withRequestExamples } from './examples.js';
import { docsPrefill } from './prefill.js';
import { splitDocument } from './published.js';

/**
 * The served documentation: /openapi.json generated from the route schemas, and /docs, a Swagger UI
 * page whose assets are files of the package (built.ts), so it works with no network at all.
 */

const assetCache = new Map<string, Buffer>();

/**
 * The /docs page. Without an admin token, the sandbox is open to whoever reaches it anyway: the page
 * then exchanges the seeded sandbox key for a token itself, so that "Authorize" and "Try it out"
 * work at once. With one, the page stays as Swagger UI has it and says why.
 */
function docsPage(prefilled: boolean, which: 'service' | 'sandbox'): string {
  const auth = prefilled
    ? `Authorized with the seeded sandbox key: the page exchanged it for a token (POST /token) and renews it; the consumer_id fields start with a consumer of the seeded world.`
    : 'This sandbox has an admin token: nothing is prefilled. Exchange your key at POST /token, then paste the access token in "Authorize".';
  const other =
    which === 'service'
      ? ' The operations the sandbox adds (control endpoints, routes beyond the published document): <a href="/docs/sandbox">/docs/sandbox</a>.'
      : ' These are the operations the sandbox adds (/__sandbox/openapi.json); the published API is at <a href="/docs">/docs</a>.';
  const note = `${auth}${other}`;
  const url = which === 'service' ? SERVICE_DOCUMENT_PATH : SANDBOX_DOCUMENT_PATH;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>unified-api-sandbox: API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>.sandbox-note{font:14px/1.4 sans-serif;max-width:1420px;margin:12px auto 0;padding:0 20px;color:#3b4151}</style>
</head>
<body>
  <p class="sandbox-note" id="sandbox-note">${note}</p>
  <div id="docs" data-url="${url}"${prefilled ? ` data-prefill="${PREFILL_PATH}"` : ''}></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;
}

/** Where the page reads the seeded key and the well-known consumers (only without an admin token). */
const PREFILL_PATH = '/docs/prefill.json';

/** Operations whose example holds the seeded key: set by the /docs page from its prefill. */
const KEY_EXAMPLES = ['generate_access_token_token_post', 'generate_mcp_token_mcp_token_post'];

/** The two served documents (see published.ts). */
export const SERVICE_DOCUMENT_PATH = '/openapi.json';
export const SANDBOX_DOCUMENT_PATH = '/__sandbox/openapi.json';

/**
 * The page's script, the same for every sandbox: what is per app comes from data-prefill's JSON.
 * With it, the script fetches /openapi.json, sets a real consumer as the example of every
 * consumer_id path parameter (the vertical's consumer under its path, the sync consumer under
 * /syncs), exchanges the key for a token, authorizes bearerAuth with it, and renews it: 60 seconds
 * before its expires_in runs out, and at once (with the request sent again) when a request made with
 * it answers 401, as it does once the sandbox clock has moved past its expiry.
 */
const DOCS_INIT = `(function () {
  var root = document.getElementById('docs');
  var url = root.getAttribute('data-url') || '/openapi.json';
  var options = {
    dom_id: '#docs',
    deepLinking: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: -1,
    validatorUrl: null,
    persistAuthorization: true
  };
  var prefill = root.getAttribute('data-prefill');
  if (!prefill) {
    options.url = url;
    window.ui = SwaggerUIBundle(options);
    return;
  }
  var key = null;
  var token = null;
  var renewAt = 0;
  var pending = null;
  var sent = {};
  function json(response) {
    if (!response.ok) throw new Error(response.url + ': HTTP ' + response.status);
    return response.json();
  }
  function exchange() {
    pending = pending || fetch('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: key.accountId, clientId: key.clientId, clientSecret: key.clientSecret })
    }).then(json).then(function (body) {
      token = body.access_token;
      renewAt = Date.now() + Math.max(0, body.expires_in - 60) * 1000;
      if (window.ui) window.ui.preauthorizeApiKey('bearerAuth', token);
      pending = null;
      return token;
    }, function (error) {
      pending = null;
      throw error;
    });
    return pending;
  }
  function fresh() {
    return token && Date.now() < renewAt ? Promise.resolve(token) : exchange();
  }
  /** The name of the request's Authorization header when it carries the page's token. */
  function ours(request) {
    var headers = request.headers || {};
    for (var name in headers) {
      if (name.toLowerCase() === 'authorization' && token && headers[name] === 'Bearer ' + token) return name;
    }
    return null;
  }
  function withExamples(spec, consumers, bodies) {
    Object.keys(spec.paths || {}).forEach(function (path) {
      var at = path.indexOf('{consumer_id}');
      if (at < 0) return;
      var segment = path.slice(at + '{consumer_id}'.length).split('/')[1] || '';
      var id = consumers[segment] || consumers[''];
      var item = spec.paths[path];
      var lists = [item.parameters || []];
      Object.keys(item).forEach(function (method) {
        if (item[method] && item[method].parameters) lists.push(item[method].parameters);
      });
      lists.forEach(function (parameters) {
        parameters.forEach(function (parameter) {
          if (parameter.name === 'consumer_id' && parameter.in === 'path' && id) parameter.example = id;
        });
      });
    });
    Object.keys(spec.paths || {}).forEach(function (path) {
      var item = spec.paths[path];
      Object.keys(item).forEach(function (method) {
        var operation = item[method];
        var body = operation && bodies && bodies[operation.operationId];
        var media = operation && operation.requestBody && operation.requestBody.content && operation.requestBody.content['application/json'];
        if (body && media) media.example = body;
      });
    });
    return spec;
  }
  options.requestInterceptor = function (request) {
    var header = ours(request);
    if (!header) return request;
    return fresh().then(function (current) {
      request.headers[header] = 'Bearer ' + current;
      sent[request.url] = request;
      return request;
    });
  };
  options.responseInterceptor = function (response) {
    var request = sent[response.url];
    delete sent[response.url];
    if (!request || response.status !== 401 || request.renewed) return response;
    token = null;
    return exchange().then(function (current) {
      var headers = Object.assign({}, request.headers, { Authorization: 'Bearer ' + current });
      return window.ui.fn.fetch(Object.assign({}, request, { headers: headers, renewed: true }));
    });
  };
  options.onComplete = function () {
    if (token) window.ui.preauthorizeApiKey('bearerAuth', token);
  };
  Promise.all([fetch(prefill).then(json), fetch(url).then(json)]).then(function (loaded) {
    key = loaded[0];
    options.spec = withExamples(loaded[1], key.consumer_ids, key.examples);
    return exchange().catch(function (error) {
      console.warn('The page could not exchange the sandbox key: ' + error.message);
    });
  }).then(function () {
    window.ui = SwaggerUIBundle(options);
  });
})();`;

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
  <p><a href="/console"><strong>Open the console</strong></a>: the seeded world, the clock, webhooks,
  the requests your code sent, the automation.</p>
  <ul>
    <li><a href="/console">Console</a> (<code>/console</code>)</li>
    <li><a href="/docs">API reference</a> (Swagger UI, offline, authorized with the seeded key)</li>
    <li><a href="${GUIDES_PATH}">Guides</a> (<code>${GUIDES_PATH}</code>: getting started, testing, the readiness report, every guide of the package)</li>
    <li><a href="/openapi.json">OpenAPI document</a> (<code>/openapi.json</code>)</li>
    <li><a href="/__sandbox/requests">Requests this sandbox answered</a> (the request journal, JSON)</li>
    <li><a href="/__sandbox/fixtures/schema">Fixtures document schema</a> (JSON Schema)</li>
  </ul>
  <p>Start with <code>POST /token</code> and the credentials the command line printed
  (<code>npx unified-api-sandbox env</code> where the package is installed, <code>node dist/cli.mjs env</code> in a clone, prints them again); the control endpoints are under
  <code>/__sandbox/</code> (clock, reset). AI agents connect to the MCP server at <code>/mcp</code>
  (<a href="/.well-known/oauth-protected-resource/mcp">its OAuth metadata</a>).</p>
</body>
</html>`;

const DOCUMENT_CONFIG: Parameters<OpenAPIHono<AppEnv>['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'Unified Integration API',
    version: '1.0.0',
    description:
      'An offline, stateful sandbox of the unified integration API. Every operation answers as the service does; the Sandbox control operations move the clock and reset the seeded world.',
  },
  security: [{ bearerAuth: [] }],
};

/**
 * The document of every route of `app` (what the two served documents are split from), generated:
 * what the build writes as the prebuilt document.
 */
export function generateDocument(app: OpenAPIHono<AppEnv>): string {
  return JSON.stringify(documentApp(app).getOpenAPI31Document(DOCUMENT_CONFIG));
}

export function registerDocs(app: OpenAPIHono<AppEnv>, services?: Services): void {
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

  // Generating the document walks every route schema (~200 ms): it is a function of the routes
  // alone, so it is made once per process (or read as the build wrote it), on the first request,
  // when every route is registered; then split into the two served documents (published.ts).
  let documents: { service: string; sandbox: string } | undefined;
  const served = () => {
    if (documents === undefined) {
      const full = openApiDocument(app, () => generateDocument(app));
      documents = servedDocuments(full);
      // Where a drift file says production answers otherwise (an enum value, a null): the one hook.
      const drift = services?.drift;
      if (drift)
        documents = { ...documents, service: JSON.stringify(drift.document(JSON.parse(documents.service))) };
    }
    return documents;
  };
  // The readiness report matches recorded requests to the published operations.
  if (services) services.servedDocuments = served;
  // Without an admin token, every request body carries an example the seeded world accepts as it
  // is (examples.ts): read from the world once per app, at its first request for a document. The
  // examples of the token exchanges hold the seeded key: a document any origin may read does not
  // carry them; /docs sets them from its prefill (like the consumer ids).
  let exampled: { service: string; sandbox: string } | undefined;
  const document = (c: Context<AppEnv>, which: 'service' | 'sandbox'): string => {
    const config = c.get('config');
    if (config.adminToken !== null) return served()[which];
    if (exampled === undefined) {
      const services = (app as unknown as { services: Services }).services;
      const examples = requestBodyExamples(services, publicOrigin(config, c.req.url));
      for (const operationId of KEY_EXAMPLES) delete examples[operationId];
      const add = (text: string) => JSON.stringify(withRequestExamples(JSON.parse(text), examples));
      exampled = { service: add(served().service), sandbox: add(served().sandbox) };
    }
    return exampled[which];
  };
  app.get(SERVICE_DOCUMENT_PATH, (c) =>
    c.body(document(c, 'service'), 200, { 'content-type': 'application/json' }),
  );
  app.get(SANDBOX_DOCUMENT_PATH, (c) =>
    c.body(document(c, 'sandbox'), 200, { 'content-type': 'application/json' }),
  );

  app.get('/', (c) => c.html(HOME_PAGE));
  app.get('/docs', (c) => c.html(docsPage(c.get('config').adminToken === null, 'service')));
  app.get('/docs/sandbox', (c) => c.html(docsPage(c.get('config').adminToken === null, 'sandbox')));
  app.get(PREFILL_PATH, (c) => {
    // With an admin token the sandbox may be reachable by others: its key is never handed out.
    if (c.get('config').adminToken !== null) return c.json(errors.notFound().toBody(), 404);
    const origin = publicOrigin(c.get('config'), c.req.url);
    const services = (app as unknown as { services: Services }).services;
    const examples = requestBodyExamples(services, origin);
    const keyExamples = Object.fromEntries(
      KEY_EXAMPLES.flatMap((operationId) =>
        Object.hasOwn(examples, operationId) ? [[operationId, examples[operationId]]] : [],
      ),
    );
    return c.json(
      { ...docsPrefill(c.get('store').world, origin, c.get('catalogue')), examples: keyExamples },
      200,
      { 'cache-control': 'no-store' },
    );
  });
  app.get('/docs/init.js', (c) =>
    c.body(DOCS_INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = Object.hasOwn(SWAGGER_UI_ASSETS, file) ? SWAGGER_UI_ASSETS[file] : undefined;
    if (!type) return c.json(errors.notFound().toBody(), 404);
    let bytes = assetCache.get(file);
    if (!bytes) {
      bytes = readFileSync(join(swaggerUiFolder(), file));
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
  const definitions = definitionSummaries(app);
  const hash = createHash('sha256').update(String(definitions.length));
  for (const definition of definitions) {
    if ('route' in definition) {
      const { method, path, operationId } = definition.route;
      hash.update(`\n${method} ${path} ${operationId ?? ''}`);
    } else if ('componentType' in definition) {
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
 * The file the build writes beside the built code (`dist/openapi.prebuilt`, found as built.ts says):
 * the fingerprint of the routes on its first line, the document after it.
 */
export const PREBUILT_DOCUMENT = 'openapi.prebuilt';

function prebuiltDocument(fingerprint: string): string | undefined {
  for (const file of builtFiles(PREBUILT_DOCUMENT)) {
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

/** The two served documents of the document of every route, split once per process and document. */
const splitDocuments = new Map<string, { service: string; sandbox: string }>();

function servedDocuments(full: string): { service: string; sandbox: string } {
  let split = splitDocuments.get(full);
  if (split === undefined) {
    const { service, sandbox } = splitDocument(JSON.parse(full));
    split = { service: JSON.stringify(service), sandbox: JSON.stringify(sandbox) };
    splitDocuments.set(full, split);
  }
  return split;
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
