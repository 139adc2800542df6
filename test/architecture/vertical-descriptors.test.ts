import { readFileSync } from 'node:fs';
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { VERTICAL_SHOWCASE } from '../../src/control/seeded-world.js';
import { API_NAMES, ONE_APIS } from '../../src/platform/catalogue.js';
import type { AppEnv } from '../../src/platform/context.js';
import { loadedModule } from '../../src/platform/lazy-vertical.js';
import type { AnyVerticalModule } from '../../src/platform/vertical-module.js';
import { VERTICALS } from '../../src/verticals.js';
import { call, sandbox, sandboxToken } from '../helpers.js';

const OPERATIONS_FILE = 'fixtures/operations-by-api.json';
const operationsByApi = (): Record<string, string[]> =>
  JSON.parse(readFileSync(new URL(`../../${OPERATIONS_FILE}`, import.meta.url), 'utf8'));

/** The coverage each operation of a vertical checks (operation() in platform/operation.ts), in order. */
function coveredOperations(vertical: AnyVerticalModule): string[] {
  const app = new OpenAPIHono<AppEnv>();
  const covered: string[] = [];
  const openapi = app.openapi;
  app.openapi = ((route, handler, hook) => {
    const covers = (handler as { covers?: unknown }).covers;
    if (typeof covers === 'string' && !covered.includes(covers)) covered.push(covers);
    return openapi(route, handler, hook);
  }) as typeof app.openapi;
  loadedModule(vertical).register(app);
  return covered;
}

describe('one descriptor per vertical', () => {
  it('names a One API of the catalogue with its code, and a key, env name and showcase of its own', () => {
    for (const field of ['key', 'api', 'code', 'envName', 'showcase', 'collection'] as const) {
      const values = VERTICALS.map((vertical) => vertical[field]);
      expect(new Set(values).size, `two verticals share a ${field}`).toBe(values.length);
    }
    for (const vertical of VERTICALS) {
      expect(
        ONE_APIS,
        `${vertical.key}: take its api and code from oneApi() of platform/catalogue.ts`,
      ).toContainEqual({
        name: vertical.api,
        code: vertical.code,
      });
    }
    // The One APIs that are no vertical of the sandbox.
    expect(API_NAMES.filter((name) => !VERTICALS.some((v) => v.api === name))).toEqual([
      'Communication',
      'Custom',
    ]);
  });

  it('gives the seeded world its showcase consumers, in the order of the One API codes', async () => {
    expect(VERTICAL_SHOWCASE.map((s) => s.envName)).toEqual([
      'ACCOUNTING',
      'POS',
      'ECOMMERCE',
      'INVOICING',
      'BANKING',
      'PAYMENT',
      'PMS',
    ]);
    const s = sandbox();
    const token = await sandboxToken(s);
    const prefill = (await call(s.app, 'GET', '/docs/prefill.json')).body as {
      consumer_ids: Record<string, string>;
    };
    for (const vertical of VERTICALS) {
      const consumer = s.ids.verticalConsumers[vertical.envName] as string;
      expect(prefill.consumer_ids[vertical.key]).toBe(consumer);
      const connections = await call(s.app, 'GET', `/consumers/${consumer}/connections`, { token });
      expect(connections.status).toBe(200);
      expect(JSON.stringify(connections.body)).toContain(`"integrationid":${vertical.showcase}`);
    }
  });

  it(`lists every operation of a vertical in ${OPERATIONS_FILE}, and nothing else`, () => {
    const file = operationsByApi();
    for (const vertical of VERTICALS) {
      const covered = coveredOperations(vertical);
      const listed = file[vertical.api] ?? [];
      const missing = covered.filter((operationId) => !listed.includes(operationId));
      expect(
        missing,
        `Add ${JSON.stringify(missing)} to "${vertical.api}" in ${OPERATIONS_FILE}: an operation the catalogue does not list is NOT_SUPPORTED by every integration (400)`,
      ).toEqual([]);
      const stale = listed.filter((operationId) => !covered.includes(operationId));
      expect(
        stale,
        `Remove ${JSON.stringify(stale)} from "${vertical.api}" in ${OPERATIONS_FILE}: no operation checks it`,
      ).toEqual([]);
    }
    expect(Object.keys(file).sort()).toEqual([...API_NAMES].sort());
  });
});
