import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_PREREQUISITES,
  examplePathParams,
  examplePaths,
  requestBodyExamples,
  requestExamples,
  withRequestExamples,
} from '../../../src/surfaces/docs/examples.js';
import { type CallResult, call, SEED, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * Every request body of the served documents has an example that the sandbox takes as it stands:
 * sent once to a fresh seeded world, with the path parameters /docs fills in (the consumer it
 * prefills for the path, the records the example works on) and a token of the seeded sandbox key,
 * it answers 2xx. The example is the served one when the document carries it, else the one
 * withRequestExamples puts there.
 */

// biome-ignore lint/suspicious/noExplicitAny: the documents are walked as plain JSON
type Json = any;

/** The origin app.request() gives a request without one. */
const ORIGIN = 'http://localhost';
const DOCUMENTS = ['/openapi.json', '/__sandbox/openapi.json'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  operationId: string;
  method: string;
  path: string;
  example: unknown;
}

/** The served documents of a fresh app of the seed, and the operations that take a JSON body. */
async function operationsOf(seed: number): Promise<{ documents: Json[]; operations: Operation[] }> {
  const s = sandbox({ seed });
  const examples = requestBodyExamples(s.app.services, ORIGIN);
  const documents: Json[] = [];
  const operations: Operation[] = [];
  for (const url of DOCUMENTS) {
    const res = await call(s.app, 'GET', url);
    expect(res.status, url).toBe(200);
    const served = res.body as Json;
    documents.push(served);
    const applied = withRequestExamples(served, examples);
    for (const [path, item] of Object.entries<Json>(served.paths)) {
      for (const method of METHODS) {
        const media = item[method]?.requestBody?.content?.['application/json'];
        if (!media) continue;
        const operationId = item[method].operationId as string;
        const fallback = applied.paths[path][method].requestBody.content['application/json'].example;
        operations.push({
          operationId,
          method: method.toUpperCase(),
          path,
          example: media.example !== undefined ? media.example : fallback,
        });
      }
    }
  }
  return { documents, operations };
}

/** The path with its parameters filled in; none may be left out. */
function urlOf(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? encodeURI(params[name] as string) : whole,
  );
}

async function send(
  s: TestSandbox,
  token: string,
  operation: Operation,
  body: unknown,
  params: Record<string, string>,
): Promise<{ url: string; res: CallResult }> {
  const url = urlOf(operation.path, params);
  expect(url, `${operation.operationId}: a path parameter has no example`).not.toContain('{');
  return { url, res: await call(s.app, operation.method, url, { token, body }) };
}

const expect2xx = (operation: Operation, url: string, res: CallResult) =>
  expect(
    res.status >= 200 && res.status < 300,
    `${operation.operationId}: ${operation.method} ${url} answered ${res.status}: ${res.text.slice(0, 600)}`,
  ).toBe(true);

/** What some answers must say besides their status: a 200 that reports a refusal inside is none. */
const ANSWER_CHECKS: Record<string, (body: Json) => void> = {
  accounting_match_entries_multiple: (body) =>
    expect(
      body.every((r: Json) => r.processed === true),
      JSON.stringify(body),
    ).toBe(true),
  accounting_match_entries: (body) => expect(body.matching_number).toMatch(/^M\d+$/),
  sandbox_complete_connection_link: (body) => expect(body.status).toBe('active'),
};

describe.each([SEED, 1])('request body examples, seed %i', async (seed) => {
  const { documents, operations } = await operationsOf(seed);
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

  it('every operation with a JSON request body has an example, at the path the examples know it by', () => {
    expect(operations.length).toBeGreaterThan(60);
    const missing = operations.filter((o) => o.example === undefined).map((o) => o.operationId);
    expect(missing).toEqual([]);
    for (const operation of operations) {
      expect(examplePaths()[operation.operationId], operation.operationId).toBe(operation.path);
    }
    for (const [operationId, first] of Object.entries(EXAMPLE_PREREQUISITES)) {
      expect(byId.has(operationId), operationId).toBe(true);
      expect(byId.has(first), first).toBe(true);
    }
  });

  it('withRequestExamples sets the examples and nothing else, on a copy', () => {
    const s = sandbox({ seed });
    const examples = requestBodyExamples(s.app.services, ORIGIN);
    for (const document of documents) {
      const before = JSON.stringify(document);
      const applied = withRequestExamples(document, examples);
      expect(JSON.stringify(document)).toBe(before);
      // Without the examples, the copy is the document (served examples of its own put aside).
      const strip = (doc: Json) => {
        const copy = structuredClone(doc);
        for (const item of Object.values<Json>(copy.paths)) {
          for (const op of Object.values<Json>(item))
            delete op?.requestBody?.content?.['application/json']?.example;
        }
        return copy;
      };
      expect(strip(applied)).toEqual(strip(document));
    }
  });

  it('the same world gives the same examples; reading them changes no answer', async () => {
    const a = sandbox({ seed });
    const b = sandbox({ seed });
    const first = requestExamples(a.app.services, ORIGIN);
    expect(requestExamples(a.app.services, ORIGIN)).toEqual(first);
    const token = await sandboxToken(a);
    const ids = a.ids.verticalConsumers;
    const reads = [
      `/consumers/${ids.ACCOUNTING}/accounting/invoices/type/customer_invoice?size=100`,
      `/consumers/${ids.ACCOUNTING}/accounting/outstandings?type=client&unposted_allowed=false&size=100`,
      `/consumers/${ids.ACCOUNTING}/accounting/journals`,
      `/consumers/${ids.INVOICING}/invoicing/invoices?size=100`,
      `/consumers/${ids.POS}/pos/customers?size=100`,
      `/consumers/${ids.ECOMMERCE}/commerce/orders?size=100`,
      '/consumers',
    ];
    for (const url of reads) {
      const read = await call(a.app, 'GET', url, { token });
      const untouched = await call(b.app, 'GET', url, { token: await sandboxToken(b) });
      expect(read.status, url).toBe(200);
      expect(read.text, url).toBe(untouched.text);
    }
    expect(requestExamples(b.app.services, ORIGIN)).toEqual(first);
  });

  it.each(operations)('$method $path ($operationId)', async (operation) => {
    const s = sandbox({ seed });
    const token = await sandboxToken(s);
    let body = operation.example;
    let params = examplePathParams(s.app.services, ORIGIN)[operation.operationId] ?? {};
    const prerequisite = EXAMPLE_PREREQUISITES[operation.operationId];
    if (prerequisite) {
      // The record the example works on is made first; the examples then name it.
      const before = byId.get(prerequisite) as Operation;
      const made = await send(
        s,
        token,
        before,
        before.example,
        examplePathParams(s.app.services, ORIGIN)[prerequisite] ?? {},
      );
      expect2xx(before, made.url, made.res);
      const now = requestExamples(s.app.services, ORIGIN)[operation.operationId];
      expect(now, operation.operationId).toBeDefined();
      body = now?.body;
      params = now?.params ?? {};
    }
    const { url, res } = await send(s, token, operation, body, params);
    expect2xx(operation, url, res);
    ANSWER_CHECKS[operation.operationId]?.(res.body);
  });
});
