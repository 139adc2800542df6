import { readFixture } from '../../platform/catalogue.js';

/**
 * The served document is an interface clients compile against: an OpenAPI-driven command line names
 * its command groups after an operation's first tag and its commands after the summary, in the
 * document's order; an MCP server makes one tool per operation. So GET /openapi.json serves the
 * operations of the published document, in its order, under its names (operationId, tags, summary:
 * fixtures/published-operations.json, derived from the published document by
 * scripts/reference-facts.ts), and nothing else. What the sandbox adds (control endpoints, link
 * pages, the routes the official clients call beyond the published document, operations of a newer
 * published version, custom routes, images) is served in a document of its own,
 * GET /__sandbox/openapi.json, each operation marked `x-sandbox: true`.
 */

/** The extension that marks every operation of the sandbox's own document. */
export const SANDBOX_MARKER = 'x-sandbox' as const;

interface PublishedOperation {
  method: string;
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  /** `in:name` of its path and query parameters, in the published order. */
  parameters: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the documents are walked as plain JSON
type Json = any;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let published: PublishedOperation[] | undefined;
const publishedOperations = (): PublishedOperation[] =>
  (published ??= readFixture<{ operations: PublishedOperation[] }>('published-operations.json').operations);

/** The component schema names an object reaches through `$ref`, components included, transitively. */
function reachableSchemas(document: Json, roots: Json[]): Set<string> {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const stack: Json[] = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!seen.has(name) && Object.hasOwn(schemas, name)) {
          seen.add(name);
          stack.push(schemas[name]);
        }
      } else if (value !== null && typeof value === 'object') {
        stack.push(value);
      }
    }
  }
  return seen;
}

/** The document with only `paths`, and the components they reach (schemas in their order). */
function withPaths(document: Json, paths: Record<string, Json>, info: Json): Json {
  const operations = Object.values(paths).flatMap((item) => Object.values(item));
  const names = reachableSchemas(document, operations);
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (names.has(name)) schemas[name] = schema;
  }
  const components = { ...document.components, schemas };
  return { ...document, info, paths, components };
}

/** Parameters in the published order; any the published operation does not name, after them. */
function inPublishedOrder(served: Json[], order: string[]): Json[] {
  const rank = (p: Json) => {
    const at = order.indexOf(`${p.in}:${p.name}`);
    return at === -1 ? order.length : at;
  };
  return served
    .map((parameter, index) => ({ parameter, index }))
    .sort((a, b) => rank(a.parameter) - rank(b.parameter) || a.index - b.index)
    .map(({ parameter }) => parameter);
}

export interface ServedDocuments {
  /** GET /openapi.json: the published operations, in the published order, under their names. */
  service: Json;
  /** GET /__sandbox/openapi.json: every other operation the sandbox serves, marked x-sandbox. */
  sandbox: Json;
}

/**
 * Splits the document of every route into the two served documents. An operation of the published
 * document takes its tags and summary from it (the route's own summary, when it differs, becomes its
 * description when it has none).
 */
export function splitDocument(full: Json): ServedDocuments {
  const taken = new Set<string>();
  const servicePaths: Record<string, Json> = {};
  for (const { method, path, tags, summary, parameters } of publishedOperations()) {
    const op = full.paths?.[path]?.[method];
    if (op === undefined) continue;
    taken.add(`${method} ${path}`);
    const named = { ...op, tags: [...tags], summary };
    if (Array.isArray(op.parameters)) named.parameters = inPublishedOrder(op.parameters, parameters);
    if (named.description === undefined && op.summary && op.summary !== summary) {
      named.description = op.summary;
    }
    servicePaths[path] ??= {};
    servicePaths[path][method] = named;
  }
  const sandboxPaths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(full.paths ?? {}) as [string, Json][]) {
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined || taken.has(`${method} ${path}`)) continue;
      sandboxPaths[path] ??= {};
      sandboxPaths[path][method] = { ...op, [SANDBOX_MARKER]: true };
    }
  }
  const sandboxInfo = {
    ...full.info,
    title: `${full.info?.title ?? 'API'}: what the sandbox adds`,
    description:
      'The operations the sandbox serves beyond the published document: the control endpoints (clock, reset, journal, faults, fixtures), the link pages, the routes the official clients call that the published document leaves out, operations of a newer published version, custom routes and images. None of them is part of /openapi.json; every one is marked x-sandbox.',
  };
  return {
    service: withPaths(full, servicePaths, full.info),
    sandbox: withPaths(full, sandboxPaths, sandboxInfo),
  };
}

/** The tags an operation has in the served document (the published ones), if it is published. */
export function publishedTags(operationId: string): readonly string[] | undefined {
  return publishedOperations().find((op) => op.operationId === operationId)?.tags;
}
