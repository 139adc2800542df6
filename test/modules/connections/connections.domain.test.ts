import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import * as domain from '../../../src/modules/connections/connections.domain.js';
import type * as wire from '../../../src/modules/connections/connections.schemas.js';
import { type Integration, loadCatalogue } from '../../../src/platform/catalogue.js';
import type { AnyVerticalModule, ChoiceSources } from '../../../src/platform/vertical-module.js';
import { Store } from '../../../src/store/store.js';
import * as records from '../../../src/store/world.js';
import { type Refusal, refusal, refusedUnchanged } from '../domain-helpers.js';

/** The connection rules called directly, each test on its own clone of the seeded world of seed 7. */

type World = records.World;
type Connection = records.ConnectionRecord;
type Link = records.LinkRecord;
const DIR = seedDirectory(7);
const SEEDED = seedWorld(7);
const catalogue = loadCatalogue();
const NOW = '2026-02-03T04:05:06.000Z';
const T = '2026-01-01T00:00:00Z';
const ODOO = DIR.verticalConsumers.ACCOUNTING as string; // one active Odoo (1000) connection
const PENDING = DIR.pendingConsumerId; // one inactive Zelty (9012) connection
const RETIRED = DIR.retiredConsumerId; // one active connection of the inactive integration 90103

function setup() {
  const world: World = structuredClone(SEEDED);
  let n = 0;
  const deps: domain.ConnectionDeps = {
    ids: { next: (kind) => uuidFrom('connections-test', kind, ++n) },
    ...{ clock: manualClock(new Date(NOW)), catalogue },
  };
  const consumer = (id = ODOO) => world.consumers[id] ?? expect.unreachable(`no consumer ${id}`);
  const connectionOf = (id = ODOO): Connection =>
    domain.connectionsOf(world, id)[0] ?? expect.unreachable(`no connection of ${id}`);
  const create = (over: Partial<wire.PostConnectionInput> | null, id = ODOO) =>
    domain.createConnection(world, deps, consumer(id), over && { redirect: false, ...over });
  const update = (connectionid: string, over: Partial<wire.PatchConnectionInput>, id = ODOO) =>
    domain.updateConnection(world, deps, consumer(id), connectionid, { redirect: false, ...over });
  /** A link to the consumer's first connection, as PATCH makes them (written directly for any owner). */
  const linkTo = (id = ODOO): Link => {
    const { connectionid, integrationid } = connectionOf(id);
    const link = { ...create({}).link, consumerid: id, connectionid, integrationid };
    world.links[link.linkid] = link;
    return link;
  };
  return { world, deps, consumer, connectionOf, create, update, linkTo };
}
const minted = (kind: string, n: number) => uuidFrom('connections-test', kind, n);
const integration = (id: number): Integration => catalogue.get(id) ?? expect.unreachable(`no ${id}`);
const kv = (entries: Record<string, string>): wire.KeyValue[] =>
  Object.entries(entries).map(([key, value]) => ({ key, value }));
/** The value of `key` in `ids` when it holds it itself, else `key` (an inherited name stays a name). */
const pick = (ids: Record<string, string>, key: string) =>
  (Object.hasOwn(ids, key) ? ids[key] : key) as string;

const bad = (status: number, message: string, detail = ''): Refusal => ({
  ...{ status, message, detail, code: undefined },
});
/** Refused, and the world is left exactly as it was. */
const INTEGRATION = (detail = '') =>
  bad(400, 'The specified integrationid is not valid, is not active or does not exist', detail);
const CREDENTIAL = (detail: string) =>
  bad(400, 'Missing at least one credential for this integration', detail);
const POST_TEXT =
  'Missing at least one post connection value for this integration. When providing post connection values, make sure to provide all mandatory post connection values.';
const POST = (detail: string) => bad(400, POST_TEXT, detail);
const ALREADY = (id: number) =>
  bad(
    400,
    `There is already an active connection for the integrationid ${id}. Only one can be created for each consumer for each integrationid.`,
  );
const RETIRED_TEXT = 'The integration 90103 of this connection is no longer active';
const RETIRED_INTEGRATION = bad(400, 'Existing connections could not be retrived', RETIRED_TEXT);
const DATETIME = (key: string) => bad(422, `Invalid datetime format in key ${key}`);
const NO_CONNECTION = bad(404, 'The connection does not exist');
const NOT_UUID = bad(400, 'The specified connectionid is not valid');
const NO_LINK = bad(404, 'The connection link does not exist or has already been used');
const unknownCredential = (keys: string, id: number, expected: string) =>
  CREDENTIAL(`Unknown credential ${keys} for integration ${id} (expected: ${expected})`);
const unknownPost = (keys: string, id: number, expected: string) =>
  POST(`Unknown post connection ${keys} for integration ${id} (expected: ${expected})`);
const lacks = (keys: string) => CREDENTIAL(`Missing or empty: ${keys}`);
const lacksPost = (keys: string) => POST(`Missing or empty: ${keys}`);
const ODOO_KEYS = 'api_key, company_code, sandbox_mode';

describe('datetimes', () => {
  it.each([
    [T, true],
    ['2026-01-01T00:00:00+02:00', true],
    ['2026-01-01T00:00:00', true],
    ['2026-01-01T00:00:00.123456Z', true],
    ['2026-01-01', false],
    ['', false],
    ['2026-02-30T00:00:00Z', false],
    ['2026-01-01 00:00:00Z', false],
    ['2026-01-01T00:00:00+0200', false],
  ])('%j is a date-time: %s', (value, ok) => {
    const action = () => domain.checkDatetimes([{ key: 'history_start', value }]);
    if (ok) expect(action()).toEqual({ history_start: value });
    else expect(refusal(action)).toEqual(DATETIME('history_start'));
  });

  it('names the first bad key, keeps an inherited name as an own key, and takes no list as none', () => {
    expect(refusal(() => domain.checkDatetimes(kv({ a: T, b: 'nope', c: 'x' })))).toEqual(DATETIME('b'));
    const out = domain.checkDatetimes([{ key: '__proto__', value: T }]);
    expect([Object.keys(out), Object.getPrototypeOf(out)]).toEqual([['__proto__'], Object.prototype]);
    expect([null, undefined, []].map((list) => domain.checkDatetimes(list))).toEqual([{}, {}, {}]);
  });
});

describe('credentials', () => {
  it('leaves the credentials of the connector out of those of a connection', () => {
    const names = (id: number) => domain.connectionCredentials(integration(id)).map((c) => c.name);
    expect([names(90101), names(1000), names(10000)]).toEqual([
      ...[['username', 'password'], ['api_key', 'company_code', 'sandbox_mode'], []],
    ]);
  });

  it.each([
    [1000, { api_key: 'k', company_code: 'c' }],
    [1000, { api_key: 'k', company_code: 'c', sandbox_mode: '' }],
    [90102, { database_path: ' p ' }],
    [10000, {}],
  ])('integration %d accepts %j, as a record or as a list', (id, given) => {
    expect(domain.checkCredentials(integration(id), given)).toEqual(given);
    expect(domain.checkCredentials(integration(id), kv(given))).toEqual(given);
  });

  it.each([
    [1000, { api_key: 'k', company_code: 'c', x: '', y: '' }, unknownCredential("'x', 'y'", 1000, ODOO_KEYS)],
    [90101, { environment_url: 'e' }, unknownCredential("'environment_url'", 90101, 'username, password')],
    [10000, { token: 't' }, unknownCredential("'token'", 10000, 'none')],
    [7010, { api_token: 't', toString: 'x' }, unknownCredential("'toString'", 7010, 'api_token')],
    [1000, { api_key: 'k' }, lacks("'company_code'")],
    [1000, { api_key: ' ', company_code: '\t' }, lacks("'api_key', 'company_code'")],
    [90102, {}, lacks("'database_path'")],
  ])('integration %d refuses %j', (id, given, expected) => {
    expect(refusal(() => domain.checkCredentials(integration(id), given))).toEqual(expected);
  });

  it('refuses a credential named __proto__ given as a list', () => {
    const given = [{ key: '__proto__', value: 'x' }];
    const expected = unknownCredential("'__proto__'", 7010, 'api_token');
    expect(refusal(() => domain.checkCredentials(integration(7010), given))).toEqual(expected);
  });
});

describe('post connections', () => {
  it('needs the enabled, mandatory ones only, and knows no disabled one', () => {
    const odoo = integration(1000);
    expect(domain.mandatoryPostConnections(odoo).map((p) => p.id)).toEqual(['default_journal']);
    const off = odoo.post_connections.map((p) => ({ ...p, config: { ...p.config, enabled: false } }));
    const disabled = { ...odoo, post_connections: off };
    expect(domain.mandatoryPostConnections(disabled)).toEqual([]);
    const given = kv({ default_journal: 'j' });
    const expected = unknownPost("'default_journal'", 1000, 'none');
    expect(refusal(() => domain.checkPostConnections(disabled, given))).toEqual(expected);
  });

  it.each([
    [1000, { default_journal: 'j' }, null],
    [1000, { default_journal: 'j', analytic_plans: '' }, null],
    [7010, {}, null],
    [1000, { default_journal: 'j', x: '' }, unknownPost("'x'", 1000, 'default_journal, analytic_plans')],
    [7010, { location: 'x' }, unknownPost("'location'", 7010, 'none')],
    [1000, { analytic_plans: 'a' }, lacksPost("'default_journal'")],
    [9012, { location: '  ' }, lacksPost("'location'")],
    [9012, {}, lacksPost("'location'")],
  ])('integration %d with %j: refused with %j', (id, given, expected) => {
    const action = () => domain.checkPostConnections(integration(id), kv(given));
    if (expected === null) expect(action()).toEqual(given);
    else expect(refusal(action)).toEqual(expected);
  });
});

describe('integrations, countries and the one active connection', () => {
  it('takes an active integration of the catalogue for a new connection', () => {
    expect(domain.requireActiveIntegration(catalogue, 1000)).toBe(integration(1000));
    const refused = [90103, 424242].map((id) =>
      refusal(() => domain.requireActiveIntegration(catalogue, id)),
    );
    expect(refused).toEqual([INTEGRATION(), INTEGRATION()]);
  });

  it('allows one active connection per consumer and integration, the one named aside', () => {
    const { world, connectionOf } = setup();
    expect(refusal(() => domain.assertNoOtherActive(world, ODOO, 1000))).toEqual(ALREADY(1000));
    const own = connectionOf().connectionid;
    const allowed = [
      [ODOO, 1000, own],
      [ODOO, 7010],
      [PENDING, 9012],
    ] as const; // PENDING's is inactive
    for (const [id, integrationid, except] of allowed) {
      expect(() => domain.assertNoOtherActive(world, id, integrationid, except)).not.toThrow();
    }
  });

  it.each([
    [null, null, 39],
    [null, [], 39],
    [null, ['Banking'], [10000]],
    ['be', ['Banking', 'Payment'], [7105, 7106, 10000]],
    ['FR', ['Banking'], []],
    ['BE', ['Accounting'], [1000, 1005, 1006, 8007, 8023, 8024, 8025, 8030, 8034, 8040, 8049, 90101]],
    ['DE', ['eCommerce'], [90301]], // the DE shop is inactive
    ['NL', ['Invoicing'], [7006, 7010, 7012, 7015, 7018, 7023, 90401]],
  ])('a link for country %j and APIs %j offers %j', (country, apis, expected) => {
    const ids = domain.linkChoices(catalogue, { country, apis }).map((i) => i.integrationid);
    if (typeof expected === 'number') expect(ids).toHaveLength(expected);
    else expect(ids.sort((a, b) => a - b)).toEqual(expected);
  });

  it.each([
    ['BE', null, null],
    ['fr', ['Accounting'], null],
    ['US', ['Banking', 'Property Management System'], null],
    ['XX', null, bad(400, 'XX is not a valid country code.')],
    ['bel', null, bad(400, 'bel is not a valid country code.')],
    ['', null, bad(400, ' is not a valid country code.')],
    ['fr', ['Banking'], bad(400, "No integration supports country 'fr'")],
  ])('country %j for APIs %j: refused with %j', (country, apis, expected) => {
    const action = () => domain.assertCountry(catalogue, country, apis);
    if (expected === null) expect(action).not.toThrow();
    else expect(refusal(action)).toEqual(expected);
  });
});

describe('finding a connection', () => {
  it.each([
    ['its own uuid in upper case', 'upper', null],
    ["another consumer's connection", 'theirs', NO_CONNECTION],
    ['an unknown uuid', uuidFrom('nobody'), NO_CONNECTION],
    ['no uuid', 'not-a-uuid', NOT_UUID],
    ['an inherited name', '__proto__', NOT_UUID],
    ['a uuid with a blank', 'padded', NOT_UUID],
  ])('by %s: refused with %j', (_name, which, expected) => {
    const { world, consumer, connectionOf } = setup();
    const own = connectionOf();
    const ids = { upper: own.connectionid.toUpperCase(), padded: ` ${own.connectionid}` };
    const id = pick({ ...ids, theirs: connectionOf(PENDING).connectionid }, which);
    const action = () => domain.requireConnection(world, consumer(), id);
    if (expected === null) expect(action()).toBe(own);
    else expect(refusal(action)).toEqual(expected);
  });

  it('refuses a connection whose integration is no longer offered', () => {
    const { connectionOf } = setup();
    expect(domain.requireIntegrationOf(catalogue, connectionOf()).integrationid).toBe(1000);
    const retired = connectionOf(RETIRED);
    expect(refusal(() => domain.requireIntegrationOf(catalogue, retired))).toEqual(RETIRED_INTEGRATION);
  });

  it.each([
    [1000, { integration: 'Odoo', api: 'Accounting', agent: null }],
    [90102, { integration: 'Sandbox Books Desktop', api: 'Accounting', agent: { status: 'up' } }],
    [1, { integration: '', api: '', agent: null }],
  ])('shows a connection of %d with %j', (integrationid, expected) => {
    const { connectionOf } = setup();
    const { connectionid } = connectionOf();
    expect(
      domain.toConnectionItem({ ...connectionOf(), integrationid }, catalogue, '2026-01-15T09:00:00.000Z'),
    ).toEqual({
      ...{ connectionid, name: 'Odoo', integrationid, data: null, status: 'active', ...expected },
    });
  });
});

/** A connection record as the domain writes them, at NOW. */
const record = (over: Partial<Connection>) => ({
  ...{ consumerid: ODOO, status: 'active', credentials: {}, post_connections: {}, datetimes: {} },
  ...{ data: null, created_on: NOW, updated_on: NOW, ...over },
});
const linkOf = (over: Partial<Link>) => ({
  ...{ consumerid: ODOO, connectionid: null, integrationid: null, country: null, apis: null },
  ...{ redirect: false, created_on: NOW, completed_on: null, ...over },
});

describe('POST connections', () => {
  it('creates an active connection with complete credentials, and a link back to the consumer', () => {
    const { world, create } = setup();
    const given = { name: 'Books', credentials: kv({ api_token: 't' }), datetimes: kv({ from: T }) };
    const made = create({ integrationid: 7010, ...given });
    const [connectionid, linkid] = [minted('connection', 1), minted('link', 2)];
    const values = { name: 'Books', credentials: { api_token: 't' }, datetimes: { from: T } };
    expect(made).toEqual({
      connection: record({ connectionid, integrationid: 7010, ...values }),
      link: linkOf({ linkid, connectionid, integrationid: 7010, redirect: true }),
    });
    expect([world.connections[connectionid], world.links[linkid]]).toEqual([made.connection, made.link]);
    expect(domain.connectionsOf(world, ODOO).map((c) => c.integrationid)).toEqual([1000, 7010]);
  });

  it.each([
    [{}, 'inactive', 'Evoliz'],
    [{ name: '   ' }, 'inactive', 'Evoliz'],
    [{ name: null }, 'inactive', 'Evoliz'],
    [{ name: ' Mine ' }, 'inactive', ' Mine '],
    [{ name: 'x'.repeat(200) }, 'inactive', 'x'.repeat(200)], // the 80 limit is the schema's
    [{ credentials: kv({ api_token: 't' }), post_connections: [] }, 'active', 'Evoliz'],
  ])('7010 with %j is %s and named %j', (over, status, name) => {
    const { connection } = setup().create({ integrationid: 7010, ...over });
    expect([connection?.status, connection?.name]).toEqual([status, name]);
  });

  it('makes an integration without credentials active with an empty list, inactive without one', () => {
    const { create } = setup();
    expect(create({ integrationid: 10000 }).connection?.status).toBe('inactive');
    const second = create({ integrationid: 10000, credentials: [] }).connection;
    expect([second?.status, second?.connectionid]).toEqual(['active', minted('connection', 3)]);
  });

  it.each([
    [{ integrationid: 424242, datetimes: kv({ at: 'soon' }) }, DATETIME('at')], // the datetimes first
    [{ integrationid: 424242 }, INTEGRATION()],
    [{ integrationid: 90103, credentials: kv({ api_key: 'k' }) }, INTEGRATION()],
    [{ integrationid: 1000, credentials: kv({ api_key: 'k' }) }, ALREADY(1000)],
    [{ integrationid: 1000 }, ALREADY(1000)], // even an inactive one, next to an active one
    [{ integrationid: 9012, credentials: kv({ client_id: 'i' }) }, lacks("'client_secret'")],
    [{ integrationid: 7010, credentials: [] }, lacks("'api_token'")],
    [{ integrationid: 9012, post_connections: [] }, lacksPost("'location'")],
    [{ name: '', datetimes: [], credentials: null }, INTEGRATION('name, datetimes need an integrationid')],
    [{ integrationid: null, post_connections: [] }, INTEGRATION('post_connections need an integrationid')],
    [{ country: 'fr', apis: ['Banking'] }, bad(400, "No integration supports country 'fr'")],
  ] as const)('refuses %j with %j, writing nothing and minting no id', (over, expected) => {
    const { world, deps, create } = setup();
    const action = () => create(over as Partial<wire.PostConnectionInput>);
    expect(refusedUnchanged(world, action)).toEqual(expected);
    expect(deps.ids.next('probe')).toBe(minted('probe', 1));
  });

  it.each([
    [null, {}],
    [{ redirect: null, apis: [] }, {}],
    [
      { redirect: true, country: 'be', apis: ['Banking'] },
      { country: 'BE', apis: ['Banking'], redirect: true },
    ],
  ] as const)('without an integrationid, %j makes only a link to choose one: %j', (input, expected) => {
    const { world, create } = setup();
    const before = Object.keys(world.connections).length;
    const link = linkOf({ linkid: minted('link', 1), ...(expected as Partial<Link>) });
    expect(create(input as Partial<wire.PostConnectionInput> | null)).toEqual({ connection: null, link });
    expect(Object.keys(world.connections)).toHaveLength(before);
  });
});

describe('PATCH connections', () => {
  it('renames, merges datetimes, replaces credentials and post connections, and makes a link', () => {
    const { connectionOf, update } = setup();
    const target = connectionOf();
    const { connectionid, created_on } = target;
    target.datetimes = { kept: '2020-01-01T00:00:00Z', replaced: '2020-01-01T00:00:00Z' };
    const link = update(connectionid.toUpperCase(), {
      ...{ redirect: null, name: 'Renamed', credentials: kv({ api_key: 'a', company_code: 'b' }) },
      ...{ post_connections: kv({ default_journal: 'J2' }), datetimes: kv({ replaced: T }) },
    });
    expect(target).toEqual({
      ...record({ connectionid, integrationid: 1000, name: 'Renamed', created_on }),
      ...{ credentials: { api_key: 'a', company_code: 'b' }, post_connections: { default_journal: 'J2' } },
      datetimes: { kept: '2020-01-01T00:00:00Z', replaced: T },
    });
    expect(link).toEqual(linkOf({ linkid: minted('link', 1), connectionid, integrationid: 1000 }));
  });

  it.each([
    [{ name: null }, 'Before'],
    [{}, 'Before'],
    [{ name: '  ' }, 'Odoo'],
    [{ name: 'New' }, 'New'],
  ])('with %j the name is %j', (over, name) => {
    const { connectionOf, update } = setup();
    connectionOf().name = 'Before';
    expect(update(connectionOf().connectionid, over).redirect).toBe(false);
    const { status, updated_on } = connectionOf();
    expect([connectionOf().name, status, updated_on]).toEqual([name, 'active', NOW]);
  });

  it('activates an inactive connection with credentials unless another one is active', () => {
    const { world, connectionOf, create, update } = setup();
    const pending = connectionOf(PENDING);
    const credentials = kv({ client_id: 'i', client_secret: 's' });
    const other = create({ integrationid: 9012, credentials }, PENDING).connection;
    expect(other?.status).toBe('active');
    const again = () => update(pending.connectionid, { credentials }, PENDING);
    expect(refusedUnchanged(world, again)).toEqual(ALREADY(9012));
    delete world.connections[other?.connectionid ?? ''];
    expect(again().redirect).toBe(false);
    const expected = ['active', { client_id: 'i', client_secret: 's' }, {}]; // no mandatory location asked
    expect([pending.status, pending.credentials, pending.post_connections]).toEqual(expected);
  });

  it.each([
    ['nope', {}, NOT_UUID],
    [uuidFrom('none'), {}, NO_CONNECTION],
    [ODOO, { datetimes: kv({ at: '2026-01-01' }) }, DATETIME('at')],
    [ODOO, { credentials: kv({ pin: '1' }) }, unknownCredential("'pin'", 1000, ODOO_KEYS)],
    [ODOO, { name: 'x', post_connections: kv({ analytic_plans: 'a' }) }, lacksPost("'default_journal'")],
    [RETIRED, { name: 'x' }, RETIRED_INTEGRATION],
  ] as const)('refuses %s with %j, changing nothing: %j', (which, input, expected) => {
    const { world, connectionOf, update } = setup();
    const owner = which === RETIRED ? RETIRED : ODOO;
    const id = which === ODOO || which === RETIRED ? connectionOf(owner).connectionid : which;
    const action = () => update(id, input as Partial<wire.PatchConnectionInput>, owner);
    expect(refusedUnchanged(world, action)).toEqual(expected);
  });
});

describe('deleting and transactions', () => {
  const transaction = (connectionid: string) => ({
    ...{ connectionid, client_request_id: 'req-1', created_on: NOW, method: 'GET', route: '/r' },
    ...{ status_code: 201, created_entity_id: 'e', response_body: null },
  });
  const record = (world: World, id: string) => {
    world.transactions[records.transactionKey(id, 'req-1')] = transaction(id);
  };

  it('removes the connection with every record naming it, and nothing else', () => {
    const { world, connectionOf, update } = setup();
    const target = connectionOf();
    const link = update(target.connectionid, {});
    const other = connectionOf(PENDING).connectionid;
    for (const id of [target.connectionid, other]) record(world, id);
    const count = Object.keys(world.connections).length;
    domain.deleteConnection(world, target);
    expect([world.connections[target.connectionid], world.links[link.linkid]]).toEqual([
      undefined,
      undefined,
    ]);
    expect(Object.keys(world.transactions)).toEqual([records.transactionKey(other, 'req-1')]);
    expect(Object.keys(world.connections)).toHaveLength(count - 1);
    expect(domain.connectionsOf(world, ODOO)).toEqual([]);
  });

  it.each([
    ['the connectionid in upper case', 'upper', 'req-1', true],
    ['another case of the client request id', 'own', 'REQ-1', false],
    ["another consumer's connection", 'theirs', 'req-1', false],
    ['an inherited name', '__proto__', 'req-1', false],
  ])('finds a transaction by %s: %s', (_name, which, requestId, found) => {
    const { world, consumer, connectionOf } = setup();
    const own = connectionOf().connectionid;
    const theirs = connectionOf(PENDING).connectionid;
    for (const id of [own, theirs]) record(world, id);
    const id = pick({ upper: own.toUpperCase(), own, theirs }, which);
    const action = () => domain.findTransaction(world, consumer(), id, requestId);
    if (found) expect(action()).toEqual(transaction(own));
    else expect(refusal(action)).toEqual(bad(404, 'The specified transaction could not be found'));
  });
});

describe('the link page', () => {
  it.each([
    ['fresh, in upper case', () => {}, null],
    ['used', (l: Link) => Object.assign(l, { completed_on: NOW }), NO_LINK],
    ['of a consumer gone', (_l: Link, w: World) => delete w.consumers[ODOO], NO_LINK],
    ['of a connection gone', (l: Link) => Object.assign(l, { connectionid: uuidFrom('gone') }), NO_LINK],
  ])('opens a link %s: refused with %j', (_name, spoil, expected) => {
    const { world, linkTo } = setup();
    const link = linkTo();
    spoil(link, world);
    const action = () => domain.requireOpenLink(world, link.linkid.toUpperCase());
    if (expected === null) expect(action()).toEqual({ link, consumer: world.consumers[ODOO] });
    else expect(refusal(action)).toEqual(expected);
  });

  it.each(['__proto__', 'toString', uuidFrom('nope')])('opens no link %j', (id) => {
    const { world } = setup();
    expect(refusal(() => domain.requireOpenLink(world, id))).toEqual(NO_LINK);
  });

  it('offers its own integration (even one gone inactive), else the choices of its filters', () => {
    const base = setup().create({ apis: ['Banking'] }).link;
    const offered = (integrationid: number | null) =>
      domain.linkIntegrations(catalogue, { ...base, integrationid }).map((i) => i.integrationid);
    expect([offered(null), offered(90103), offered(1)]).toEqual([[10000], [90103], []]);
  });

  it('asks the first vertical that lists the resource for the post connection choices', () => {
    const sources = { store: Store.memory(structuredClone(SEEDED)), caches: {} } as unknown as ChoiceSources;
    const vertical = (choices: Record<string, () => { value: string; label: string }[] | null>) =>
      ({ choices }) as unknown as AnyVerticalModule;
    const journal = integration(1000).post_connections[0] ?? expect.unreachable('no post connection');
    const ask = (verticals: AnyVerticalModule[], resource = journal.resource) =>
      domain.postConnectionChoices({ ...sources, verticals }, integration(1000), ODOO, null, {
        ...{ ...journal, resource },
      });
    const listed = [{ value: 'j', label: 'J' }];
    const verticals = [
      vertical({}),
      vertical({ journals: () => null }),
      vertical({ journals: () => listed }),
    ];
    expect(ask(verticals)).toBe(listed);
    expect([ask([]), ask([vertical({})], 'toString')]).toEqual([null, null]);
  });

  const submit = (over: Partial<domain.LinkSubmission>): domain.LinkSubmission => ({
    ...{ integrationid: null, credentials: {}, postConnections: {}, placeholders: false, ...over },
  });

  it('creates the chosen connection active and uses the link up', () => {
    const { world, deps, create } = setup();
    const { link } = create({ apis: ['Invoicing'], country: 'nl' });
    const credentials = { username: 'u', password: 'p' };
    const made = domain.completeLink(world, deps, link, submit({ integrationid: 90401, credentials }));
    const connectionid = minted('connection', 2);
    const name = 'Sandbox Invoicing Basic';
    expect(made).toEqual(record({ connectionid, integrationid: 90401, name, credentials }));
    const { integrationid, completed_on } = link;
    const after = [link.connectionid, integrationid, completed_on, world.connections[connectionid]];
    expect(after).toEqual([connectionid, 90401, NOW, made]);
  });

  it("activates the link's connection, filling in placeholders only when asked", () => {
    const { world, deps, connectionOf, linkTo } = setup();
    const pending = connectionOf(PENDING);
    const link = linkTo(PENDING);
    const credentials = { client_id: 'i', client_secret: 's' };
    const form = () => domain.completeLink(world, deps, link, submit({ credentials }));
    expect(refusedUnchanged(world, form)).toEqual(lacksPost("'location'"));
    const script = submit({ integrationid: 9012, credentials, placeholders: true });
    expect(domain.completeLink(world, deps, link, script)).toBe(pending);
    const after = [pending.status, pending.post_connections, pending.updated_on, link.completed_on];
    expect(after).toEqual(['active', { location: 'locations-1' }, NOW, NOW]);
  });

  const ODOO_CREDENTIALS = { api_key: 'k', company_code: 'c' };
  it.each([
    [ODOO, { integrationid: 7010 }, INTEGRATION('This link is for the integration 1000')],
    [null, {}, INTEGRATION('Choose one of the integrations the link offers')],
    [null, { integrationid: 7010 }, INTEGRATION()], // not offered
    [null, { integrationid: 10000, credentials: { x: '1' } }, unknownCredential("'x'", 10000, 'none')],
    [null, { integrationid: 1000, credentials: ODOO_CREDENTIALS }, ALREADY(1000)],
    [RETIRED, { credentials: { api_key: 'k' } }, RETIRED_INTEGRATION],
  ] as const)("a link to %s's connection refuses %j, changing nothing: %j", (owner, over, expected) => {
    const { world, deps, create, linkTo } = setup();
    const link = owner === null ? create({ apis: ['Banking', 'Accounting'] }).link : linkTo(owner);
    const complete = () => domain.completeLink(world, deps, link, submit(over));
    expect(refusedUnchanged(world, complete)).toEqual(expected);
  });
});
