import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { jwtSecret } from '../../../src/platform/credentials.js';
import { TOKEN_LIFETIME_SECONDS } from '../../../src/platform/tokens.js';
import { call, expectError, expectValidation, SEED, sandbox, sandboxToken, tokenFor } from '../../helpers.js';

describe('POST /token', () => {
  const s = sandbox();
  const good = {
    accountId: s.ids.accountId,
    clientId: s.ids.sandbox.clientId,
    clientSecret: s.ids.sandbox.clientSecret,
  };

  it('answers a signed JWT valid 30 minutes on the sandbox clock', async () => {
    const res = await call(s.app, 'POST', '/token', { body: good });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'expires_on', 'token_type']);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(TOKEN_LIFETIME_SECONDS);
    const now = Math.floor(s.app.services.clock.now().getTime() / 1000);
    expect(res.body.expires_on).toBe(now + 1800);
    const [header] = (res.body.access_token as string).split('.');
    expect(JSON.parse(Buffer.from(header ?? '', 'base64url').toString())).toMatchObject({
      alg: 'HS256',
      typ: 'JWT',
    });
  });

  it('is deterministic: the same seed and request give the same token', async () => {
    const other = sandbox();
    const a = await call(s.app, 'POST', '/token', { body: good });
    const b = await call(other.app, 'POST', '/token', { body: good });
    expect(a.text).toBe(b.text);
  });

  it.each([
    ['missing accountId', { clientId: 'x', clientSecret: 'y' }, ['body', 'accountId'], 'missing'],
    ['missing clientId', { accountId: good.accountId, clientSecret: 'y' }, ['body', 'clientId'], 'missing'],
    [
      'missing clientSecret',
      { accountId: good.accountId, clientId: 'x' },
      ['body', 'clientSecret'],
      'missing',
    ],
    ['accountId not a uuid', { ...good, accountId: 'not-a-uuid' }, ['body', 'accountId'], 'uuid_parsing'],
    ['clientId not a string', { ...good, clientId: 12 }, ['body', 'clientId'], 'string_type'],
    ['body not an object', [1, 2], ['body'], 'model_attributes_type'],
  ])('422 when %s', async (_name, body, loc, type) => {
    expectValidation(await call(s.app, 'POST', '/token', { body }), loc, type);
  });

  it('422 json_invalid on malformed JSON, and 415 on a non-JSON body', async () => {
    const bad = await call(s.app, 'POST', '/token', {
      rawBody: '{"accountId":',
      headers: { 'content-type': 'application/json' },
    });
    // As FastAPI answers it: where Python's reader stopped (in characters), and why.
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      {
        type: 'json_invalid',
        loc: ['body', 13],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
    const form = await call(s.app, 'POST', '/token', {
      rawBody: 'clientId=a&clientSecret=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(form, errors.unsupportedMediaType());
  });

  it.each([
    ['a wrong secret', { ...good, clientSecret: 'wrong' }],
    ['an unknown client id', { ...good, clientId: 'nobody' }],
    ['another account id', { ...good, accountId: s.ids.otherAccount.accountId }],
    ['a deleted key', { accountId: s.ids.accountId, ...s.ids.revoked }],
    ['a prototype key name', { ...good, clientId: '__proto__' }],
    ['another sub-environment', { ...good, envId: s.ids.productionEnvId }],
  ])('401 with the authentication error code for %s', async (_name, body) => {
    expectError(await call(s.app, 'POST', '/token', { body }), errors.invalidCredentials());
  });
});

describe('bearer authentication', () => {
  it.each([
    ['no header', undefined],
    ['a non-bearer scheme', 'Basic abc'],
    ['an empty bearer', 'Bearer '],
  ])('401 with %s', async (_name, authorization) => {
    const s = sandbox();
    const headers: Record<string, string> = authorization ? { authorization } : {};
    expectError(await call(s.app, 'GET', '/consumers', { headers }), errors.missingToken());
  });

  it('401 for a forged, re-signed, unsigned or tampered token', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const [h, p] = token.split('.');
    const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
    const resigned = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('not the sandbox secret'));
    const otherSeed = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(jwtSecret(SEED + 1));
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, env: s.ids.productionEnvId })).toString('base64url')}.${token.split('.')[2]}`;
    for (const bad of [resigned, otherSeed, none, tampered, 'abc.def.ghi', 'garbage']) {
      expectError(await call(s.app, 'GET', '/consumers', { token: bad }), errors.invalidToken());
    }
  });

  it('a token expires after 30 minutes of sandbox time', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    expect((await call(s.app, 'GET', '/consumers', { token })).status).toBe(200);
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 1799 } });
    expect((await call(s.app, 'GET', '/consumers', { token })).status).toBe(200);
    await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 1 } });
    expectError(await call(s.app, 'GET', '/consumers', { token }), errors.invalidToken());
  });

  it('a token of a key deleted since it was issued is refused', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const key = s.app.services.store.world.keys[s.ids.sandbox.clientId];
    if (!key) throw new Error('seeded key missing');
    key.deleted_on = s.app.services.clock.now().toISOString();
    expectError(await call(s.app, 'GET', '/consumers', { token }), errors.invalidToken());
  });

  it('a key of one environment gets 401 on the other environment data, and sees none of it in lists', async () => {
    const s = sandbox();
    const sandboxTok = await sandboxToken(s);
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    expectError(
      await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.ACCOUNTING}`, { token: production }),
      errors.wrongEnvironment(),
    );
    expectError(
      await call(s.app, 'GET', `/consumers/${s.ids.productionConsumerId}`, { token: sandboxTok }),
      errors.wrongEnvironment(),
    );
    const prodList = await call(s.app, 'GET', '/consumers', { token: production });
    const ids = (prodList.body as { consumerid: string }[]).map((c) => c.consumerid);
    expect(ids).toContain(s.ids.productionConsumerId);
    expect(ids).not.toContain(s.ids.verticalConsumers.ACCOUNTING);
  });

  it('another account sees none of this account (404 as for a missing consumer)', async () => {
    const s = sandbox();
    const other = await tokenFor(s.app, s.ids.otherAccount);
    expectError(
      await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.ACCOUNTING}`, { token: other }),
      errors.consumerNotFound(),
    );
    const list = await call(s.app, 'GET', '/consumers', { token: other });
    expect((list.body as { consumerid: string }[]).map((c) => c.consumerid)).toEqual([
      s.ids.otherAccountConsumerId,
      expect.any(String),
    ]);
  });

  it('a key restricted to one consumer reaches that consumer only', async () => {
    const s = sandbox();
    const token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const list = await call(s.app, 'GET', '/consumers', { token });
    expect((list.body as { consumerid: string }[]).map((c) => c.consumerid)).toEqual([
      s.ids.restricted.consumerId,
    ]);
    expect((await call(s.app, 'GET', `/consumers/${s.ids.restricted.consumerId}`, { token })).status).toBe(
      200,
    );
    expectError(
      await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.POS}`, { token }),
      errors.consumerNotFound(),
    );
    expectError(
      await call(s.app, 'POST', '/consumers', { token, body: { name: 'x' } }),
      errors.restrictedKey(),
    );
  });
});

describe('POST /mcp-token', () => {
  const mcpBody = (s: ReturnType<typeof sandbox>, extra: Record<string, unknown> = {}) => ({
    accountId: s.ids.accountId,
    clientId: s.ids.sandbox.clientId,
    clientSecret: s.ids.sandbox.clientSecret,
    consumerId: s.ids.verticalConsumers.ACCOUNTING,
    ...extra,
  });

  it('binds a token to a consumer and scopes, enforced on every operation', async () => {
    const s = sandbox();
    const api = await sandboxToken(s);
    const res = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: mcpBody(s, { scopes: ['consumers.read'] }),
    });
    expect(res.status).toBe(200);
    expect(res.body.expires_in).toBe(1800);
    const mcp = res.body.access_token as string;
    const own = s.ids.verticalConsumers.ACCOUNTING;
    expect((await call(s.app, 'GET', `/consumers/${own}`, { token: mcp })).status).toBe(200);
    const list = await call(s.app, 'GET', '/consumers', { token: mcp });
    expect((list.body as { consumerid: string }[]).map((c) => c.consumerid)).toEqual([own]);
    expectError(
      await call(s.app, 'GET', `/consumers/${s.ids.verticalConsumers.POS}`, { token: mcp }),
      errors.mcpConsumerDenied(),
    );
    // consumers.read does not allow a write, and an operation without MCP scopes refuses MCP tokens.
    expectError(
      await call(s.app, 'PATCH', `/consumers/${own}`, { token: mcp, body: { name: 'x' } }),
      errors.scopeDenied(['consumers']),
    );
    expectError(
      await call(s.app, 'POST', '/mcp-token', { token: mcp, body: mcpBody(s) }),
      errors.scopeDenied([]),
    );
  });

  it('a write scope allows the write on its own consumer', async () => {
    const s = sandbox();
    const api = await sandboxToken(s);
    const res = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: mcpBody(s, { scopes: ['consumers'] }),
    });
    const own = s.ids.verticalConsumers.ACCOUNTING;
    const patched = await call(s.app, 'PATCH', `/consumers/${own}`, {
      token: res.body.access_token,
      body: { name: 'Renamed' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Renamed');
  });

  it('refuses scopes the key was not granted, unknown scopes, and consumers the key does not reach', async () => {
    const s = sandbox();
    const api = await sandboxToken(s);
    const restricted = {
      accountId: s.ids.accountId,
      clientId: s.ids.restricted.clientId,
      clientSecret: s.ids.restricted.clientSecret,
    };
    const notGranted = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: { ...restricted, consumerId: s.ids.restricted.consumerId, scopes: ['consumers'] },
    });
    expectError(notGranted, errors.mcpScopesNotGranted(['consumers']));
    const unknown = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: mcpBody(s, { scopes: ['everything'] }),
    });
    expectError(unknown, errors.mcpScopesUnknown(['everything']));
    const outside = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: { ...restricted, consumerId: s.ids.verticalConsumers.POS },
    });
    expectError(outside, errors.consumerNotFound());
    const granted = await call(s.app, 'POST', '/mcp-token', {
      token: api,
      body: { ...restricted, consumerId: s.ids.restricted.consumerId },
    });
    expect(granted.status).toBe(200);
  });

  it('needs a bearer token, valid credentials of the same account, and a valid body', async () => {
    const s = sandbox();
    const api = await sandboxToken(s);
    expectError(await call(s.app, 'POST', '/mcp-token', { body: mcpBody(s) }), errors.missingToken());
    expectError(
      await call(s.app, 'POST', '/mcp-token', { token: api, body: mcpBody(s, { clientSecret: 'wrong' }) }),
      errors.invalidCredentials(),
    );
    const other = await tokenFor(s.app, s.ids.otherAccount);
    expectError(
      await call(s.app, 'POST', '/mcp-token', { token: other, body: mcpBody(s) }),
      errors.invalidCredentials(),
    );
    expectValidation(
      await call(s.app, 'POST', '/mcp-token', { token: api, body: mcpBody(s, { consumerId: undefined }) }),
      ['body', 'consumerId'],
      'missing',
    );
  });
});
