import { describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { call, expectError, sandbox, sandboxToken } from '../../helpers.js';

/**
 * What /docs prefills "Authorize" and "Try it out" with: the seeded sandbox key and a seeded
 * consumer per vertical, only when the sandbox has no admin token, and never in /openapi.json.
 */

const PREFILL = '/docs/prefill.json';

describe('/docs prefilled with the seeded sandbox key', () => {
  it('without an admin token: the page reads the key and the consumers from its JSON', async () => {
    const s = sandbox();
    const page = await call(s.app, 'GET', '/docs');
    expect(page.text).toContain(`<div id="docs" data-url="/openapi.json" data-prefill="${PREFILL}"></div>`);
    // The page of what the sandbox adds reads its own document, prefilled the same way.
    const added = await call(s.app, 'GET', '/docs/sandbox');
    expect(added.text).toContain(
      `<div id="docs" data-url="/__sandbox/openapi.json" data-prefill="${PREFILL}"></div>`,
    );
    expect(page.text).toContain('Authorized with the seeded sandbox key');
    const res = await call(s.app, 'GET', PREFILL);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const consumers = s.ids.verticalConsumers;
    expect(res.body).toEqual({
      examples: {
        generate_access_token_token_post: expect.any(Object),
        generate_mcp_token_mcp_token_post: expect.any(Object),
      },
      accountId: s.ids.accountId,
      clientId: s.ids.sandbox.clientId,
      clientSecret: s.ids.sandbox.clientSecret,
      consumer_ids: {
        '': consumers.ACCOUNTING,
        accounting: consumers.ACCOUNTING,
        pos: consumers.POS,
        commerce: consumers.ECOMMERCE,
        invoicing: consumers.INVOICING,
        banking: consumers.BANKING,
        payment: consumers.PAYMENT,
        pms: consumers.PMS,
        custom: s.ids.customConsumerId,
        syncs: s.ids.syncConsumerId,
      },
    });
  });

  it('the key it hands out is exchanged for a token that reads the consumer of every consumer_id path', async () => {
    const s = sandbox();
    const { accountId, clientId, clientSecret, consumer_ids } = (await call(s.app, 'GET', PREFILL)).body;
    const exchanged = await call(s.app, 'POST', '/token', { body: { accountId, clientId, clientSecret } });
    expect(exchanged.status).toBe(200);
    const token = exchanged.body.access_token as string;
    const doc = (await call(s.app, 'GET', '/openapi.json')).body as { paths: Record<string, unknown> };
    const used = new Set<string>();
    for (const path of Object.keys(doc.paths)) {
      const at = path.indexOf('{consumer_id}');
      if (at < 0) continue;
      const segment = path.slice(at + '{consumer_id}'.length).split('/')[1] ?? '';
      used.add(consumer_ids[segment] ?? consumer_ids['']);
    }
    expect(used.size).toBe(8);
    for (const consumerid of used) {
      expect((await call(s.app, 'GET', `/consumers/${consumerid}`, { token })).status, consumerid).toBe(200);
    }
  });

  it('follows the world: a deleted showcase consumer gives way to another of its vertical', async () => {
    const s = sandbox();
    const deleted = s.ids.verticalConsumers.POS ?? '';
    const token = await sandboxToken(s);
    expect((await call(s.app, 'DELETE', `/consumers/${deleted}`, { token })).status).toBe(204);
    const { consumer_ids } = (await call(s.app, 'GET', PREFILL)).body;
    // The crowd of the seeded world holds other consumers with an active point of sale connection.
    expect(consumer_ids.pos).toEqual(expect.any(String));
    expect(consumer_ids.pos).not.toBe(deleted);
    const connections = await call(s.app, 'GET', `/consumers/${consumer_ids.pos}/connections`, { token });
    expect(connections.body).toContainEqual(
      expect.objectContaining({ api: 'Point of Sale', status: 'active' }),
    );
  });

  it('with an admin token: nothing is exposed, and the page says why', async () => {
    const s = sandbox({ adminToken: 'admin-secret' });
    expectError(await call(s.app, 'GET', PREFILL), errors.notFound());
    const page = await call(s.app, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="docs" data-url="/openapi.json"></div>');
    expect(page.text).toContain('This sandbox has an admin token: nothing is prefilled.');
    for (const path of ['/docs', '/docs/init.js', '/openapi.json', '/__sandbox/openapi.json']) {
      const text = (await call(s.app, 'GET', path)).text;
      expect(text, path).not.toContain(s.ids.sandbox.clientSecret);
      expect(text, path).not.toContain(s.ids.sandbox.clientId);
    }
  });

  it('the script is the same for every sandbox; the documents hold no key, their examples ids of their own world', async () => {
    const a = sandbox();
    const b = sandbox({ seed: 11 });
    const first = await call(a.app, 'GET', '/docs/init.js');
    expect((await call(b.app, 'GET', '/docs/init.js')).text).toBe(first.text);
    for (const path of ['/openapi.json', '/__sandbox/openapi.json']) {
      const served = await call(a.app, 'GET', path);
      await call(a.app, 'GET', PREFILL);
      // The same for an app whatever it was asked meanwhile, and for another app of the same seed.
      expect((await call(a.app, 'GET', path)).text, path).toBe(served.text);
      expect((await call(sandbox().app, 'GET', path)).text, path).toBe(served.text);
      expect(served.text, path).not.toContain(a.ids.sandbox.clientSecret);
      expect(served.text, path).not.toContain(a.ids.sandbox.clientId);
      // The examples name records of the app's own world: another seed, other ids.
      const other = (await call(b.app, 'GET', path)).text;
      expect(other, path).not.toContain(a.ids.verticalConsumers.ACCOUNTING);
      expect(other, path).not.toContain(b.ids.sandbox.clientSecret);
    }
    // The examples of the token exchanges, which hold the key, come with the prefill.
    const prefill = (await call(a.app, 'GET', PREFILL)).body;
    expect(prefill.examples.generate_access_token_token_post).toEqual({
      accountId: a.ids.accountId,
      clientId: a.ids.sandbox.clientId,
      clientSecret: a.ids.sandbox.clientSecret,
    });
    const script = await call(a.app, 'GET', '/docs/init.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.text).toContain("getAttribute('data-prefill')");
    expect(script.text).toContain("preauthorizeApiKey('bearerAuth', token)");
  });
});
