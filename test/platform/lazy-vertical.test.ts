import { describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { appCachesOf, lazyVertical, loadedModule, manifestOf } from '../../src/platform/lazy-vertical.js';
import type { AnyVerticalModule } from '../../src/platform/vertical-module.js';
import { routeDefinitions } from '../../src/platform/vertical-mount.js';
import { VERTICALS } from '../../src/verticals.js';
import { call, sandbox, sandboxToken } from '../helpers.js';

/** The verticals as the bundle composes them: each with the manifest the build derives, loads counted. */
function asBuilt() {
  const loads: string[] = [];
  const verticals = VERTICALS.map((vertical) => {
    const module = loadedModule(vertical);
    return lazyVertical(() => {
      loads.push(module.key);
      return module;
    }, manifestOf(module));
  });
  return { verticals, loads };
}

const direct = (): AnyVerticalModule[] => VERTICALS.map(loadedModule);

type Exchange = [method: string, path: string, body?: string, authorized?: boolean];

/** Requests across the verticals: reads, refusals of each validator, 401, 404, 405, HEAD, a write. */
function exchanges(ids: ReturnType<typeof sandbox>['ids']): Exchange[] {
  const { INVOICING, POS, ACCOUNTING, PMS, ECOMMERCE } = ids.verticalConsumers;
  return [
    ['GET', `/consumers/${INVOICING}/invoicing/invoices?page=1&size=2`],
    ['GET', `/consumers/${INVOICING}/invoicing/invoices/not-an-invoice`],
    ['GET', `/consumers/${INVOICING}/invoicing/invoices/00000000-0000-4000-8000-000000000000`],
    ['GET', `/consumers/${INVOICING}/invoicing/invoices?size=0`],
    ['POST', `/consumers/${INVOICING}/invoicing/contacts`, '{}'],
    ['POST', `/consumers/${INVOICING}/invoicing/contacts`, '{"first_name":'],
    ['POST', `/consumers/${INVOICING}/invoicing/contacts`, JSON.stringify({ company_name: 'Lazy & Sons' })],
    ['DELETE', `/consumers/${INVOICING}/invoicing/invoices`],
    ['HEAD', `/consumers/${POS}/pos/orders`],
    ['GET', `/consumers/${POS}/pos/orders?date_from=yesterday`],
    ['GET', `/consumers/${ACCOUNTING}/accounting/journals`],
    ['GET', `/consumers/${PMS}/pms/locations`],
    ['GET', `/consumers/${ECOMMERCE}/commerce/products?size=1`],
    ['GET', `/consumers/${ECOMMERCE}/invoicing/invoices`],
    ['GET', `/consumers/${POS}/pos/orders`, undefined, false],
  ];
}

async function answers(app: SandboxApp, token: string, list: Exchange[]) {
  const out: unknown[] = [];
  for (const [method, path, body, authorized = true] of list) {
    const headers: Record<string, string> = authorized ? { authorization: `Bearer ${token}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.request(path, { method, headers, body });
    out.push([
      method,
      path,
      res.status,
      res.headers.get('content-type'),
      res.headers.get('allow'),
      await res.text(),
    ]);
  }
  return out;
}

describe('verticals loaded on first use', () => {
  it('answer every route, refusal and document as the modules registered directly, byte for byte', async () => {
    const built = asBuilt();
    const lazy = sandbox({ verticals: built.verticals });
    const eager = sandbox({ verticals: direct() });
    const list = exchanges(lazy.ids);
    const lazyAnswers = await answers(lazy.app, await sandboxToken(lazy), list);
    expect(lazyAnswers).toEqual(await answers(eager.app, await sandboxToken(eager), list));
    // The exchanges reach each kind of answer.
    expect(new Set(lazyAnswers.map((answer) => (answer as unknown[])[2]))).toEqual(
      new Set([200, 400, 401, 404, 405, 422]),
    );
    for (const path of ['/openapi.json', '/__sandbox/openapi.json']) {
      const [a, b] = [await lazy.app.request(path), await eager.app.request(path)];
      expect(a.status).toBe(200);
      expect(await a.text()).toBe(await b.text());
    }
  });

  it('the document alone (an admin app) is the same too, and lists every vertical operation', async () => {
    const lazy = sandbox({ verticals: asBuilt().verticals, adminToken: 'root' });
    const eager = sandbox({ verticals: direct(), adminToken: 'root' });
    const text = await (await lazy.app.request('/openapi.json')).text();
    expect(text).toBe(await (await eager.app.request('/openapi.json')).text());
    expect(text).toContain('"/consumers/{consumer_id}/invoicing/invoices"');
  });

  it('loads a vertical only when a request or a reader needs it, once per process', async () => {
    const { verticals, loads } = asBuilt();
    const s = sandbox({ verticals });
    const token = await sandboxToken(s);
    expect(
      (await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.INVOICING}`, { token })).status,
    ).toBe(200);
    expect((await call(s.app, 'GET', '/integrations', { token })).status).toBe(200);
    expect(loads).toEqual([]);
    const invoices = `/consumers/${s.ids.verticalConsumers.INVOICING}/invoicing/invoices`;
    expect((await call(s.app, 'GET', invoices, { token })).status).toBe(200);
    expect(loads).toEqual(['invoicing']);
    // Another app binds its own routes to the module already loaded.
    const other = sandbox({ verticals });
    expect((await call(other.app, 'GET', invoices, { token: await sandboxToken(other) })).status).toBe(200);
    expect(loads).toEqual(['invoicing']);
    // The datalab's cubes are read off the modules.
    expect((await call(s.app, 'GET', '/datalab/cube-schemas', { token })).status).toBe(200);
    expect([...loads].sort()).toEqual(VERTICALS.map((v) => v.key).sort());
  });

  it('makes a vertical task and an app cache only when first used', async () => {
    const { verticals, loads } = asBuilt();
    const s = sandbox({ verticals });
    await s.app.services.ticker.run();
    // The task ran: the module was loaded for it.
    expect(loads).toEqual(expect.arrayContaining(['pos', 'commerce']));
    let made = 0;
    const caches = appCachesOf([
      {
        ...loadedModule(verticals[0] as AnyVerticalModule),
        caches: {
          ledgerFolders: () => {
            made += 1;
            return new Map();
          },
        },
      },
    ]) as unknown as { ledgerFolders: Map<string, unknown> };
    expect(made).toBe(0);
    expect(Object.keys(caches)).toEqual(['ledgerFolders']);
    const first = caches.ledgerFolders;
    expect(caches.ledgerFolders).toBe(first);
    expect(made).toBe(1);
  });

  it('refuses a manifest that lists other routes than the module registers', () => {
    const module = loadedModule(VERTICALS.find((v) => v.key === 'invoicing') as AnyVerticalModule);
    const manifest = manifestOf(module);
    const stale = lazyVertical(() => module, { ...manifest, definitions: manifest.definitions.slice(1) });
    const s = sandbox({ verticals: [stale] });
    expect(() => routeDefinitions(s.app)).toThrow(
      'The invoicing vertical registers other routes than its manifest lists',
    );
  });

  it("keeps the verticals' routes out of the app's own registry, and in the document's", async () => {
    const s = sandbox({ verticals: asBuilt().verticals, adminToken: 'root' });
    const own = s.app.openAPIRegistry.definitions.filter((d) => d.type === 'route');
    const all = routeDefinitions(s.app).filter((d) => d.type === 'route');
    const invoices = (d: (typeof all)[number]) =>
      d.type === 'route' && d.route.path === '/consumers/{consumer_id}/invoicing/invoices';
    expect(own.some(invoices)).toBe(false);
    expect(all.some(invoices)).toBe(true);
  });
});
