import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import * as domain from '../../../src/modules/webhooks/webhooks.domain.js';
import type { WebhookPatchInput, WebhookPostInput } from '../../../src/modules/webhooks/webhooks.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { OwnEndpoints } from '../../../src/platform/self.js';
import type { WebhookDeliveryRecord, WebhookRecord, World } from '../../../src/store/world.js';
import { type Refusal, refusal, refusedUnchanged } from '../domain-helpers.js';

/** The webhook rules called directly, each test on its own clone of the seeded world of seed 7. */

const DIR = seedDirectory(7);
const SEEDED = seedWorld(7);
const catalogue = loadCatalogue();
const NOW = '2026-02-03T04:05:06.000Z';
const OWN = new OwnEndpoints(['http://localhost:3000', null]);
const CREATED = 'account.connection.created';
const POS = 'pos.order.completed';

type Caller = domain.WebhookCaller;
const API: Caller = {
  accountid: DIR.accountId,
  envid: DIR.sandboxEnvId,
  clientid: DIR.sandbox.clientId,
  consumers: null,
};
const CALLERS = {
  api: API,
  restricted: { ...API, clientid: DIR.restricted.clientId, consumers: new Set(['c-2', 'c-1']) },
  otherKey: { ...API, clientid: 'another-restricted-key', consumers: new Set(['c-1']) },
  production: { ...API, envid: DIR.productionEnvId, clientid: DIR.production.clientId },
  otherAccount: { ...API, accountid: DIR.otherAccount.accountId, envid: DIR.otherAccount.sandboxEnvId },
} satisfies Record<string, Caller>;
type Who = keyof typeof CALLERS;

function setup() {
  const world: World = structuredClone(SEEDED);
  let n = 0;
  const deps: domain.WebhookDeps = {
    ids: { next: (kind) => uuidFrom('webhooks-test', kind, ++n) },
    ...{ clock: manualClock(new Date(NOW)), catalogue, types: domain.webhookTypes(), own: OWN },
  };
  const create = (over: Partial<WebhookPostInput> = {}, who: Who = 'api') =>
    domain.createWebhook(world, deps, CALLERS[who], {
      event: CREATED,
      url: 'https://hooks.example/a',
      ...over,
    });
  return { world, deps, create };
}
const minted = (kind: string, n: number) => uuidFrom('webhooks-test', kind, n);

const bad = (status: number, message: string, detail = ''): Refusal => ({
  status,
  message,
  detail,
  code: undefined,
});
const EVENT = (event: string) =>
  bad(400, 'The specified event is not a webhook type of this account', `Unknown event '${event}'`);
const URL_INVALID = bad(400, 'The specified url is not valid');
const NEEDS = (api: string) =>
  bad(
    400,
    'An integrationid of the One API of this event is mandatory for this webhook type',
    `Give the integrationid of an active ${api} integration`,
  );
const INTEGRATION = bad(400, 'The specified integrationid is not valid, is not active or does not exist');
const DUPLICATE = bad(400, 'There is already an existing webhook with the same url and type');
const NOT_FOUND = bad(404, 'The specified webhook could not be found for this account');

describe('webhook types', () => {
  it('lists the platform events and those of two One APIs, read once', () => {
    const types = domain.webhookTypes();
    expect(domain.webhookTypes()).toBe(types);
    expect([types.length, types.filter((t) => t.api === null).length]).toEqual([11, 9]);
    expect(types.filter((t) => t.api !== null).map(domain.toWebhookItem)).toEqual([
      { event: POS, api: 'Point of Sale' },
      { event: 'commerce.order.created', api: 'eCommerce' },
    ]);
  });

  it.each([
    [CREATED, null],
    ['account.datalayer.sync.completed', null],
    [POS, 'Point of Sale'],
    ['Account.connection.created', EVENT('Account.connection.created')],
    [`${CREATED} `, EVENT(`${CREATED} `)],
    ['', EVENT('')],
    ['__proto__', EVENT('__proto__')],
    ['toString', EVENT('toString')],
  ])('%j: its One API, or refused with %j', (event, expected) => {
    const action = () => domain.requireWebhookType(domain.webhookTypes(), event);
    if (expected === null || typeof expected === 'string') expect(action()).toEqual({ event, api: expected });
    else expect(refusal(action)).toEqual(expected);
  });
});

describe('urls', () => {
  it.each([
    ['https://hooks.example/x', 'own', true],
    ['http://localhost:3001/consumers', 'own', true],
    ['http://localhost:3001/__sandbox/reset', 'own', true],
    ['http://localhost/__sandbox/reset', 'own', true], // port 80
    ['http://localhost:3000/__sandbox/reset', 'none', true],
    ['http://localhost:3000/consumers', 'own', false],
    ['http://localhost:3000/__worlds/world_0/link/x', 'own', false],
    ['http://localhost:3000/__sandbox/reset', 'own', false],
    ['http://127.0.0.1:3000/__sandbox/reset', 'own', false],
    ['http://[::1]:3000/__SANDBOX/clock', 'own', false],
    ['http://localhost:3000/%5f%5fsandbox/reset', 'own', false],
    ['http://localhost:3000//console', 'own', false],
    ['https://localhost:3000/__sandbox', 'own', false],
    ['ftp://hooks.example/x', 'none', false],
    ['hooks.example/x', 'none', false],
    ['', 'none', false],
    ['https://hooks.example/a b', 'none', false],
  ])('%j with %s endpoints is accepted: %s', (url, known, ok) => {
    const own = known === 'own' ? OWN : null;
    if (ok) expect(() => domain.assertWebhookUrl(url, own)).not.toThrow();
    else expect(refusal(() => domain.assertWebhookUrl(url, own))).toEqual(URL_INVALID);
  });

  it('knows no own endpoint unless told', () => {
    expect(() => domain.assertWebhookUrl('http://localhost:3000/__sandbox/reset')).not.toThrow();
  });
});

describe('the integration of an instance', () => {
  it.each([
    [POS, 9012, 9012],
    [POS, 90201, 90201],
    [POS, 1000, NEEDS('Point of Sale')],
    [POS, null, NEEDS('Point of Sale')],
    [POS, undefined, NEEDS('Point of Sale')],
    [POS, 424242, NEEDS('Point of Sale')],
    ['commerce.order.created', 90301, 90301],
    ['commerce.order.created', 90302, NEEDS('eCommerce')], // inactive
    [CREATED, null, null],
    [CREATED, undefined, null],
    [CREATED, 1000, 1000],
    [CREATED, 90103, 90103], // a platform event takes an inactive integration
    [CREATED, 424242, INTEGRATION],
  ])('%s with integration %j: %j', (event, integrationid, expected) => {
    const type = domain.requireWebhookType(domain.webhookTypes(), event);
    const action = () => domain.assertWebhookIntegration(catalogue, type, integrationid);
    if (expected === null || typeof expected === 'number') expect(action()).toBe(expected);
    else expect(refusal(action)).toEqual(expected);
  });
});

const instance = (over: Partial<WebhookRecord> = {}): WebhookRecord => ({
  ...{ webhookid: 'w', accountid: DIR.accountId, envid: DIR.sandboxEnvId, createdby: null, createdon: NOW },
  ...{
    event: CREATED,
    url: 'https://hooks.example/a',
    status: 'active',
    integrationid: null,
    signingsecret: null,
  },
  ...over,
});
const BY_RESTRICTED = { restricted_to: { clientid: DIR.restricted.clientId, consumers: ['c-1', 'c-2'] } };

describe('who reaches an instance, and which events it receives', () => {
  it.each([
    ['api', {}, true],
    ['api', BY_RESTRICTED, true],
    ['restricted', {}, false],
    ['restricted', BY_RESTRICTED, true],
    ['otherKey', BY_RESTRICTED, false],
    ['production', {}, false],
    ['otherAccount', {}, false],
  ] as const)('a caller %s reaches an instance %j: %s', (who, over, expected) => {
    expect(domain.reachesWebhook(CALLERS[who], instance(over))).toBe(expected);
  });

  it.each([
    [{}, null, true],
    [{}, 'c-9', true],
    [BY_RESTRICTED, 'c-2', true],
    [BY_RESTRICTED, 'c-9', false],
    [BY_RESTRICTED, null, false],
  ])('an instance %j receives an event about %j: %s', (over, consumerid, expected) => {
    expect(domain.receivesEventsOf(instance(over), consumerid)).toBe(expected);
  });

  it.each([
    [{}, CREATED, undefined, null, 1],
    [{ status: 'inactive' }, CREATED, undefined, null, 0],
    [{}, 'account.connection.deleted', undefined, null, 0],
    [{ integrationid: 1000 }, CREATED, 1000, null, 1],
    [{ integrationid: 1000 }, CREATED, 7010, null, 0],
    [{ integrationid: 1000 }, CREATED, undefined, null, 0],
    [{}, CREATED, 7010, 'c-9', 1],
    [BY_RESTRICTED, CREATED, null, 'c-1', 1],
    [BY_RESTRICTED, CREATED, null, 'c-9', 0],
    [{ envid: DIR.productionEnvId }, CREATED, null, null, 0],
  ] as const)(
    '%j subscribes to %s of integration %j about %j: %d',
    (over, event, integrationid, consumerid, count) => {
      const { world } = setup();
      world.webhooks.w = instance(over as Partial<WebhookRecord>);
      const found = domain.subscribersOf(
        world,
        DIR.accountId,
        DIR.sandboxEnvId,
        event,
        integrationid,
        consumerid,
      );
      expect(found).toHaveLength(count);
    },
  );
});

describe('creating an instance', () => {
  it('writes the instance with a minted id, the clock and no creator, and shows it without its secret', () => {
    const { world, create } = setup();
    const made = create({ event: POS, integrationid: 9012, signingsecret: 's3cret' });
    const webhookid = minted('webhook', 1);
    expect(made).toEqual(instance({ webhookid, event: POS, integrationid: 9012, signingsecret: 's3cret' }));
    expect(world.webhooks[webhookid]).toBe(made);
    const { signingsecret: _secret, envid: _envid, ...shown } = made;
    expect(domain.toWebhookInstance(made)).toEqual(shown);
  });

  it('ties an instance of a restricted key to the key and its consumers, sorted; an empty secret is none', () => {
    const made = setup().create({ signingsecret: '' }, 'restricted');
    expect(made).toEqual(instance({ webhookid: minted('webhook', 1), ...BY_RESTRICTED }));
  });

  it.each([
    [{ event: 'nope', url: 'bad', integrationid: 424242 }, EVENT('nope')], // the event first,
    [{ url: 'bad', integrationid: 424242 }, URL_INVALID], // then the url,
    [{ url: 'http://127.0.0.1:3000/__sandbox/reset' }, URL_INVALID],
    [{ event: POS, integrationid: 1000 }, NEEDS('Point of Sale')], // then the integration,
    [{ integrationid: 424242 }, INTEGRATION],
    [{}, DUPLICATE], // then the pair (url, event)
  ] as const)('refuses %j with %j, writing nothing', (over, expected) => {
    const { world, deps, create } = setup();
    world.webhooks.first = instance({ webhookid: 'first' });
    expect(refusedUnchanged(world, () => create(over))).toEqual(expected);
    expect(deps.ids.next('probe')).toBe(minted('probe', 1));
  });

  it.each([
    ['api', {}, 'api', { url: 'https://hooks.example/b' }, null],
    ['api', {}, 'api', { event: 'account.connection.updated' }, null],
    ['api', {}, 'api', { url: 'https://HOOKS.example/a' }, null], // the urls are compared as written
    ['production', {}, 'api', {}, null],
    ['api', {}, 'restricted', {}, null], // a restricted key cannot learn of the others
    ['restricted', {}, 'otherKey', {}, null],
    ['restricted', {}, 'restricted', {}, DUPLICATE],
    ['restricted', {}, 'api', {}, DUPLICATE],
  ] as const)(
    'after a %s caller made %j, a %s caller making %j is refused with %j',
    (first, a, second, b, expected) => {
      const { create } = setup();
      create(a, first);
      if (expected === null) expect(create(b, second).webhookid).toBe(minted('webhook', 2));
      else expect(refusal(() => create(b, second))).toEqual(expected);
    },
  );
});

describe('finding and listing instances', () => {
  it.each([
    ['api', 'upper', null],
    ['restricted', 'upper', NOT_FOUND],
    ['production', 'upper', NOT_FOUND],
    ['api', uuidFrom('nope'), NOT_FOUND],
    ['api', '__proto__', NOT_FOUND],
    ['api', 'toString', NOT_FOUND],
    ['api', 'constructor', NOT_FOUND],
  ] as const)('a %s caller asking for %s: refused with %j', (who, id, expected) => {
    const { world, create } = setup();
    const made = create();
    const action = () =>
      domain.requireWebhook(world, CALLERS[who], id === 'upper' ? made.webhookid.toUpperCase() : id);
    if (expected === null) expect(action()).toBe(made);
    else expect(refusal(action)).toEqual(expected);
  });

  it.each([
    ['api', undefined, ['a', 'b', 'c']],
    ['api', 'active', ['a', 'c']],
    ['api', 'inactive', ['b']],
    ['restricted', undefined, ['c']],
    ['otherKey', undefined, []],
    ['production', undefined, ['p']],
  ] as const)('a %s caller listing the %s instances gets %j in creation order', (who, status, expected) => {
    const { world } = setup();
    world.webhooks.a = instance({ webhookid: 'a' });
    world.webhooks.p = instance({ webhookid: 'p', envid: DIR.productionEnvId });
    world.webhooks.b = instance({ webhookid: 'b', status: 'inactive' });
    world.webhooks.c = instance({ webhookid: 'c', ...BY_RESTRICTED });
    expect(domain.listWebhooks(world, CALLERS[who], status).map((w) => w.webhookid)).toEqual(expected);
  });
});

describe('updating an instance', () => {
  it.each([
    [{}, {}],
    [{ url: null, status: null, signingsecret: null }, {}],
    [{ status: 'inactive' }, { status: 'inactive' }],
    [{ signingsecret: 'new' }, { signingsecret: 'new' }],
    [{ signingsecret: '' }, { signingsecret: null }],
    [{ url: 'https://hooks.example/a' }, {}], // its own url
    [{ url: 'https://hooks.example/b', status: 'active' }, { url: 'https://hooks.example/b' }],
    [
      { url: 'https://hooks.example/taken-by-another-event' },
      { url: 'https://hooks.example/taken-by-another-event' },
    ],
  ] as const)('applies %j as %j', (input, changed) => {
    const { world } = setup();
    const record = instance({ webhookid: 'w', signingsecret: 'old' });
    world.webhooks.w = record;
    world.webhooks.x = instance({
      webhookid: 'x',
      event: POS,
      url: 'https://hooks.example/taken-by-another-event',
    });
    expect(domain.updateWebhook(world, API, record, input as WebhookPatchInput, OWN)).toBe(record);
    expect(record).toEqual(instance({ webhookid: 'w', signingsecret: 'old', ...changed }));
  });

  it.each([
    [{ url: 'https://hooks.example/taken', status: 'inactive' }, DUPLICATE],
    [{ url: 'not a url', signingsecret: '' }, URL_INVALID],
    [{ url: 'http://localhost:3000/console/' }, URL_INVALID],
  ] as const)('refuses %j with %j, changing nothing', (input, expected) => {
    const { world } = setup();
    const record = instance({ webhookid: 'w', signingsecret: 'old' });
    world.webhooks.w = record;
    world.webhooks.x = instance({ webhookid: 'x', url: 'https://hooks.example/taken' });
    const action = () => domain.updateWebhook(world, API, record, input as WebhookPatchInput, OWN);
    expect(refusedUnchanged(world, action)).toEqual(expected);
  });
});

describe('logs and deletion', () => {
  const log = (webhooklogid: string, webhookid: string, createdon: string) => ({
    ...{ webhooklogid, webhookid, event: CREATED, url: 'https://hooks.example/a', accountid: DIR.accountId },
    ...{ createdon, httpstatus: 200, integrationid: null, deliveryid: 'd', error: null },
  });
  const delivery = (deliveryid: string, webhookid: string) =>
    ({ deliveryid, webhookid }) as WebhookDeliveryRecord;
  function withLogs() {
    const { world } = setup();
    world.webhooks.w = instance({ webhookid: 'w' });
    world.webhooks.v = instance({ webhookid: 'v', url: 'https://hooks.example/v' });
    const times = [
      ['l1', 'w', '2026-01-02'],
      ['l2', 'w', '2026-01-03'],
      ['l3', 'v', '2026-01-04'],
      ['l4', 'w', '2026-01-02'],
    ];
    for (const [id, webhookid, day] of times as [string, string, string][]) {
      world.webhook_logs[id] = log(id, webhookid, `${day}T00:00:00.000Z`);
    }
    world.webhook_deliveries.d1 = delivery('d1', 'w');
    world.webhook_deliveries.d2 = delivery('d2', 'v');
    return world;
  }

  it('gives the logs of an instance newest first, the later recorded first among equal times', () => {
    const world = withLogs();
    expect(domain.logsOf(world, 'w').map((l) => l.webhooklogid)).toEqual(['l2', 'l4', 'l1']);
    expect([domain.logsOf(world, 'v').length, domain.logsOf(world, '__proto__').length]).toEqual([1, 0]);
    const { deliveryid: _d, error: _e, ...shown } = log('l3', 'v', '2026-01-04T00:00:00.000Z');
    expect(domain.toWebhookLog(domain.logsOf(world, 'v')[0] ?? expect.unreachable('no log'))).toEqual(shown);
  });

  it('removes an instance with its logs and deliveries, and nothing of the others', () => {
    const world = withLogs();
    domain.deleteWebhook(world, world.webhooks.w ?? expect.unreachable('no instance'));
    expect([Object.keys(world.webhooks), Object.keys(world.webhook_logs)]).toEqual([['v'], ['l3']]);
    expect(Object.keys(world.webhook_deliveries)).toEqual(['d2']);
  });
});
