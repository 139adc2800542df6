import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import {
  ApiTransactionLookupOut,
  ConnectionItem,
  LinkItem,
} from '../../../src/modules/connections/connections.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import type { World } from '../../../src/store/world.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  formTarget,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

let s: TestSandbox;
let token: string;
let world: World;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  world = s.app.services.store.world;
});

const MISSING = '00000000-0000-4000-8000-000000000000';

const LEDGERLINE_CREDENTIALS = [
  { key: 'api_key', value: 'k-1' },
  { key: 'company_code', value: 'C1' },
];
const LEDGERLINE_POST = [{ key: 'default_journal', value: 'journal-7' }];
const TILLWISE_CREDENTIALS = [
  { key: 'client_id', value: 'id-1' },
  { key: 'client_secret', value: 'secret-1' },
];

const connectionsPath = (consumerid: string) => `/consumers/${consumerid}/connections`;
const connectionPath = (consumerid: string, connectionid: string) =>
  `/consumers/${consumerid}/connections/${connectionid}`;

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

async function newConsumer(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api('POST', '/consumers', { body: { name: 'Fresh Consumer', ...extra } });
  expect(res.status).toBe(200);
  return res.body.consumerid as string;
}

async function list(consumerid: string) {
  const res = await api('GET', connectionsPath(consumerid));
  expect(res.status).toBe(200);
  return (res.body as unknown[]).map((item) => ConnectionItem.parse(item));
}

/** POST connections; answers the link's path and the connection created, if any. */
async function post(consumerid: string, body?: unknown) {
  const before = new Set(Object.keys(world.connections));
  const res = await api('POST', connectionsPath(consumerid), body === undefined ? {} : { body });
  expect(res.status, res.text).toBe(200);
  const { url } = LinkItem.parse(res.body);
  const created = Object.keys(world.connections).filter((id) => !before.has(id));
  return { url, linkPath: new URL(url).pathname, connectionid: created[0] ?? null, created };
}

const counts = () => ({
  connections: Object.keys(world.connections).length,
  links: Object.keys(world.links).length,
  transactions: Object.keys(world.transactions).length,
});

const connectionOf = (consumerid: string, integrationid: number) =>
  Object.values(world.connections).find(
    (c) => c.consumerid === consumerid && c.integrationid === integrationid,
  );

const form = (fields: Record<string, string>) => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('GET connections', () => {
  it('lists active and inactive connections as ConnectionItem', async () => {
    const pending = await list(s.ids.pendingConsumerId);
    expect(pending).toEqual([
      {
        connectionid: expect.any(String),
        name: 'Zelty',
        integration: 'Zelty',
        integrationid: 9012,
        api: 'Point of Sale',
        data: null,
        status: 'inactive',
        agent: null,
      },
    ]);
    const sync = await list(s.ids.syncConsumerId);
    expect(sync.map((c) => [c.integrationid, c.status])).toEqual([
      [1000, 'active'],
      [7010, 'active'],
    ]);
  });

  it('gives the agent status of a local agent integration', async () => {
    const consumer = await newConsumer();
    await post(consumer, {
      integrationid: 90102,
      credentials: [{ key: 'database_path', value: 'C:/books' }],
    });
    const [item] = await list(consumer);
    expect(item).toMatchObject({ integrationid: 90102, status: 'active', agent: { status: 'up' } });
  });

  it('an empty list for a consumer without connections', async () => {
    expect(await list(await newConsumer())).toEqual([]);
  });

  it('404 for a missing consumer, 422 for a malformed id', async () => {
    expectError(await api('GET', connectionsPath(MISSING)), errors.consumerNotFound());
    expectValidation(await api('GET', connectionsPath('nope')), ['path', 'consumer_id'], 'uuid_parsing');
  });
});

describe('POST connections', () => {
  it('with an integrationid and every credential: active at once, with its name and values', async () => {
    const consumer = await newConsumer();
    const { url, connectionid } = await post(consumer, {
      integrationid: 1000,
      name: 'Main books',
      credentials: [...LEDGERLINE_CREDENTIALS, { key: 'sandbox_mode', value: 'on' }],
      post_connections: LEDGERLINE_POST,
      datetimes: [{ key: 'history_start', value: '2024-01-01T00:00:00Z' }],
    });
    expect(url).toMatch(/^http:\/\/localhost\/link\/[0-9a-f-]{36}$/);
    expect(await list(consumer)).toEqual([
      {
        connectionid,
        name: 'Main books',
        integration: 'Odoo',
        integrationid: 1000,
        api: 'Accounting',
        data: null,
        status: 'active',
        agent: null,
      },
    ]);
    expect(world.connections[connectionid ?? '']).toMatchObject({
      credentials: { api_key: 'k-1', company_code: 'C1', sandbox_mode: 'on' },
      post_connections: { default_journal: 'journal-7' },
      datetimes: { history_start: '2024-01-01T00:00:00Z' },
    });
  });

  it('an integration without credentials is active with an empty list', async () => {
    const consumer = await newConsumer();
    await post(consumer, { integrationid: 10000, credentials: [] });
    expect((await list(consumer))[0]?.status).toBe('active');
  });

  it('without credentials: inactive, named after the integration, completed on the link page', async () => {
    const consumer = await newConsumer({ name: 'Bistro <Chez "Léa">' });
    const { linkPath, connectionid } = await post(consumer, { integrationid: 9012 });
    expect(await list(consumer)).toMatchObject([{ connectionid, name: 'Zelty', status: 'inactive' }]);

    const page = await call(s.app, 'GET', linkPath);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Bistro &lt;Chez &quot;Léa&quot;&gt;');
    expect(page.text).toContain('Zelty');
    expect(formTarget(page.text, `http://localhost${linkPath}`)).toBe(`http://localhost${linkPath}`);
    for (const name of ['client_id', 'client_secret'])
      expect(page.text).toContain(`name="credential:9012:${name}"`);
    // The page's only asset is the integration's logo, served by the sandbox itself.
    expect([...page.text.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'http://localhost/integrations/9012/logo.png',
    ]);
    expect(page.text).toContain('name="post_connection:9012:location"');

    const done = await call(
      s.app,
      'POST',
      linkPath,
      form({
        integrationid: '9012',
        'credential:9012:client_id': 'id-1',
        'credential:9012:client_secret': 'secret-1',
        'post_connection:9012:location': 'location-1',
      }),
    );
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toMatch(/^text\/html/);
    expect(done.text).toContain('Connected');
    expect(await list(consumer)).toMatchObject([{ connectionid, status: 'active' }]);
    expect(world.connections[connectionid ?? '']?.credentials).toEqual({
      client_id: 'id-1',
      client_secret: 'secret-1',
    });

    expectError(await call(s.app, 'GET', linkPath), errors.linkNotFound());
    expectError(await call(s.app, 'POST', linkPath, { body: { credentials: {} } }), errors.linkNotFound());
  });

  it("a link made with an integrationid goes back to the consumer's redirect url", async () => {
    const consumer = await newConsumer({ redirect_url: 'https://app.vendor.example/back' });
    const { linkPath } = await post(consumer, { integrationid: 7010, redirect: false });
    const done = await call(s.app, 'POST', linkPath, form({ 'credential:7010:api_token': 't' }));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://app.vendor.example/back');
  });

  it('the link page also takes JSON and multipart forms', async () => {
    const consumer = await newConsumer({ redirect_url: 'https://app.vendor.example/back' });
    const first = await post(consumer, { integrationid: 7010 });
    const json = await call(s.app, 'POST', first.linkPath, { body: { credentials: { api_token: 't' } } });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ status: 'active', connectionid: first.connectionid });

    const second = await post(consumer, { integrationid: 7023 });
    const multipart = new FormData();
    multipart.set('credential:7023:username', 'u');
    multipart.set('credential:7023:password', 'p');
    const res = await s.app.request(second.linkPath, { method: 'POST', body: multipart });
    expect(res.status).toBe(303);
    expect(world.connections[second.connectionid ?? '']?.status).toBe('active');
  });

  it.each([
    ['no body', undefined],
    ['a null body', null],
    ['an empty object', {}],
  ])('with %s: no connection, a link where the end user picks an active integration', async (_n, body) => {
    const consumer = await newConsumer();
    const res =
      body === null
        ? await api('POST', connectionsPath(consumer), {
            rawBody: 'null',
            headers: { 'content-type': 'application/json' },
          })
        : await api('POST', connectionsPath(consumer), body === undefined ? {} : { body });
    expect(res.status).toBe(200);
    expect(await list(consumer)).toEqual([]);
    const page = await call(s.app, 'GET', new URL(res.body.url).pathname);
    expect(page.text).toContain('<select id="integrationid" name="integrationid">');
    expect(page.text).toContain('<option value="1000">');
    expect(page.text).not.toContain('<option value="90103">');
    expect(page.text).not.toContain('<option value="90302">');
  });

  it('country and apis narrow the choice; the end user completes it with one of them', async () => {
    const consumer = await newConsumer({ redirect_url: 'https://app.vendor.example/back' });
    const { linkPath, created } = await post(consumer, {
      country: 'de',
      apis: ['Accounting'],
      redirect: true,
    });
    expect(created).toEqual([]);
    const page = await call(s.app, 'GET', linkPath);
    const options = [...page.text.matchAll(/<option value="(\d+)">/g)].map((m) => Number(m[1]));
    // Integrations of no stated country serve every country.
    const germanAccounting = loadCatalogue()
      .activeOf('Accounting')
      .filter((i) => i.supported_countries === null || i.supported_countries.includes('DE'))
      .map((i) => i.integrationid);
    expect(options).toEqual(germanAccounting);
    expect(options).toContain(90101);
    expect(options).not.toContain(8008);

    const refused = await call(s.app, 'POST', linkPath, {
      body: { integrationid: 8008, credentials: { api_key: 'k' } },
    });
    expectError(refused, errors.integrationInvalid());
    const done = await call(
      s.app,
      'POST',
      linkPath,
      form({
        integrationid: '90101',
        'credential:90101:username': 'u',
        'credential:90101:password': 'p',
        'credential:1000:api_key': 'ignored',
      }),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('https://app.vendor.example/back');
    expect(await list(consumer)).toMatchObject([
      { integrationid: 90101, name: 'Sandbox Books Multi-Folder', status: 'active' },
    ]);
    expect(connectionOf(consumer, 90101)?.credentials).toEqual({ username: 'u', password: 'p' });
  });

  it('a choice link without redirect shows the connected page', async () => {
    const consumer = await newConsumer({ redirect_url: 'https://app.vendor.example/back' });
    const { linkPath } = await post(consumer, { apis: ['Banking'] });
    const done = await call(s.app, 'POST', linkPath, form({ integrationid: '10000' }));
    expect(done.status).toBe(200);
    expect(done.text).toContain('Ponto');
  });

  it('records the request of a client request id against the connection it created', async () => {
    const consumer = await newConsumer();
    const res = await api('POST', connectionsPath(consumer), {
      body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
      headers: { 'x-chift-client-requestid': 'create-1' },
    });
    expect(res.status).toBe(200);
    const connectionid = connectionOf(consumer, 7010)?.connectionid ?? '';
    const lookup = await api(
      'GET',
      `${connectionPath(consumer, connectionid)}/transactions?client_request_id=create-1`,
    );
    expect(lookup.status).toBe(200);
    expect(ApiTransactionLookupOut.parse(lookup.body)).toEqual({
      created_on: expect.any(String),
      method: 'POST',
      route: connectionsPath(consumer),
      status_code: 200,
      created_entity_id: connectionid,
    });
    // The same request again answers the first result and creates nothing.
    const again = await api('POST', connectionsPath(consumer), {
      body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
      headers: { 'x-chift-client-requestid': 'create-1' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const connections = await api('GET', connectionsPath(consumer));
    expect(connections.body).toHaveLength(1);
  });

  describe('one active connection per consumer per integrationid', () => {
    it('POST refuses a second connection of an integration already active', async () => {
      const consumer = s.ids.verticalConsumers.ACCOUNTING ?? '';
      const before = counts();
      for (const body of [
        { integrationid: 1000 },
        { integrationid: 1000, credentials: LEDGERLINE_CREDENTIALS },
      ]) {
        expectError(
          await api('POST', connectionsPath(consumer), { body }),
          errors.connectionAlreadyActive(1000),
        );
      }
      expect(counts()).toEqual(before);
    });

    it('an inactive connection does not count: a new one can be made active', async () => {
      const consumer = s.ids.pendingConsumerId;
      await post(consumer, { integrationid: 9012, credentials: TILLWISE_CREDENTIALS });
      expect((await list(consumer)).map((c) => c.status).sort()).toEqual(['active', 'inactive']);
      // ... but then the old inactive one cannot become active too.
      const pending = (await list(consumer)).find((c) => c.status === 'inactive');
      const res = await api('PATCH', connectionPath(consumer, pending?.connectionid ?? ''), {
        body: { credentials: TILLWISE_CREDENTIALS },
      });
      expectError(res, errors.connectionAlreadyActive(9012));
      expect(world.connections[pending?.connectionid ?? '']?.status).toBe('inactive');
    });

    it('of two pending links of the same integration, only the first completed wins', async () => {
      const consumer = await newConsumer();
      const a = await post(consumer, { integrationid: 7023 });
      const b = await post(consumer, { integrationid: 7023 });
      const creds = { credentials: { username: 'u', password: 'p' } };
      expect((await call(s.app, 'POST', a.linkPath, { body: creds })).status).toBe(200);
      expectError(
        await call(s.app, 'POST', b.linkPath, { body: creds }),
        errors.connectionAlreadyActive(7023),
      );
      expect(world.connections[b.connectionid ?? '']?.status).toBe('inactive');
      expect((await call(s.app, 'GET', b.linkPath)).status).toBe(200);
    });

    it('a choice link cannot add a second active connection either', async () => {
      const consumer = s.ids.verticalConsumers.ACCOUNTING ?? '';
      const { linkPath } = await post(consumer, { apis: ['Accounting'] });
      const res = await call(s.app, 'POST', linkPath, {
        body: { integrationid: 1000, credentials: { api_key: 'k', company_code: 'c' } },
      });
      expectError(res, errors.connectionAlreadyActive(1000));
    });
  });

  const bad = (overrides: Record<string, unknown>) => ({
    integrationid: 1000,
    credentials: LEDGERLINE_CREDENTIALS,
    ...overrides,
  });

  it.each([
    ['an unknown integrationid', { integrationid: 999999 }, errors.integrationInvalid()],
    ['an inactive integration', { integrationid: 90103 }, errors.integrationInvalid()],
    ['a name without integrationid', { name: 'Books' }, errors.integrationInvalid()],
    [
      'credentials without integrationid',
      { credentials: LEDGERLINE_CREDENTIALS },
      errors.integrationInvalid(),
    ],
    [
      'post connections without integrationid',
      { post_connections: LEDGERLINE_POST },
      errors.integrationInvalid(),
    ],
    [
      'datetimes without integrationid',
      { datetimes: [{ key: 'start', value: '2024-01-01T00:00:00Z' }] },
      errors.integrationInvalid(),
    ],
    ['an invalid country code', { country: 'XX' }, errors.countryCodeInvalid('XX')],
    ['a three-letter country code', { country: 'BEL' }, errors.countryCodeInvalid('BEL')],
    ['an empty country code', { country: '' }, errors.countryCodeInvalid('')],
    [
      'a country no integration of the apis supports',
      { country: 'US', apis: ['Banking'] },
      errors.countryNotSupported('US'),
    ],
    [
      'a country no integration of the apis supports (lower case)',
      { country: 'jp', apis: ['Banking'] },
      errors.countryNotSupported('jp'),
    ],
    [
      'a missing mandatory credential',
      bad({ credentials: [{ key: 'api_key', value: 'k' }] }),
      errors.missingCredential(),
    ],
    [
      'an empty mandatory credential',
      bad({
        credentials: [
          { key: 'api_key', value: 'k' },
          { key: 'company_code', value: ' ' },
        ],
      }),
      errors.missingCredential(),
    ],
    ['an empty credentials list', bad({ credentials: [] }), errors.missingCredential()],
    [
      'an unknown credential',
      bad({ credentials: [...LEDGERLINE_CREDENTIALS, { key: 'pin', value: '1' }] }),
      errors.missingCredential(),
    ],
    [
      'a credential set on the connector',
      {
        integrationid: 90101,
        credentials: [
          { key: 'username', value: 'u' },
          { key: 'password', value: 'p' },
          { key: 'environment_url', value: 'x' },
        ],
      },
      errors.missingCredential(),
    ],
    ['an empty post connections list', bad({ post_connections: [] }), errors.missingPostConnection()],
    [
      'a mandatory post connection left out',
      bad({ post_connections: [{ key: 'analytic_plans', value: 'p' }] }),
      errors.missingPostConnection(),
    ],
    [
      'an unknown post connection',
      bad({ post_connections: [...LEDGERLINE_POST, { key: 'vat_code', value: 'x' }] }),
      errors.missingPostConnection(),
    ],
    [
      'a date without time',
      bad({ datetimes: [{ key: 'history_start', value: '2024-01-01' }] }),
      errors.invalidDatetime('history_start'),
    ],
    [
      'a date-time that does not exist',
      bad({ datetimes: [{ key: 'from', value: '2024-13-01T00:00:00Z' }] }),
      errors.invalidDatetime('from'),
    ],
    [
      'words as a date-time',
      bad({
        datetimes: [
          { key: 'a', value: '2024-01-01T00:00:00Z' },
          { key: 'b', value: 'yesterday' },
        ],
      }),
      errors.invalidDatetime('b'),
    ],
    // The documented order: the datetimes' format before the integration, the one-active rule before the credentials.
    [
      'a bad datetime and an unknown integration',
      { integrationid: 999999, datetimes: [{ key: 'k', value: 'x' }] },
      errors.invalidDatetime('k'),
    ],
    [
      'an active integration and missing credentials',
      { integrationid: 1000, credentials: [] },
      errors.connectionAlreadyActive(1000),
      'ACCOUNTING',
    ],
  ])('refuses %s with the exact message, writing nothing', async (_n, body, error, vertical?: string) => {
    const consumer = vertical ? (s.ids.verticalConsumers[vertical] ?? '') : await newConsumer();
    const before = counts();
    expectError(await api('POST', connectionsPath(consumer), { body }), error);
    expect(counts()).toEqual(before);
  });

  it('the detail names what is missing or unknown', async () => {
    const consumer = await newConsumer();
    const missing = await api('POST', connectionsPath(consumer), {
      body: bad({ credentials: [{ key: 'api_key', value: 'k' }] }),
    });
    expect(missing.body.detail).toContain("'company_code'");
    const unknown = await api('POST', connectionsPath(consumer), {
      body: bad({ post_connections: [{ key: 'nope', value: 'x' }] }),
    });
    expect(unknown.body.detail).toContain("'nope'");
  });

  it.each([
    '2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00+02:00',
    '2024-02-29T23:59:59.123Z',
    '2024-01-01T08:30:00',
  ])('accepts the ISO 8601 date-time %s', async (value) => {
    const consumer = await newConsumer();
    const { connectionid } = await post(
      consumer,
      bad({ datetimes: [{ key: 'history_start', value }], post_connections: LEDGERLINE_POST }),
    );
    expect(world.connections[connectionid ?? '']?.datetimes).toEqual({ history_start: value });
  });

  it('a missing consumer is 404 before anything else', async () => {
    expectError(
      await api('POST', connectionsPath(MISSING), {
        body: { integrationid: 999999, datetimes: [{ key: 'k', value: 'x' }] },
      }),
      errors.consumerNotFound(),
    );
  });

  it.each([
    [
      'a name over 80 characters',
      { integrationid: 1000, name: 'n'.repeat(81) },
      ['body', 'name'],
      'string_too_long',
    ],
    ['a text integrationid', { integrationid: 'abc' }, ['body', 'integrationid'], 'int_parsing'],
    ['an unknown api', { apis: ['Payroll'] }, ['body', 'apis', 0], 'enum'],
    // A text pydantic reads as a boolean ('yes', 'on', '1'...) is no refusal of the service.
    ['a text redirect', { redirect: 'maybe' }, ['body', 'redirect'], 'bool_parsing'],
    [
      'a credential without value',
      { integrationid: 1000, credentials: [{ key: 'api_key' }] },
      ['body', 'credentials', 0, 'value'],
      'missing',
    ],
    [
      'a credential given twice',
      bad({ credentials: [...LEDGERLINE_CREDENTIALS, { key: 'api_key', value: 'x' }] }),
      ['body', 'credentials', 2, 'key'],
      'value_error',
    ],
    ['a list as body', [1], ['body'], 'model_attributes_type'],
  ])('%s is a 422 validation error', async (_n, body, loc, type) => {
    const consumer = await newConsumer();
    expectValidation(await api('POST', connectionsPath(consumer), { body }), loc, type);
  });
});

describe('PATCH connections', () => {
  const pendingConnection = () => connectionOf(s.ids.pendingConsumerId, 9012)?.connectionid ?? '';

  it('complete credentials make an inactive connection active; the answer is a link', async () => {
    const consumer = s.ids.pendingConsumerId;
    const connectionid = pendingConnection();
    const res = await api('PATCH', connectionPath(consumer, connectionid), {
      body: {
        name: 'Front desk',
        credentials: TILLWISE_CREDENTIALS,
        post_connections: [{ key: 'location', value: 'L1' }],
      },
    });
    expect(res.status).toBe(200);
    expect(LinkItem.parse(res.body).url).toMatch(/^http:\/\/localhost\/link\//);
    expect(await list(consumer)).toMatchObject([{ connectionid, name: 'Front desk', status: 'active' }]);
    expect(world.connections[connectionid]?.post_connections).toEqual({ location: 'L1' });
  });

  it.each([
    ['no body', {}],
    ['a null body', { rawBody: 'null', headers: { 'content-type': 'application/json' } }],
    ['a name only', { body: { name: 'Renamed' } }],
  ])('with %s: a link to update the connection, which stays as it is', async (_n, options) => {
    const consumer = s.ids.pendingConsumerId;
    const connectionid = pendingConnection();
    const res = await api('PATCH', connectionPath(consumer, connectionid), options);
    expect(res.status).toBe(200);
    const link = world.links[new URL(res.body.url).pathname.split('/')[2] ?? ''];
    expect(link).toMatchObject({ consumerid: consumer, connectionid, integrationid: 9012, redirect: false });
    expect(world.connections[connectionid]?.status).toBe('inactive');
  });

  it('the update link of an active connection replaces its credentials; redirect=true goes back', async () => {
    const consumer = await newConsumer({ redirect_url: 'https://app.vendor.example/back' });
    const { connectionid } = await post(consumer, {
      integrationid: 7010,
      credentials: [{ key: 'api_token', value: 'old' }],
    });
    const res = await api('PATCH', connectionPath(consumer, connectionid ?? ''), {
      body: { redirect: true },
    });
    const linkPath = new URL(res.body.url).pathname;
    const page = await call(s.app, 'GET', linkPath);
    expect(page.text).toContain('Update Evoliz');
    const done = await call(s.app, 'POST', linkPath, form({ 'credential:7010:api_token': 'new' }));
    expect(done.status).toBe(303);
    expect(world.connections[connectionid ?? '']?.credentials).toEqual({ api_token: 'new' });
  });

  it('datetimes are merged by key, a blank name falls back to the integration name', async () => {
    const consumer = await newConsumer();
    const { connectionid } = await post(consumer, {
      integrationid: 7010,
      name: 'Invoices',
      datetimes: [{ key: 'a', value: '2024-01-01T00:00:00Z' }],
    });
    const path = connectionPath(consumer, connectionid ?? '');
    await api('PATCH', path, {
      body: { name: ' ', datetimes: [{ key: 'b', value: '2025-01-01T00:00:00Z' }] },
    });
    expect(world.connections[connectionid ?? '']).toMatchObject({
      name: 'Evoliz',
      datetimes: { a: '2024-01-01T00:00:00Z', b: '2025-01-01T00:00:00Z' },
    });
  });

  it.each([
    ['a connectionid that is not a uuid', 'pending', 'not-a-uuid', {}, errors.connectionIdInvalid()],
    ['an unknown connection', 'pending', MISSING, {}, errors.connectionNotFound()],
    ['a connection of another consumer', 'pending', 'retired', {}, errors.connectionNotFound()],
    ['a missing consumer (checked first)', 'missing', 'not-a-uuid', {}, errors.consumerNotFound()],
    [
      'a connection of an integration no longer active',
      'retired',
      'retired',
      {},
      errors.connectionsNotRetrieved(),
    ],
    [
      'incomplete credentials',
      'pending',
      'pending',
      { credentials: [{ key: 'client_id', value: 'x' }] },
      errors.missingCredential(),
    ],
    [
      'an unknown credential',
      'pending',
      'pending',
      { credentials: [...TILLWISE_CREDENTIALS, { key: 'x', value: 'y' }] },
      errors.missingCredential(),
    ],
    [
      'post connections without the mandatory one',
      'pending',
      'pending',
      { post_connections: [] },
      errors.missingPostConnection(),
    ],
    [
      'a bad datetime',
      'pending',
      'pending',
      { datetimes: [{ key: 'since', value: '01/02/2024' }] },
      errors.invalidDatetime('since'),
    ],
    [
      'a bad datetime and a retired integration',
      'retired',
      'retired',
      { datetimes: [{ key: 'since', value: 'x' }] },
      errors.invalidDatetime('since'),
    ],
  ])(
    'refuses %s with the exact message, changing nothing',
    async (_n, consumerRole, connectionRole, body, error) => {
      const consumers: Record<string, string> = {
        pending: s.ids.pendingConsumerId,
        retired: s.ids.retiredConsumerId,
        missing: MISSING,
      };
      const connections: Record<string, string> = {
        pending: pendingConnection(),
        retired: connectionOf(s.ids.retiredConsumerId, 90103)?.connectionid ?? '',
      };
      const connectionid = connections[connectionRole] ?? connectionRole;
      const snapshot = JSON.stringify({ connections: world.connections, links: world.links });
      expectError(
        await api('PATCH', connectionPath(consumers[consumerRole] ?? '', connectionid), { body }),
        error,
      );
      expect(JSON.stringify({ connections: world.connections, links: world.links })).toBe(snapshot);
    },
  );

  it('a name over 80 characters is a 422 validation error', async () => {
    const res = await api('PATCH', connectionPath(s.ids.pendingConsumerId, pendingConnection()), {
      body: { name: 'n'.repeat(81) },
    });
    expectValidation(res, ['body', 'name'], 'string_too_long');
  });
});

describe('DELETE connections', () => {
  it('deletes the connection with its transactions and links', async () => {
    const consumer = await newConsumer();
    const { connectionid, linkPath } = await post(consumer, { integrationid: 9012 });
    const path = connectionPath(consumer, connectionid ?? '');
    await api('PATCH', path, { body: { name: 'x' }, headers: { 'x-chift-client-requestid': 'r-del' } });
    expect(Object.values(world.transactions).some((t) => t.connectionid === connectionid)).toBe(true);

    const res = await api('DELETE', path);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await list(consumer)).toEqual([]);
    expect(Object.values(world.transactions).some((t) => t.connectionid === connectionid)).toBe(false);
    expect(Object.values(world.links).some((l) => l.connectionid === connectionid)).toBe(false);
    expectError(await call(s.app, 'GET', linkPath), errors.linkNotFound());
    expectError(await api('DELETE', path), errors.connectionNotFound());
  });

  it('an integration can be connected again once its active connection is deleted', async () => {
    const consumer = s.ids.verticalConsumers.ACCOUNTING ?? '';
    const existing = connectionOf(consumer, 1000)?.connectionid ?? '';
    expect((await api('DELETE', connectionPath(consumer, existing))).status).toBe(204);
    await post(consumer, { integrationid: 1000, credentials: LEDGERLINE_CREDENTIALS });
    expect((await list(consumer)).map((c) => c.status)).toEqual(['active']);
  });

  it.each([
    [
      'a connectionid that is not a uuid',
      (s) => s.ids.pendingConsumerId,
      () => '12',
      errors.connectionIdInvalid(),
    ],
    ['an unknown connection', (s) => s.ids.pendingConsumerId, () => MISSING, errors.connectionNotFound()],
    [
      'a connection of another consumer',
      (s) => s.ids.pendingConsumerId,
      () => connectionOf(s.ids.retiredConsumerId, 90103)?.connectionid ?? '',
      errors.connectionNotFound(),
    ],
    ['a missing consumer', () => MISSING, () => MISSING, errors.consumerNotFound()],
  ] as [string, (s: TestSandbox) => string, () => string, ReturnType<typeof errors.consumerNotFound>][])(
    'refuses %s',
    async (_n, consumerOf, connectionOfCase, error) => {
      const before = counts();
      expectError(await api('DELETE', connectionPath(consumerOf(s), connectionOfCase())), error);
      expect(counts()).toEqual(before);
    },
  );
});

describe('GET connection transactions', () => {
  it('finds a PATCH sent with a client request id; a repeat replays the first answer', async () => {
    const consumer = s.ids.pendingConsumerId;
    const connectionid = connectionOf(consumer, 9012)?.connectionid ?? '';
    const path = connectionPath(consumer, connectionid);
    const headers = { 'x-chift-client-requestid': 'r1' };
    const first = await api('PATCH', path, { body: { name: 'First' }, headers });
    expect(first.status).toBe(200);

    const lookup = await api('GET', `${path}/transactions?client_request_id=r1`);
    expect(lookup.status).toBe(200);
    expect(ApiTransactionLookupOut.parse(lookup.body)).toEqual({
      created_on: s.app.services.clock.now().toISOString(),
      method: 'PATCH',
      route: path,
      status_code: 200,
      created_entity_id: null,
    });

    const links = counts().links;
    const again = await api('PATCH', path, { body: { name: 'Second' }, headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(counts().links).toBe(links);
    expect(world.connections[connectionid]?.name).toBe('First');
  });

  it.each([
    ['an unknown client request id', 'pending', 'nope'],
    ['a connection of another consumer', 'retired', 'r1'],
    ['an unknown connection', 'missing', 'r1'],
  ])('404 for %s', async (_n, connectionRole, requestId) => {
    const consumer = s.ids.pendingConsumerId;
    const own = connectionOf(consumer, 9012)?.connectionid ?? '';
    await api('PATCH', connectionPath(consumer, own), {
      body: {},
      headers: { 'x-chift-client-requestid': 'r1' },
    });
    const connectionid =
      connectionRole === 'pending'
        ? own
        : connectionRole === 'retired'
          ? (connectionOf(s.ids.retiredConsumerId, 90103)?.connectionid ?? '')
          : MISSING;
    const res = await api(
      'GET',
      `${connectionPath(consumer, connectionid)}/transactions?client_request_id=${requestId}`,
    );
    expectError(res, errors.transactionNotFound());
  });

  it('a transaction of a consumer is not found through another consumer', async () => {
    const retired = s.ids.retiredConsumerId;
    const connectionid = connectionOf(retired, 90103)?.connectionid ?? '';
    // A refused PATCH is recorded too (the service records the answer, whatever it was).
    await api('PATCH', connectionPath(retired, connectionid), {
      body: {},
      headers: { 'x-chift-client-requestid': 'r9' },
    });
    const own = await api(
      'GET',
      `${connectionPath(retired, connectionid)}/transactions?client_request_id=r9`,
    );
    expect(own.body.status_code).toBe(400);
    const other = await api(
      'GET',
      `${connectionPath(s.ids.pendingConsumerId, connectionid)}/transactions?client_request_id=r9`,
    );
    expectError(other, errors.transactionNotFound());
  });

  it('422 without client_request_id or with a malformed connection id; 404 for a missing consumer', async () => {
    const consumer = s.ids.pendingConsumerId;
    const own = connectionOf(consumer, 9012)?.connectionid ?? '';
    expectValidation(
      await api('GET', `${connectionPath(consumer, own)}/transactions`),
      ['query', 'client_request_id'],
      'missing',
    );
    expectValidation(
      await api('GET', `${connectionPath(consumer, 'x')}/transactions?client_request_id=a`),
      ['path', 'connection_id'],
      'uuid_parsing',
    );
    expectError(
      await api('GET', `${connectionPath(MISSING, own)}/transactions?client_request_id=a`),
      errors.consumerNotFound(),
    );
  });
});

describe('the link page', () => {
  it.each([
    ['an unknown link', `/link/${MISSING}`],
    ['a malformed link id', '/link/whatever'],
    ['a name of Object.prototype', '/link/constructor'],
  ])('%s is 404 on GET and POST', async (_n, path) => {
    expectError(await call(s.app, 'GET', path), errors.linkNotFound());
    expectError(await call(s.app, 'POST', path, { body: { credentials: {} } }), errors.linkNotFound());
  });

  it.each([
    [
      'a missing credential (form)',
      'fixed',
      form({ 'credential:9012:client_id': 'x' }),
      errors.missingCredential(),
    ],
    [
      'a missing credential (JSON)',
      'fixed',
      { body: { credentials: { client_id: 'x' } } },
      errors.missingCredential(),
    ],
    ['no body at all', 'fixed', {}, errors.missingCredential()],
    [
      'an unknown credential',
      'fixed',
      { body: { credentials: { client_id: 'x', client_secret: 'y', z: '1' } } },
      errors.missingCredential(),
    ],
    [
      'another integration than the link',
      'fixed',
      { body: { integrationid: 9000, credentials: { token: 't' } } },
      errors.integrationInvalid(),
    ],
    ['no integration chosen', 'choice', { body: { credentials: {} } }, errors.integrationInvalid()],
    [
      'an integrationid that is not a number',
      'choice',
      form({ integrationid: 'abc' }),
      errors.integrationInvalid(),
    ],
    [
      'an inactive integration',
      'choice',
      { body: { integrationid: 90103, credentials: { api_key: 'k' } } },
      errors.integrationInvalid(),
    ],
  ])('refuses %s with the exact message; the link stays open', async (_n, kind, options, error) => {
    const consumer = await newConsumer();
    const { linkPath } = await post(consumer, kind === 'fixed' ? { integrationid: 9012 } : {});
    const before = counts();
    expectError(await call(s.app, 'POST', linkPath, options), error);
    expect(counts()).toEqual(before);
    expect((await call(s.app, 'GET', linkPath)).status).toBe(200);
  });

  it('a body that is neither JSON nor a form is refused with 415', async () => {
    const { linkPath } = await post(await newConsumer(), { integrationid: 9012 });
    const res = await call(s.app, 'POST', linkPath, {
      rawBody: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, errors.unsupportedMediaType());
  });

  it('links use the configured public url', async () => {
    const other = sandbox({ publicUrl: 'https://sandbox.vendor.example' });
    const res = await call(other.app, 'POST', connectionsPath(other.ids.pendingConsumerId), {
      token: await sandboxToken(other),
      body: {},
    });
    expect(res.body.url).toMatch(/^https:\/\/sandbox\.vendor\.example\/link\/[0-9a-f-]{36}$/);
  });
});

describe('access', () => {
  it('a production token on a sandbox consumer (and the reverse) is 401 wrong environment', async () => {
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    const sandboxConsumer = s.ids.pendingConsumerId;
    const connectionid = connectionOf(sandboxConsumer, 9012)?.connectionid ?? '';
    for (const [method, path] of [
      ['GET', connectionsPath(sandboxConsumer)],
      ['POST', connectionsPath(sandboxConsumer)],
      ['PATCH', connectionPath(sandboxConsumer, connectionid)],
      ['DELETE', connectionPath(sandboxConsumer, connectionid)],
      ['GET', `${connectionPath(sandboxConsumer, connectionid)}/transactions?client_request_id=a`],
    ] as const) {
      expectError(await call(s.app, method, path, { token: production }), errors.wrongEnvironment());
    }
    expectError(await api('GET', connectionsPath(s.ids.productionConsumerId)), errors.wrongEnvironment());
    expect(
      (await call(s.app, 'GET', connectionsPath(s.ids.productionConsumerId), { token: production })).status,
    ).toBe(200);
    expect(world.connections[connectionid]).toBeDefined();
  });

  it("another account's consumer does not exist", async () => {
    expectError(await api('GET', connectionsPath(s.ids.otherAccountConsumerId)), errors.consumerNotFound());
  });

  it('the restricted key reaches its own consumer only', async () => {
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const own = s.ids.restricted.consumerId;
    const ownList = await call(s.app, 'GET', connectionsPath(own), { token: restricted });
    expect(ownList.status).toBe(200);
    expect((ownList.body as { integrationid: number }[]).map((c) => c.integrationid)).toEqual([1000]);
    const created = await call(s.app, 'POST', connectionsPath(own), {
      token: restricted,
      body: { integrationid: 7010 },
    });
    expect(created.status).toBe(200);

    const other = s.ids.pendingConsumerId;
    const connectionid = connectionOf(other, 9012)?.connectionid ?? '';
    for (const [method, path] of [
      ['GET', connectionsPath(other)],
      ['POST', connectionsPath(other)],
      ['PATCH', connectionPath(other, connectionid)],
      ['DELETE', connectionPath(other, connectionid)],
    ] as const) {
      expectError(await call(s.app, method, path, { token: restricted }), errors.consumerNotFound());
    }
    expect(world.connections[connectionid]).toBeDefined();
  });

  it('MCP tokens: read scope lists, write scope needed to change, bound to their consumer', async () => {
    const consumer = s.ids.pendingConsumerId;
    const mint = async (scopes: string[]) => {
      const res = await api('POST', '/mcp-token', {
        body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId: consumer, scopes },
      });
      expect(res.status).toBe(200);
      return res.body.access_token as string;
    };
    const reader = await mint(['connections.read']);
    expect((await call(s.app, 'GET', connectionsPath(consumer), { token: reader })).status).toBe(200);
    expectError(
      await call(s.app, 'POST', connectionsPath(consumer), { token: reader, body: {} }),
      errors.scopeDenied(['connections']),
    );
    expectError(
      await call(s.app, 'GET', connectionsPath(s.ids.retiredConsumerId), { token: reader }),
      errors.mcpConsumerDenied(),
    );
    const writer = await mint(['connections']);
    expect((await call(s.app, 'POST', connectionsPath(consumer), { token: writer, body: {} })).status).toBe(
      200,
    );
  });

  it('requests without a token are refused', async () => {
    expectError(await call(s.app, 'GET', connectionsPath(s.ids.pendingConsumerId)), errors.missingToken());
  });

  it('deleting a consumer removes its connections, links and transactions', async () => {
    const consumer = await newConsumer();
    const { connectionid, linkPath } = await post(consumer, { integrationid: 9012 });
    await api('PATCH', connectionPath(consumer, connectionid ?? ''), {
      body: {},
      headers: { 'x-chift-client-requestid': 'gone' },
    });
    expect((await api('DELETE', `/consumers/${consumer}`)).status).toBe(204);
    expect(Object.values(world.connections).some((c) => c.consumerid === consumer)).toBe(false);
    expect(Object.values(world.links).some((l) => l.consumerid === consumer)).toBe(false);
    expect(Object.values(world.transactions).some((t) => t.connectionid === connectionid)).toBe(false);
    expectError(await api('GET', connectionsPath(consumer)), errors.consumerNotFound());
    expectError(await call(s.app, 'GET', linkPath), errors.linkNotFound());
  });
});

describe('schemas of the group', () => {
  // Field lists and required flags of the reference's schemas; the sandbox adds two optional fields.
  it.each([
    [
      'ConnectionItem',
      ['connectionid', 'name', 'integration', 'integrationid', 'api', 'data', 'status', 'agent'],
      ['connectionid', 'name', 'integration', 'integrationid', 'api', 'status'],
    ],
    ['LocalAgentInfo', ['status'], ['status']],
    [
      'PostConnectionItem',
      [
        'integrationid',
        'name',
        'credentials',
        'country',
        'redirect',
        'apis',
        'post_connections',
        'datetimes',
      ],
      [],
    ],
    ['PatchConnectionItem', ['redirect', 'name', 'credentials', 'post_connections', 'datetimes'], []],
    ['CredentialItem', ['key', 'value'], ['key', 'value']],
    ['LinkItem', ['url'], ['url']],
    [
      'ApiTransactionLookupOut',
      ['created_on', 'method', 'route', 'status_code', 'created_entity_id'],
      ['created_on', 'method', 'route', 'status_code'],
    ],
  ])('%s has the fields and required fields of the reference', async (name, fields, required) => {
    const ours = (await call(s.app, 'GET', '/openapi.json')).body.components.schemas[name];
    expect(Object.keys(ours.properties).sort()).toEqual([...fields].sort());
    expect([...(ours.required ?? [])].sort()).toEqual([...required].sort());
  });

  it.each([
    ['ConnectionStatus', ['active', 'inactive']],
    ['LocalAgentStatus', ['up', 'down']],
    ['HTTPMethod', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']],
  ])('%s has the values of the reference', async (name, values) => {
    const ours = (await call(s.app, 'GET', '/openapi.json')).body.components.schemas[name];
    expect(ours.enum).toEqual(values);
  });

  it('every operation has the reference operationId', async () => {
    const paths = (await call(s.app, 'GET', '/openapi.json')).body.paths;
    expect(paths['/consumers/{consumer_id}/connections'].get.operationId).toBe('connections_get_connections');
    expect(paths['/consumers/{consumer_id}/connections'].post.operationId).toBe(
      'connections_create_connection',
    );
    expect(paths['/consumers/{consumer_id}/connections/{connectionid}'].patch.operationId).toBe(
      'connections_update_connection',
    );
    expect(paths['/consumers/{consumer_id}/connections/{connectionid}'].delete.operationId).toBe(
      'connections_delete_connection',
    );
    expect(paths['/consumers/{consumer_id}/connections/{connection_id}/transactions'].get.operationId).toBe(
      'get_transaction_by_client_request_id_consumers__consumer_id__connections__connection_id__transactions_get',
    );
    expect(paths['/consumers/{consumer_id}/connections'].post.security).toContainEqual({
      mcp_auth: ['connections'],
    });
  });
});
