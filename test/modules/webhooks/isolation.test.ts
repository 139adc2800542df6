import { z } from '@hono/zod-openapi';
import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { GIVE_UP_REASONS } from '../../../src/modules/webhooks/delivery.js';
import { publishEvent } from '../../../src/modules/webhooks/events.js';
import { WebhookInstanceGetItem } from '../../../src/modules/webhooks/webhooks.schemas.js';
import type { World } from '../../../src/store/world.js';
import { call, expectError, sandbox, sandboxToken, type TestSandbox, tokenFor } from '../../helpers.js';

/**
 * Webhook instances and a key restricted to consumers: such a key reaches only the instances it
 * created, and those receive only events about its consumers. Unrestricted keys of the environment
 * reach every instance, as before.
 */

const Instance = WebhookInstanceGetItem.strict();
const EVENT = 'account.connection.created';
// Nothing listens on the discard port: what is checked here is what is queued, not what arrives.
const url = (path: string) => `http://127.0.0.1:9/${path}`;

let s: TestSandbox;
let full: string;
let restricted: string;
const world = (): World => s.app.services.store.world;

beforeEach(async () => {
  s = sandbox();
  full = await sandboxToken(s);
  restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
});

async function created(token: string, path: string, body: Record<string, unknown> = {}) {
  const res = await call(s.app, 'POST', '/webhooks', {
    token,
    body: { event: EVENT, url: url(path), ...body },
  });
  expect(res.status, res.text).toBe(200);
  return Instance.parse(res.body);
}

const listed = async (token: string) => {
  const res = await call(s.app, 'GET', '/webhooks', { token });
  expect(res.status).toBe(200);
  return z
    .array(Instance)
    .parse(res.body)
    .map((i) => i.webhookid);
};

const reads = [
  ['GET', ''],
  ['PATCH', ''],
  ['DELETE', ''],
  ['GET', '/logs'],
] as const;
const bodyFor = (method: string) =>
  method === 'PATCH' ? { status: 'inactive', url: url('moved') } : undefined;

describe('what a restricted key reaches', () => {
  it('lists only the instances it created; an unrestricted key lists them all', async () => {
    const theirs = await created(full, 'full');
    const mine = await created(restricted, 'restricted');
    expect(await listed(restricted)).toEqual([mine.webhookid]);
    expect(await listed(full)).toEqual([theirs.webhookid, mine.webhookid]);
    const inactive = await call(s.app, 'GET', '/webhooks?status=active', { token: restricted });
    expect(inactive.body.map((i: { webhookid: string }) => i.webhookid)).toEqual([mine.webhookid]);
  });

  it.each(reads)(
    '%s%s of an instance of the unrestricted key answers 404 and leaves it alone',
    async (method, suffix) => {
      const theirs = await created(full, 'full');
      const before = JSON.stringify(world().webhooks);
      const res = await call(s.app, method, `/webhooks/${theirs.webhookid}${suffix}`, {
        token: restricted,
        body: bodyFor(method),
      });
      expectError(res, errors.webhookNotFound());
      expect(JSON.stringify(world().webhooks)).toBe(before);
    },
  );

  it.each([
    ['GET', '', 200],
    ['PATCH', '', 200],
    ['GET', '/logs', 200],
    ['DELETE', '', 204],
  ] as const)('%s%s of its own instance answers %d', async (method, suffix, status) => {
    const mine = await created(restricted, 'restricted');
    const res = await call(s.app, method, `/webhooks/${mine.webhookid}${suffix}`, {
      token: restricted,
      body: bodyFor(method),
    });
    expect(res.status, res.text).toBe(status);
  });

  it("the unrestricted key reads, changes and deletes the restricted key's instances", async () => {
    const mine = await created(restricted, 'restricted');
    const path = `/webhooks/${mine.webhookid}`;
    expect((await call(s.app, 'GET', path, { token: full })).body).toEqual(mine);
    const patched = await call(s.app, 'PATCH', path, { token: full, body: { status: 'inactive' } });
    expect(patched.body.status).toBe('inactive');
    expect((await call(s.app, 'DELETE', path, { token: full })).status).toBe(204);
    expect(await listed(restricted)).toEqual([]);
  });

  it('another key restricted to the same consumers does not reach its instances', async () => {
    const mine = await created(restricted, 'restricted');
    const record = world().webhooks[mine.webhookid];
    if (record?.restricted_to) record.restricted_to.clientid = 'another-restricted-key';
    expectError(
      await call(s.app, 'GET', `/webhooks/${mine.webhookid}`, { token: restricted }),
      errors.webhookNotFound(),
    );
  });

  it('(url, event) is unique among the instances the caller reaches', async () => {
    await created(full, 'shared');
    // The restricted key cannot see the unrestricted key's instance, so it may hold the same pair...
    const mine = await created(restricted, 'shared');
    // ...but not twice, and the unrestricted key, which sees both, cannot add a third.
    for (const token of [restricted, full]) {
      const again = await call(s.app, 'POST', '/webhooks', {
        token,
        body: { event: EVENT, url: url('shared') },
      });
      expectError(again, errors.webhookDuplicate());
    }
    const other = await created(restricted, 'other');
    const moved = await call(s.app, 'PATCH', `/webhooks/${other.webhookid}`, {
      token: restricted,
      body: { url: url('shared') },
    });
    expectError(moved, errors.webhookDuplicate());
    expect(mine.url).toBe(url('shared'));
  });

  it('the record names the key and its consumers; the answer does not', async () => {
    const mine = await created(restricted, 'restricted');
    expect(world().webhooks[mine.webhookid]?.restricted_to).toEqual({
      clientid: s.ids.restricted.clientId,
      consumers: [s.ids.restricted.consumerId],
    });
    const theirs = await created(full, 'full');
    expect(world().webhooks[theirs.webhookid]?.restricted_to).toBeUndefined();
  });
});

describe('what an instance of a restricted key receives', () => {
  const publish = (consumerid: string | null) =>
    publishEvent(s.app.services, {
      accountid: s.ids.accountId,
      envid: s.ids.sandboxEnvId,
      event: EVENT,
      consumerid,
    });

  const queuedFor = (webhookid: string) =>
    Object.values(world().webhook_deliveries)
      .filter((d) => d.webhookid === webhookid)
      .map((d) => d.event_consumerid);

  it("only the events about the key's consumers; the unrestricted key's instance gets them all", async () => {
    const mine = await created(restricted, 'restricted');
    const theirs = await created(full, 'full');
    const own = s.ids.restricted.consumerId;
    const another = s.ids.verticalConsumers.ACCOUNTING as string;
    publish(own);
    publish(another);
    publish(null);
    expect(queuedFor(mine.webhookid)).toEqual([own]);
    expect(queuedFor(theirs.webhookid)).toEqual([own, another, null]);
  });

  it('through the API: a connection of another consumer queues nothing for it', async () => {
    const mine = await created(restricted, 'restricted');
    const consumer = await call(s.app, 'POST', '/consumers', { token: full, body: { name: 'Not theirs' } });
    const connected = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
      token: full,
      body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
    });
    expect(connected.status, connected.text).toBe(200);
    await s.app.services.ticker.idle();
    expect(queuedFor(mine.webhookid)).toEqual([]);
  });

  it('a delivery about another consumer already queued for it (an older world) is given up unsent', async () => {
    const mine = await created(restricted, 'restricted');
    const record = world().webhooks[mine.webhookid];
    if (!record) throw new Error('missing instance');
    // Queued as if by a sandbox that did not yet scope instances to the key's consumers.
    const saved = record.restricted_to;
    delete record.restricted_to;
    publish(s.ids.verticalConsumers.ACCOUNTING as string);
    record.restricted_to = saved;
    await s.app.services.ticker.run();
    await s.app.services.ticker.idle();
    expect(Object.values(world().webhook_deliveries)).toEqual([
      expect.objectContaining({
        webhookid: mine.webhookid,
        state: 'failed',
        attempts: 0,
        last_error: GIVE_UP_REASONS.outOfScope,
      }),
    ]);
    expect(Object.values(world().webhook_logs)).toEqual([]);
  });
});
