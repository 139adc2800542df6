import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { AUTH_ERROR_CODE } from '../../../src/lib/errors.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import { searchConsumers } from '../../../src/modules/consumers/consumer-search.js';
import * as domain from '../../../src/modules/consumers/consumers.domain.js';
import type { PostConsumerInput } from '../../../src/modules/consumers/consumers.schemas.js';
import * as access from '../../../src/platform/access.js';
import type { Principal } from '../../../src/platform/tokens.js';
import { consumerTextChanged } from '../../../src/store/indexes.js';
import { Store } from '../../../src/store/store.js';
import { type ConsumerRecord, transactionKey } from '../../../src/store/world.js';
import { type Refusal, refusal, refusedUnchanged } from '../domain-helpers.js';

/** The consumer rules and the consumer search called directly, each test on its own seeded world (seed 7). */

const DIR = seedDirectory(7);
const SEEDED = seedWorld(7);
const NOW = '2026-02-03T04:05:06.000Z';
const RESTRICTED = DIR.restricted.consumerId;
const ODOO = DIR.verticalConsumers.ACCOUNTING as string;

const API: Principal = {
  ...{ kind: 'api', clientid: DIR.sandbox.clientId, accountid: DIR.accountId, envid: DIR.sandboxEnvId },
  ...{ consumers: null, mcp: null },
};
const PRINCIPALS = {
  api: API,
  restricted: { ...API, clientid: DIR.restricted.clientId, consumers: new Set([RESTRICTED]) },
  mcp: { ...API, kind: 'mcp', mcp: { consumerid: ODOO, scopes: ['*'] } },
  production: { ...API, clientid: DIR.production.clientId, envid: DIR.productionEnvId },
  other: { ...API, accountid: DIR.otherAccount.accountId, envid: DIR.otherAccount.sandboxEnvId },
} satisfies Record<string, Principal>;

function setup() {
  const store = Store.memory(structuredClone(SEEDED));
  const world = store.world;
  let n = 0;
  const deps = {
    ids: { next: (kind: string) => uuidFrom('consumers-test', kind, ++n) },
    clock: manualClock(new Date(NOW)),
  };
  const create = (name: string, over: Partial<PostConsumerInput> = {}, principal: Principal = API) =>
    domain.createConsumer(world, deps, principal, { name, ...over });
  const search = (filters: domain.ConsumerFilters, principal: Principal = API) =>
    searchConsumers(world, principal, filters).map((c) => c.consumerid);
  return { world, deps, create, search };
}
const minted = (kind: string, n: number) => uuidFrom('consumers-test', kind, n);

const NAME = (detail: string): Refusal => ({
  status: 400,
  message: 'The specified name is not valid',
  detail,
  code: undefined,
});
const EMPTY = NAME('The name is empty');
const LONG = NAME('The name is longer than 255 characters');
const CONTROL = NAME('The name holds control characters');
const URL_INVALID: Refusal = {
  status: 422,
  message: 'The specified redirect url is not valid',
  detail: '',
  code: undefined,
};
const auth = (message: string): Refusal => ({ status: 401, message, detail: '', code: AUTH_ERROR_CODE });

describe('names', () => {
  it.each([
    ['A', null],
    ['x'.repeat(255), null],
    [` ${'x'.repeat(254)}`, null],
    ['Zoë & Co — 株式会社', null],
    ['😀'.repeat(127), null],
    ['a\u0085b', null], // a C1 control character passes
    ['', EMPTY],
    [' '.repeat(300), EMPTY], // blank before long
    ['\t\n', EMPTY],
    ['\u00a0\u2003', EMPTY],
    ['x'.repeat(256), LONG],
    [`${'x'.repeat(255)}\u0001`, LONG], // long before control
    ['😀'.repeat(128), LONG], // 256 UTF-16 units
    ['a\tb', CONTROL],
    [' a\n', CONTROL],
    ['a\u0000', CONTROL],
    ['a\u007f', CONTROL],
  ])('%j: refused with %j', (name, expected) => {
    if (expected === null) expect(() => domain.assertValidName(name)).not.toThrow();
    else expect(refusal(() => domain.assertValidName(name))).toEqual(expected);
  });
});

describe('redirect urls', () => {
  const long = (length: number) => `https://a.example/${'p'.repeat(length - 18)}`;
  it.each([
    [null, true],
    [undefined, true],
    ['https://app.example/cb?x=1#y', true],
    ['http://localhost:3000/x', true],
    [long(2048), true],
    [long(2049), false],
    ['', false],
    ['ftp://files.example/x', false],
    ['https://a b.example/', false],
    ['https://a.example/ x', false],
    ['/relative/path', false],
    ['https://', false],
    ['javascript:alert(1)', false],
    ['mailto:a@b.example', false],
  ])('%j is accepted: %s', (url, ok) => {
    if (ok) expect(() => domain.assertValidRedirectUrl(url)).not.toThrow();
    else expect(refusal(() => domain.assertValidRedirectUrl(url))).toEqual(URL_INVALID);
  });
});

describe('creating a consumer', () => {
  it('writes the record with the caller environment, the clock and a minted id', () => {
    const { world, create } = setup();
    const made = create('Acme', { email: 'a@acme.example', redirect_url: 'https://acme.example/back' });
    expect(made).toEqual({
      ...{
        consumerid: minted('consumer', 1),
        accountid: DIR.accountId,
        envid: DIR.sandboxEnvId,
        name: 'Acme',
      },
      ...{ email: 'a@acme.example', internal_reference: null, redirect_url: 'https://acme.example/back' },
      created_on: NOW,
    });
    expect(world.consumers[made.consumerid]).toBe(made);
    expect(domain.toConsumerItem(made)).toEqual({
      ...{ consumerid: made.consumerid, name: 'Acme', email: 'a@acme.example', internal_reference: null },
      redirect_url: 'https://acme.example/back',
    });
    const seen = access.visibleConsumers(world, API);
    expect([seen.length, seen.at(-1)]).toEqual([39, made]);
  });

  it.each([
    ['an MCP token', PRINCIPALS.mcp, 'Acme', {}, auth('The token is bound to another consumer')],
    [
      'an MCP token of a restricted key',
      { ...PRINCIPALS.restricted, mcp: PRINCIPALS.mcp.mcp },
      'Acme',
      {},
      auth('The token is bound to another consumer'),
    ],
    [
      'a restricted key',
      PRINCIPALS.restricted,
      'Acme',
      {},
      auth('The API key of this token is restricted to other consumers'),
    ],
    ['a blank name', API, ' ', { redirect_url: 'nope' }, EMPTY], // the name before the url
    ['a bad redirect url', API, 'Acme', { redirect_url: 'nope' }, URL_INVALID],
  ] as const)('refuses %s, writing nothing and minting no id', (_name, principal, name, over, expected) => {
    const { world, deps, create } = setup();
    expect(refusedUnchanged(world, () => create(name, over, principal as Principal))).toEqual(expected);
    expect(deps.ids.next('probe')).toBe(minted('probe', 1));
  });
});

describe('updating a consumer', () => {
  const base = (): ConsumerRecord => ({
    ...{ consumerid: 'c', accountid: 'a', envid: 'e', name: 'Old', email: 'old@x.example' },
    ...{ internal_reference: 'REF', redirect_url: 'https://old.example', created_on: NOW },
  });
  it.each([
    [{}, {}],
    [{ name: null }, {}],
    [{ name: 'New' }, { name: 'New' }],
    [
      { email: null, internal_reference: null, redirect_url: null },
      { email: null, internal_reference: null, redirect_url: null },
    ],
    [
      { email: '', internal_reference: 'R2' },
      { email: '', internal_reference: 'R2' },
    ],
    [{ redirect_url: 'http://new.example/' }, { redirect_url: 'http://new.example/' }],
  ])('applies %j as %j', (input, changed) => {
    const consumer = base();
    expect(domain.updateConsumer(consumer, input)).toBe(consumer);
    expect(consumer).toEqual({ ...base(), ...changed });
  });

  it.each([
    [{ name: '' }, EMPTY],
    [{ name: 'x'.repeat(256), email: 'e' }, LONG],
    [{ name: 'a\u0007' }, CONTROL],
    [{ name: 'New', redirect_url: 'ftp://x.example' }, URL_INVALID],
  ])('refuses %j, changing nothing', (input, expected) => {
    const consumer = base();
    expect(refusal(() => domain.updateConsumer(consumer, input))).toEqual(expected);
    expect(consumer).toEqual(base());
  });
});

describe('deleting a consumer', () => {
  it("removes the consumer with its connections and every record naming them, and nothing else's", () => {
    const { world } = setup();
    const consumer = world.consumers[ODOO] ?? expect.unreachable('no consumer');
    const [own] = Object.values(world.connections).filter((c) => c.consumerid === ODOO);
    const [theirs] = Object.values(world.connections).filter((c) => c.consumerid === RESTRICTED);
    if (!own || !theirs) throw new Error('no connections');
    for (const { connectionid } of [own, theirs]) {
      world.transactions[transactionKey(connectionid, 'r')] = {
        ...{
          connectionid,
          client_request_id: 'r',
          created_on: NOW,
          method: 'GET',
          route: '/',
          status_code: 200,
        },
        ...{ created_entity_id: null, response_body: null },
      };
    }
    const [consumers, connections] = [
      Object.keys(world.consumers).length,
      Object.keys(world.connections).length,
    ];
    domain.deleteConsumer(Store.memory(world), consumer);
    expect([world.consumers[ODOO], world.connections[own.connectionid]]).toEqual([undefined, undefined]);
    expect(Object.keys(world.transactions)).toEqual([transactionKey(theirs.connectionid, 'r')]);
    expect([Object.keys(world.consumers).length, Object.keys(world.connections).length]).toEqual([
      ...[consumers - 1, connections - 1],
    ]);
    expect(access.visibleConsumers(world, API).map((c) => c.consumerid)).not.toContain(ODOO);
  });
});

describe('reaching consumers', () => {
  it.each([
    ['api', 38],
    ['restricted', 1],
    ['mcp', 1],
    ['production', 7],
    ['other', 2],
  ] as const)('a %s caller sees %d consumers', (who, count) => {
    const { world } = setup();
    const seen = access.visibleConsumers(world, PRINCIPALS[who]);
    expect(seen).toHaveLength(count);
    expect(
      seen.every((c) => c.accountid === PRINCIPALS[who].accountid && c.envid === PRINCIPALS[who].envid),
    ).toBe(true);
  });

  const GONE: Refusal = { status: 404, message: 'The consumer does not exist', detail: '', code: undefined };
  const ELSEWHERE = auth('The API key of this token does not belong to the environment of this resource');
  it.each([
    ['api', ODOO.toUpperCase(), null],
    ['restricted', RESTRICTED, null],
    ['restricted', ODOO, GONE],
    ['mcp', RESTRICTED, GONE],
    ['production', ODOO, ELSEWHERE],
    ['other', ODOO, GONE],
    ['api', uuidFrom('nobody'), GONE],
    ['api', '__proto__', GONE],
    ['api', 'toString', GONE],
  ] as const)('a %s caller asking for %s: refused with %j', (who, id, expected) => {
    const { world } = setup();
    const action = () => access.requireConsumer(world, PRINCIPALS[who], id);
    if (expected === null) expect(action().consumerid).toBe(id.toLowerCase());
    else expect(refusal(action)).toEqual(expected);
  });
});

describe('the filters of GET /consumers', () => {
  const acme: ConsumerRecord = {
    ...{
      consumerid: 'c',
      accountid: 'a',
      envid: 'e',
      name: 'Acme (Europe) Ltd.',
      email: 'Billing@ACME.example',
    },
    ...{ internal_reference: 'REF-42', redirect_url: null, created_on: NOW },
  };
  const bare: ConsumerRecord = { ...acme, name: 'Bare', email: null, internal_reference: null };
  it.each([
    [{}, true, true],
    [{ search: '' }, true, true],
    [{ search: 'acme' }, true, false],
    [{ search: 'ACME (EUROPE)' }, true, false],
    [{ search: 'billing@acme.EXAMPLE' }, true, false],
    [{ search: 'ref-4' }, true, false],
    [{ search: 'Ltd.' }, true, false],
    [{ search: 'L.d' }, false, false], // no pattern: the dot is a dot
    [{ search: '.*' }, false, false],
    [{ search: 'a|b' }, false, false],
    [{ search: '[' }, false, false],
    [{ search: 'Ltd.Billing' }, false, false], // nothing across two fields
    [{ search: 'x'.repeat(10_000) }, false, false],
    [{ search: 'ARE' }, false, true],
    [{ internal_reference: 'REF-42' }, true, false],
    [{ internal_reference: 'ref-42' }, false, false],
    [{ internal_reference: '' }, false, false],
    [{ internal_reference: 'REF-42', search: 'acme' }, true, false],
    [{ internal_reference: 'REF-42', search: 'zzz' }, false, false],
  ])('%j matches the Acme consumer: %s, the bare one: %s', (filters, matchesAcme, matchesBare) => {
    const matches = domain.consumerMatcher(filters);
    expect([matches(acme), matches(bare)]).toEqual([matchesAcme, matchesBare]);
  });

  it('finds what the rule finds, in creation order, among the consumers the caller sees', () => {
    const { create, search } = setup();
    const a = create('Qzx Alpha').consumerid;
    const b = create('beta', { email: 'b@QZX.example' }).consumerid;
    const c = create('Gamma', { internal_reference: 'qzx-1' }).consumerid;
    create('Delta');
    expect(search({ search: 'qzx' })).toEqual([a, b, c]);
    expect(search({ search: 'QZX-1' })).toEqual([c]);
    expect(search({ search: 'qzx', internal_reference: 'qzx-1' })).toEqual([c]);
    expect(search({ search: 'qzx' }, PRINCIPALS.restricted)).toEqual([]);
    expect(search({ search: 'qzx' }, PRINCIPALS.production)).toEqual([]);
    expect(search({})).toHaveLength(42);
    expect(search({ search: 'llc' })).toHaveLength(4); // the seeded Herman, Bahringer, Mueller and Steuber LLC
  });

  it('gives a restricted key or an MCP token only its own consumer', () => {
    const { world, search } = setup();
    const restricted = world.consumers[RESTRICTED] ?? expect.unreachable('no consumer');
    const word = restricted.name.split(/\W/)[0] as string;
    expect([search({}, PRINCIPALS.restricted), search({ search: word }, PRINCIPALS.restricted)]).toEqual([
      ...[[RESTRICTED], [RESTRICTED]],
    ]);
    expect(search({ search: '.example' }, PRINCIPALS.mcp)).toEqual([ODOO]);
    expect(search({ search: restricted.internal_reference ?? '' }, PRINCIPALS.mcp)).toEqual([]);
  });

  it('searches text outside ASCII case-insensitively, without the index', () => {
    const { create, search } = setup();
    const sofia = create('ΣΟΦΙΑΣ Ltd').consumerid;
    const zoe = create('Zoë Éditions').consumerid;
    expect([search({ search: 'σοφιας' }), search({ search: 'ΣοφιαΣ' })]).toEqual([[sofia], [sofia]]);
    expect([search({ search: 'zoË' }), search({ search: 'éDITIONS' })]).toEqual([[zoe], [zoe]]);
    expect(search({ search: 'zoe' })).toEqual([]);
  });

  it('follows a rename once the index is told, and never answers the old text', () => {
    const { world, create, search } = setup();
    const renamed = create('Qzx Old');
    expect(search({ search: 'qzx old' })).toEqual([renamed.consumerid]);
    domain.updateConsumer(renamed, { name: 'Wvu New' });
    expect(search({ search: 'qzx old' })).toEqual([]); // the stale candidate fails the rule
    consumerTextChanged(world, renamed);
    expect([search({ search: 'wvu new' }), search({ search: 'qzx' })]).toEqual([[renamed.consumerid], []]);
    domain.deleteConsumer(Store.memory(world), renamed);
    expect(search({ search: 'wvu' })).toEqual([]);
  });
});
