import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import {
  assertUniqueWebhook,
  assertWebhookIntegration,
  assertWebhookUrl,
  reachesWebhook,
  receivesEventsOf,
  requireWebhookType,
  subscribersOf,
  webhookTypes,
} from '../../../src/modules/webhooks/webhooks.domain.js';
import {
  WebhookInstanceGetItem,
  WebhookItem,
  WebhookLogItem,
} from '../../../src/modules/webhooks/webhooks.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { OwnEndpoints } from '../../../src/platform/self.js';
import type { WebhookLogRecord, WebhookRecord, World } from '../../../src/store/world.js';
import {
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/webhook-types.json', import.meta.url), 'utf8'),
) as {
  types: { event: string; api: string | null }[];
};

// Picked from the fixture and the catalogue rather than written out, so the tests follow the data.
const platformEvent = fixture.types.find((t) => t.api === null)?.event as string;
const otherPlatformEvent = fixture.types.filter((t) => t.api === null)[1]?.event as string;
const catalogue = loadCatalogue();
// A One API event whose One API has both an active and an inactive integration in the catalogue.
const apiType = fixture.types.find(
  (t) =>
    t.api !== null &&
    catalogue.integrations.some((i) => i.api === t.api && i.status === 'inactive') &&
    catalogue.integrations.some((i) => i.api === t.api && i.status === 'active'),
) as { event: string; api: string };
const activeOfApi = catalogue.integrations.find((i) => i.api === apiType.api && i.status === 'active');
const inactiveOfApi = catalogue.integrations.find((i) => i.api === apiType.api && i.status === 'inactive');
const activeOfOtherApi = catalogue.integrations.find((i) => i.api !== apiType.api && i.status === 'active');
const unknownIntegrationId = Math.max(...catalogue.integrations.map((i) => i.integrationid)) + 1000;

const Instance = WebhookInstanceGetItem.strict();
const Log = WebhookLogItem.strict();

const HOOK_URL = 'https://hooks.vendor.example/unified';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('webhooks', () => {
  let s: TestSandbox;
  let token: string;

  beforeEach(async () => {
    s = sandbox();
    token = await sandboxToken(s);
  });

  const create = (body: unknown, as = token) => call(s.app, 'POST', '/webhooks', { token: as, body });
  const world = (): World => s.app.services.store.world;

  async function created(body: Record<string, unknown> = {}, as = token) {
    const res = await create({ event: platformEvent, url: HOOK_URL, ...body }, as);
    expect(res.status, res.text).toBe(200);
    return Instance.parse(res.body);
  }

  it('the fixture offers a platform event and a One API event with an active and an inactive integration', () => {
    expect(platformEvent).toBeTypeOf('string');
    expect(otherPlatformEvent).toBeTypeOf('string');
    expect(activeOfApi).toBeDefined();
    expect(inactiveOfApi).toBeDefined();
    expect(activeOfOtherApi).toBeDefined();
  });

  describe('GET /webhooks/list', () => {
    it('lists the webhook types of the fixture', async () => {
      const res = await call(s.app, 'GET', '/webhooks/list', { token });
      expect(res.status).toBe(200);
      expect(z.array(WebhookItem.strict()).parse(res.body)).toEqual(fixture.types);
    });
  });

  describe('authentication', () => {
    it.each([
      ['GET', '/webhooks/list'],
      ['POST', '/webhooks'],
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${MISSING_ID}`],
      ['PATCH', `/webhooks/${MISSING_ID}`],
      ['DELETE', `/webhooks/${MISSING_ID}`],
      ['GET', `/webhooks/${MISSING_ID}/logs`],
    ])('%s %s without a token is 401', async (method, path) => {
      const body = method === 'GET' ? undefined : { event: platformEvent, url: HOOK_URL };
      const res = await call(s.app, method, path, { body });
      expectError(res, errors.missingToken());
    });

    it('refuses MCP tokens (the operations declare no MCP scope)', async () => {
      const mcp = await call(s.app, 'POST', '/mcp-token', {
        token,
        body: {
          accountId: s.ids.accountId,
          ...s.ids.sandbox,
          consumerId: s.ids.verticalConsumers.ACCOUNTING,
        },
      });
      expect(mcp.status, mcp.text).toBe(200);
      const res = await call(s.app, 'GET', '/webhooks', { token: mcp.body.access_token });
      expectError(res, errors.scopeDenied([]));
      expect(res.body.detail).toBe(errors.scopeDenied([]).detail);
    });
  });

  describe('POST /webhooks', () => {
    it('creates an active instance of the caller, dated by the sandbox clock, without its secret', async () => {
      const res = await create({ event: platformEvent, url: HOOK_URL, signingsecret: 's3cret' });
      expect(res.status).toBe(200);
      const instance = Instance.parse(res.body);
      expect(instance).toEqual({
        webhookid: instance.webhookid,
        accountid: s.ids.accountId,
        createdby: null,
        createdon: s.app.services.clock.now().toISOString(),
        event: platformEvent,
        url: HOOK_URL,
        status: 'active',
        integrationid: null,
      });
      expect(res.text).not.toContain('s3cret');
      const stored = world().webhooks[instance.webhookid];
      expect(stored?.signingsecret).toBe('s3cret');
      expect(stored?.envid).toBe(s.ids.sandboxEnvId);

      const read = await call(s.app, 'GET', `/webhooks/${instance.webhookid}`, { token });
      expect(read.body).toEqual(instance);
    });

    it('keeps the integrationid of a One API event', async () => {
      const instance = await created({ event: apiType.event, integrationid: activeOfApi?.integrationid });
      expect(instance.integrationid).toBe(activeOfApi?.integrationid);
      expect(instance.event).toBe(apiType.event);
    });

    it('accepts an integrationid on a platform event as a restriction', async () => {
      const instance = await created({ integrationid: activeOfOtherApi?.integrationid });
      expect(instance.integrationid).toBe(activeOfOtherApi?.integrationid);
    });

    it('accepts the same url for another event, and the same pair in another environment or account', async () => {
      await created();
      await created({ event: otherPlatformEvent });
      const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
      await created({}, production);
      const other = await tokenFor(s.app, s.ids.otherAccount);
      await created({}, other);
    });

    it('ids and dates follow the seed and the clock: two sandboxes answer the same', async () => {
      const first = await created();
      const twin = sandbox();
      const twinToken = await sandboxToken(twin);
      const again = await call(twin.app, 'POST', '/webhooks', {
        token: twinToken,
        body: { event: platformEvent, url: HOOK_URL },
      });
      expect(again.body).toEqual(first);
    });

    it.each([
      [
        'an unknown event',
        { event: 'no.such.event', url: HOOK_URL },
        errors.webhookEventInvalid('no.such.event'),
      ],
      [
        'a url without a scheme',
        { event: platformEvent, url: 'hooks.vendor.example' },
        errors.webhookUrlInvalid(),
      ],
      ['a relative url', { event: platformEvent, url: '/hooks' }, errors.webhookUrlInvalid()],
      [
        'an ftp url',
        { event: platformEvent, url: 'ftp://hooks.vendor.example/x' },
        errors.webhookUrlInvalid(),
      ],
      ['an empty url', { event: platformEvent, url: '' }, errors.webhookUrlInvalid()],
      [
        'a url with blanks',
        { event: platformEvent, url: 'https://hooks .example/x' },
        errors.webhookUrlInvalid(),
      ],
      [
        'a One API event without integrationid',
        { event: apiType.event, url: HOOK_URL },
        errors.webhookIntegrationRequired(apiType.api),
      ],
      [
        'a One API event with a null integrationid',
        { event: apiType.event, url: HOOK_URL, integrationid: null },
        errors.webhookIntegrationRequired(apiType.api),
      ],
      [
        'a One API event with an integration of another One API',
        { event: apiType.event, url: HOOK_URL, integrationid: activeOfOtherApi?.integrationid },
        errors.webhookIntegrationRequired(apiType.api),
      ],
      [
        'a One API event with an inactive integration',
        { event: apiType.event, url: HOOK_URL, integrationid: inactiveOfApi?.integrationid },
        errors.webhookIntegrationRequired(apiType.api),
      ],
      [
        'a One API event with an unknown integration',
        { event: apiType.event, url: HOOK_URL, integrationid: unknownIntegrationId },
        errors.webhookIntegrationRequired(apiType.api),
      ],
      [
        'a platform event with an unknown integration',
        { event: platformEvent, url: HOOK_URL, integrationid: unknownIntegrationId },
        errors.integrationInvalid(),
      ],
    ])('refuses %s with 400 and writes nothing', async (_case, body, expected) => {
      const before = JSON.stringify(world().webhooks);
      const res = await create(body);
      expectError(res, expected);
      expect(res.body.detail).toBe(expected.detail);
      expect(JSON.stringify(world().webhooks)).toBe(before);
    });

    it('refuses a second instance with the same url and event', async () => {
      await created();
      const before = JSON.stringify(world().webhooks);
      const res = await create({ event: platformEvent, url: HOOK_URL });
      expectError(res, errors.webhookDuplicate());
      expect(JSON.stringify(world().webhooks)).toBe(before);
    });

    it('checks uniqueness against inactive instances too', async () => {
      const instance = await created();
      await call(s.app, 'PATCH', `/webhooks/${instance.webhookid}`, { token, body: { status: 'inactive' } });
      expectError(await create({ event: platformEvent, url: HOOK_URL }), errors.webhookDuplicate());
    });

    it.each([
      ['event too long', { event: 'e'.repeat(81), url: HOOK_URL }, ['body', 'event'], 'string_too_long'],
      [
        'url too long',
        { event: platformEvent, url: `https://a.example/${'x'.repeat(483)}` },
        ['body', 'url'],
        'string_too_long',
      ],
      [
        'signingsecret too long',
        { event: platformEvent, url: HOOK_URL, signingsecret: 's'.repeat(101) },
        ['body', 'signingsecret'],
        'string_too_long',
      ],
      ['event missing', { url: HOOK_URL }, ['body', 'event'], 'missing'],
      ['url missing', { event: platformEvent }, ['body', 'url'], 'missing'],
      ['url not a string', { event: platformEvent, url: 42 }, ['body', 'url'], 'string_type'],
      [
        'integrationid not an integer',
        { event: platformEvent, url: HOOK_URL, integrationid: 1.5 },
        ['body', 'integrationid'],
        undefined,
      ],
    ])('answers 422 for %s', async (_case, body, loc, type) => {
      const res = await create(body);
      expectValidation(res, loc as (string | number)[], type);
      expect(Object.keys(world().webhooks)).toHaveLength(0);
    });

    it('takes the longest values the schema allows', async () => {
      const url = `https://a.example/${'x'.repeat(482)}`;
      expect(url).toHaveLength(500);
      const instance = await created({ url, signingsecret: 's'.repeat(100) });
      expect(instance.url).toBe(url);
    });

    it('answers 422 for a body that is not JSON', async () => {
      const res = await call(s.app, 'POST', '/webhooks', {
        token,
        rawBody: '{"event":',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Validation error');
    });
  });

  describe('GET /webhooks', () => {
    it('lists the instances of the caller, in creation order, filtered by status', async () => {
      const a = await created();
      const b = await created({ event: otherPlatformEvent });
      await call(s.app, 'PATCH', `/webhooks/${b.webhookid}`, { token, body: { status: 'inactive' } });
      const other = await tokenFor(s.app, s.ids.otherAccount);
      await created({}, other);
      const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
      await created({}, production);

      const all = await call(s.app, 'GET', '/webhooks', { token });
      expect(all.status).toBe(200);
      expect(
        z
          .array(Instance)
          .parse(all.body)
          .map((w) => [w.webhookid, w.status]),
      ).toEqual([
        [a.webhookid, 'active'],
        [b.webhookid, 'inactive'],
      ]);
      const active = await call(s.app, 'GET', '/webhooks?status=active', { token });
      expect(active.body.map((w: { webhookid: string }) => w.webhookid)).toEqual([a.webhookid]);
      const inactive = await call(s.app, 'GET', '/webhooks?status=inactive', { token });
      expect(inactive.body.map((w: { webhookid: string }) => w.webhookid)).toEqual([b.webhookid]);
    });

    it('is empty for an environment without instances', async () => {
      const res = await call(s.app, 'GET', '/webhooks', { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it.each(['paused', 'ACTIVE', ''])('answers 422 for status=%j', async (status) => {
      const res = await call(s.app, 'GET', `/webhooks?status=${status}`, { token });
      expectValidation(res, ['query', 'status'], 'enum');
    });
  });

  describe('GET, PATCH, DELETE /webhooks/{webhookid} and GET .../logs: who can reach an instance', () => {
    const reads = [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['GET', '/logs'],
    ] as const;
    const bodyFor = (method: string) => (method === 'PATCH' ? { status: 'inactive' } : undefined);

    it.each(reads)('%s%s answers 422 for an id that is not a uuid', async (method, suffix) => {
      const res = await call(s.app, method, `/webhooks/not-a-uuid${suffix}`, {
        token,
        body: bodyFor(method),
      });
      expectValidation(res, ['path', 'webhookid'], 'uuid_parsing');
    });

    it.each(reads)('%s%s answers 404 for an unknown id', async (method, suffix) => {
      const res = await call(s.app, method, `/webhooks/${MISSING_ID}${suffix}`, {
        token,
        body: bodyFor(method),
      });
      expectError(res, errors.webhookNotFound());
    });

    it.each(reads)(
      "%s%s answers 404 for another account's instance and leaves it alone",
      async (method, suffix) => {
        const theirs = await created({}, await tokenFor(s.app, s.ids.otherAccount));
        const before = JSON.stringify(world().webhooks);
        const res = await call(s.app, method, `/webhooks/${theirs.webhookid}${suffix}`, {
          token,
          body: bodyFor(method),
        });
        expectError(res, errors.webhookNotFound());
        expect(JSON.stringify(world().webhooks)).toBe(before);
      },
    );

    it.each(reads)("%s%s answers 404 for the other environment's instance", async (method, suffix) => {
      const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
      const theirs = await created({}, production);
      const res = await call(s.app, method, `/webhooks/${theirs.webhookid}${suffix}`, {
        token,
        body: bodyFor(method),
      });
      expectError(res, errors.webhookNotFound());
      expect(world().webhooks[theirs.webhookid]?.status).toBe('active');
    });

    it('reads an instance whatever the case of its id', async () => {
      const instance = await created();
      const res = await call(s.app, 'GET', `/webhooks/${instance.webhookid.toUpperCase()}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(instance);
    });
  });

  describe('PATCH /webhooks/{webhookid}', () => {
    const patch = (id: string, body: unknown) => call(s.app, 'PATCH', `/webhooks/${id}`, { token, body });

    it('changes status and url, and never returns the secret', async () => {
      const instance = await created();
      const res = await patch(instance.webhookid, {
        status: 'inactive',
        url: 'http://hooks.vendor.example/v2',
        signingsecret: 'n3w-secret',
      });
      expect(res.status).toBe(200);
      expect(Instance.parse(res.body)).toEqual({
        ...instance,
        status: 'inactive',
        url: 'http://hooks.vendor.example/v2',
      });
      expect(res.text).not.toContain('n3w-secret');
      expect(world().webhooks[instance.webhookid]?.signingsecret).toBe('n3w-secret');
      const read = await call(s.app, 'GET', `/webhooks/${instance.webhookid}`, { token });
      expect(read.body).toEqual(res.body);
    });

    it('leaves the fields that are null or absent as they are', async () => {
      const instance = await created({ signingsecret: 'keep-me' });
      for (const body of [{}, { status: null, url: null, signingsecret: null }]) {
        const res = await patch(instance.webhookid, body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(instance);
        expect(world().webhooks[instance.webhookid]?.signingsecret).toBe('keep-me');
      }
    });

    it('removes the signing secret when given an empty string', async () => {
      const instance = await created({ signingsecret: 'drop-me' });
      const res = await patch(instance.webhookid, { signingsecret: '' });
      expect(res.status).toBe(200);
      expect(world().webhooks[instance.webhookid]?.signingsecret).toBeNull();
    });

    it('can set an instance active again', async () => {
      const instance = await created();
      await patch(instance.webhookid, { status: 'inactive' });
      const res = await patch(instance.webhookid, { status: 'active' });
      expect(res.body.status).toBe('active');
    });

    it('accepts the url the instance already has', async () => {
      const instance = await created();
      const res = await patch(instance.webhookid, { url: HOOK_URL });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(instance);
    });

    it.each(['not a url', 'ftp://hooks.vendor.example', '', 'mailto:ops@vendor.example'])(
      'refuses the url %j with 400 and changes nothing',
      async (url) => {
        const instance = await created();
        const res = await patch(instance.webhookid, { url, status: 'inactive' });
        expectError(res, errors.webhookUrlInvalid());
        expect(world().webhooks[instance.webhookid]).toMatchObject({ url: HOOK_URL, status: 'active' });
      },
    );

    it('refuses a url that another instance of the same event already has', async () => {
      await created();
      const second = await created({ url: 'https://hooks.vendor.example/second' });
      const res = await patch(second.webhookid, { url: HOOK_URL, status: 'inactive' });
      expectError(res, errors.webhookDuplicate());
      expect(world().webhooks[second.webhookid]).toMatchObject({
        url: 'https://hooks.vendor.example/second',
        status: 'active',
      });
    });

    it('accepts a url that only an instance of another event, environment or account has', async () => {
      await created({ event: otherPlatformEvent, url: 'https://hooks.vendor.example/taken' });
      await created(
        { url: 'https://hooks.vendor.example/taken' },
        await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production }),
      );
      await created({ url: 'https://hooks.vendor.example/taken' }, await tokenFor(s.app, s.ids.otherAccount));
      const mine = await created();
      const res = await patch(mine.webhookid, { url: 'https://hooks.vendor.example/taken' });
      expect(res.status, res.text).toBe(200);
      expect(res.body.url).toBe('https://hooks.vendor.example/taken');
    });

    it.each([
      ['an unknown status', { status: 'paused' }, ['body', 'status'], 'enum'],
      ['a url too long', { url: `https://a.example/${'x'.repeat(483)}` }, ['body', 'url'], 'string_too_long'],
      [
        'a signingsecret too long',
        { signingsecret: 's'.repeat(101) },
        ['body', 'signingsecret'],
        'string_too_long',
      ],
      ['a url that is not a string', { url: 7 }, ['body', 'url'], 'string_type'],
    ])('answers 422 for %s', async (_case, body, loc, type) => {
      const instance = await created();
      const res = await patch(instance.webhookid, body);
      expectValidation(res, loc as (string | number)[], type);
      expect(world().webhooks[instance.webhookid]?.status).toBe('active');
    });
  });

  describe('DELETE /webhooks/{webhookid}', () => {
    it('removes the instance and its logs, and only them', async () => {
      const gone = await created();
      const kept = await created({ event: otherPlatformEvent });
      insertLog(world(), gone, 'log-gone', '2026-01-15T08:00:00.000Z');
      insertLog(world(), kept, 'log-kept', '2026-01-15T08:00:00.000Z');

      const res = await call(s.app, 'DELETE', `/webhooks/${gone.webhookid}`, { token });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectError(
        await call(s.app, 'GET', `/webhooks/${gone.webhookid}`, { token }),
        errors.webhookNotFound(),
      );
      expectError(
        await call(s.app, 'DELETE', `/webhooks/${gone.webhookid}`, { token }),
        errors.webhookNotFound(),
      );
      expect(Object.values(world().webhook_logs).map((l) => l.webhookid)).toEqual([kept.webhookid]);
      const list = await call(s.app, 'GET', '/webhooks', { token });
      expect(list.body.map((w: { webhookid: string }) => w.webhookid)).toEqual([kept.webhookid]);
    });

    it('frees the (url, event) pair', async () => {
      const instance = await created();
      await call(s.app, 'DELETE', `/webhooks/${instance.webhookid}`, { token });
      await created();
    });
  });

  describe('GET /webhooks/{webhookid}/logs', () => {
    it('is empty until deliveries exist', async () => {
      const instance = await created();
      const res = await call(s.app, 'GET', `/webhooks/${instance.webhookid}/logs`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it("lists the instance's deliveries newest first, in the WebhookLogItem shape", async () => {
      const instance = await created({ event: apiType.event, integrationid: activeOfApi?.integrationid });
      const other = await created();
      const older = insertLog(world(), instance, 'a', '2026-01-14T10:00:00.000Z');
      const newest = insertLog(world(), instance, 'b', '2026-01-15T08:30:00.000Z');
      const middle = insertLog(world(), instance, 'c', '2026-01-14T23:59:59.000Z');
      insertLog(world(), other, 'd', '2026-01-15T08:45:00.000Z');

      const res = await call(s.app, 'GET', `/webhooks/${instance.webhookid}/logs`, { token });
      expect(res.status).toBe(200);
      const logs = z.array(Log).parse(res.body);
      expect(logs.map((l) => l.webhooklogid)).toEqual([newest, middle, older].map((l) => l.webhooklogid));
      expect(logs[0]).toEqual({
        webhooklogid: newest.webhooklogid,
        webhookid: instance.webhookid,
        event: apiType.event,
        url: HOOK_URL,
        accountid: s.ids.accountId,
        createdon: '2026-01-15T08:30:00.000Z',
        httpstatus: 200,
        integrationid: activeOfApi?.integrationid,
      });
    });

    it('puts the later recorded first among deliveries of the same instant', async () => {
      const instance = await created();
      const first = insertLog(world(), instance, 'first', '2026-01-15T08:00:00.000Z');
      const second = insertLog(world(), instance, 'second', '2026-01-15T08:00:00.000Z');
      const res = await call(s.app, 'GET', `/webhooks/${instance.webhookid}/logs`, { token });
      expect(res.body.map((l: { webhooklogid: string }) => l.webhooklogid)).toEqual([
        second.webhooklogid,
        first.webhooklogid,
      ]);
    });
  });
});

/** A delivery log as a delivery engine would record it. */
function insertLog(
  world: World,
  instance: {
    webhookid: string;
    event: string;
    url: string;
    accountid: string;
    integrationid?: number | null;
  },
  tag: string,
  createdon: string,
): WebhookLogRecord {
  const hex = Buffer.from(tag).toString('hex').padStart(12, '0').slice(-12);
  const log: WebhookLogRecord = {
    webhooklogid: `10000000-0000-4000-8000-${hex}`,
    webhookid: instance.webhookid,
    event: instance.event,
    url: instance.url,
    accountid: instance.accountid,
    createdon,
    httpstatus: 200,
    integrationid: instance.integrationid ?? null,
  };
  world.webhook_logs[log.webhooklogid] = log;
  return log;
}

describe('subscribersOf', () => {
  const ACCOUNT = '20000000-0000-4000-8000-000000000001';
  const ENV = '20000000-0000-4000-8000-000000000002';
  let n = 0;
  beforeEach(() => {
    n = 0;
  });
  const record = (extra: Partial<WebhookRecord>): WebhookRecord => {
    n += 1;
    return {
      webhookid: `30000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      accountid: ACCOUNT,
      envid: ENV,
      createdby: null,
      createdon: '2026-01-01T00:00:00.000Z',
      event: 'account.connection.created',
      url: `https://hooks.example/${n}`,
      status: 'active',
      integrationid: null,
      signingsecret: null,
      ...extra,
    };
  };
  const worldOf = (...records: WebhookRecord[]) =>
    ({ webhooks: Object.fromEntries(records.map((r) => [r.webhookid, r])) }) as unknown as World;

  it('returns the active instances of the account, environment and event, in creation order', () => {
    const match1 = record({});
    const inactive = record({ status: 'inactive' });
    const otherEvent = record({ event: 'account.flow.enabled' });
    const otherEnv = record({ envid: '20000000-0000-4000-8000-000000000099' });
    const otherAccount = record({ accountid: '20000000-0000-4000-8000-000000000098' });
    const match2 = record({});
    const world = worldOf(match1, inactive, otherEvent, otherEnv, otherAccount, match2);
    expect(subscribersOf(world, ACCOUNT, ENV, 'account.connection.created')).toEqual([match1, match2]);
    expect(subscribersOf(world, ACCOUNT, ENV, 'no.such.event')).toEqual([]);
  });

  it('sends an event of an integration to the instances of that integration and to the unrestricted ones', () => {
    const all = record({});
    const mine = record({ integrationid: 9012 });
    const theirs = record({ integrationid: 9000 });
    const world = worldOf(all, mine, theirs);
    expect(subscribersOf(world, ACCOUNT, ENV, 'account.connection.created', 9012)).toEqual([all, mine]);
    expect(subscribersOf(world, ACCOUNT, ENV, 'account.connection.created', 9000)).toEqual([all, theirs]);
    expect(subscribersOf(world, ACCOUNT, ENV, 'account.connection.created')).toEqual([all]);
    expect(subscribersOf(world, ACCOUNT, ENV, 'account.connection.created', null)).toEqual([all]);
  });

  it("sends to an instance of a restricted key only the events about that key's consumers", () => {
    const all = record({});
    const restricted = record({ restricted_to: { clientid: 'k', consumers: ['c1', 'c2'] } });
    const world = worldOf(all, restricted);
    const event = 'account.connection.created';
    expect(subscribersOf(world, ACCOUNT, ENV, event, null, 'c2')).toEqual([all, restricted]);
    expect(subscribersOf(world, ACCOUNT, ENV, event, null, 'c3')).toEqual([all]);
    expect(subscribersOf(world, ACCOUNT, ENV, event, null, null)).toEqual([all]);
    expect(subscribersOf(world, ACCOUNT, ENV, event)).toEqual([all]);
    expect(receivesEventsOf(restricted, 'c1')).toBe(true);
    expect(receivesEventsOf(restricted, null)).toBe(false);
    expect(receivesEventsOf(all, null)).toBe(true);
  });

  it('a restricted key reaches only the instances it created; an unrestricted key reaches them all', () => {
    const mine = record({ restricted_to: { clientid: 'k', consumers: ['c1'] } });
    const sibling = record({ restricted_to: { clientid: 'other-key', consumers: ['c1'] } });
    const open = record({});
    const key = { accountid: ACCOUNT, envid: ENV, clientid: 'k', consumers: new Set(['c1']) };
    const full = { accountid: ACCOUNT, envid: ENV, clientid: 'full', consumers: null };
    expect([mine, sibling, open].map((r) => reachesWebhook(key, r))).toEqual([true, false, false]);
    expect([mine, sibling, open].map((r) => reachesWebhook(full, r))).toEqual([true, true, true]);
    expect(reachesWebhook({ ...full, envid: 'another' }, mine)).toBe(false);
  });
});

describe('the sandbox itself as a webhook url', () => {
  it('assertWebhookUrl refuses an own endpoint as an invalid url', () => {
    const invalid = errors.webhookUrlInvalid().message;
    const own = new OwnEndpoints(['http://127.0.0.1:4010']);
    expect(() => assertWebhookUrl('http://localhost:4010/hook', own)).toThrow(invalid);
    expect(() => assertWebhookUrl('http://localhost:4011/hook', own)).not.toThrow();
    expect(() => assertWebhookUrl('http://localhost:4010/hook')).not.toThrow();
  });

  it('POST and PATCH /webhooks refuse the origin the request came through', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    // app.request() serves http://localhost.
    const refused = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: platformEvent, url: 'http://localhost/hooks' },
    });
    expectError(refused, errors.webhookUrlInvalid());
    const made = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: platformEvent, url: HOOK_URL },
    });
    expect(made.status).toBe(200);
    const patched = await call(s.app, 'PATCH', `/webhooks/${made.body.webhookid}`, {
      token,
      body: { url: 'http://127.0.0.1:80/consumers' },
    });
    expectError(patched, errors.webhookUrlInvalid());
    expect(s.app.services.store.world.webhooks[made.body.webhookid]?.url).toBe(HOOK_URL);
  });
});

describe('webhook rules', () => {
  const environment = {
    accountid: '40000000-0000-4000-8000-000000000001',
    envid: '40000000-0000-4000-8000-000000000002',
  };
  const owner = { ...environment, clientid: 'unrestricted-key', consumers: null };
  const existing: WebhookRecord = {
    webhookid: '40000000-0000-4000-8000-000000000003',
    ...environment,
    createdby: null,
    createdon: '2026-01-01T00:00:00.000Z',
    event: 'account.flow.enabled',
    url: 'https://hooks.example/a',
    status: 'inactive',
    integrationid: null,
    signingsecret: null,
  };
  const world = { webhooks: { [existing.webhookid]: existing } } as unknown as World;

  it('requireWebhookType finds a type of the fixture or refuses the event', () => {
    expect(webhookTypes()).toEqual(fixture.types);
    expect(requireWebhookType(webhookTypes(), apiType.event)).toEqual(apiType);
    expect(() => requireWebhookType(webhookTypes(), 'nope')).toThrow(
      errors.webhookEventInvalid('nope').message,
    );
  });

  it.each([
    ['https://hooks.example/a', true],
    ['http://localhost:8080/hook?x=1', true],
    ['hooks.example', false],
    ['file:///etc/passwd', false],
    ['https://', false],
  ])('assertWebhookUrl(%j) accepts: %s', (url, ok) => {
    if (ok) expect(() => assertWebhookUrl(url)).not.toThrow();
    else expect(() => assertWebhookUrl(url)).toThrow(errors.webhookUrlInvalid().message);
  });

  it('assertUniqueWebhook refuses the same (url, event) of the same owner only', () => {
    const duplicate = errors.webhookDuplicate().message;
    expect(() => assertUniqueWebhook(world, owner, existing.url, existing.event)).toThrow(duplicate);
    expect(() =>
      assertUniqueWebhook(world, owner, existing.url, existing.event, existing.webhookid),
    ).not.toThrow();
    expect(() => assertUniqueWebhook(world, owner, existing.url, 'account.flow.disabled')).not.toThrow();
    expect(() => assertUniqueWebhook(world, owner, 'https://hooks.example/b', existing.event)).not.toThrow();
    expect(() =>
      assertUniqueWebhook(world, { ...owner, envid: 'another' }, existing.url, existing.event),
    ).not.toThrow();
    expect(() =>
      assertUniqueWebhook(world, { ...owner, accountid: 'another' }, existing.url, existing.event),
    ).not.toThrow();
  });

  it('assertWebhookIntegration needs an active integration of the One API of the event', () => {
    const required = errors.webhookIntegrationRequired(apiType.api).message;
    expect(assertWebhookIntegration(catalogue, apiType, activeOfApi?.integrationid)).toBe(
      activeOfApi?.integrationid,
    );
    for (const id of [
      undefined,
      null,
      inactiveOfApi?.integrationid,
      activeOfOtherApi?.integrationid,
      unknownIntegrationId,
    ]) {
      expect(() => assertWebhookIntegration(catalogue, apiType, id)).toThrow(required);
    }
    const platform = { event: platformEvent, api: null };
    expect(assertWebhookIntegration(catalogue, platform, undefined)).toBeNull();
    expect(assertWebhookIntegration(catalogue, platform, null)).toBeNull();
    expect(assertWebhookIntegration(catalogue, platform, activeOfApi?.integrationid)).toBe(
      activeOfApi?.integrationid,
    );
    expect(() => assertWebhookIntegration(catalogue, platform, unknownIntegrationId)).toThrow(
      errors.integrationInvalid().message,
    );
  });
});
