import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors } from '../../../src/lib/errors.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
import {
  checkFieldValues,
  fieldDefinitions,
  fitsType,
  withDefaults,
} from '../../../src/modules/syncs/flow-fields.js';
import {
  LinkSyncItem,
  ReadFlowItem,
  ReadSyncItem,
  SyncConsumerItem,
} from '../../../src/modules/syncs/syncs.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import type { World } from '../../../src/store/world.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

/** Syncs, flows and consumer syncs through HTTP: the operations, their rules and their errors. */

let s: TestSandbox;
let token: string;
let world: World;
const auto = automationDirectory(SEED);
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  world = s.app.services.store.world;
});

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

async function newConsumer(name = 'Automation Consumer'): Promise<string> {
  const res = await api('POST', '/consumers', { body: { name } });
  expect(res.status).toBe(200);
  return res.body.consumerid as string;
}

/** Subscribes a webhook to an event, so that publishing it leaves a delivery in the outbox. */
async function subscribe(event: string): Promise<void> {
  const res = await api('POST', '/webhooks', { body: { event, url: `http://127.0.0.1:9/${event}` } });
  expect(res.status).toBe(200);
}

/** The payloads of an event written to the outbox. */
const published = (event: string) =>
  Object.values(world.webhook_deliveries)
    .filter((d) => d.event === event)
    .map((d) => JSON.parse(d.body) as Record<string, unknown>);

const flowPath = (consumerid: string, syncid: string, flowid: string, action = '') =>
  `/consumers/${consumerid}/syncs/${syncid}/flows/${flowid}${action}`;

const NEW_SYNC = {
  name: 'Orders to invoices',
  connections: [
    { one_api: 3, connection_type: 1 },
    { one_api: 4, connection_type: 2, display_order: 1 },
  ],
  mappings: [{ name: 'Payment methods' }],
  flows: [
    {
      name: 'Create invoices',
      execution: { type: 'code', data: { code: 'return 1;' } },
      config: { definitionFields: [{ name: 'prefix', type: 'string' }] },
      triggers: [{ id: 'trigger-1', type: 'event' }],
    },
    {
      name: 'Hourly check',
      execution: { type: 'module', data: { name: 'check' } },
      triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 * * * *'] }],
    },
  ],
};

describe('syncs', () => {
  it('lists the syncs of the environment with their flows and set-up consumers', async () => {
    const res = await api('GET', '/syncs');
    expect(res.status).toBe(200);
    const syncs = (res.body as unknown[]).map((item) => ReadSyncItem.parse(item));
    expect(syncs.map((sync) => sync.syncid)).toEqual([s.ids.syncId, auto.posSyncId]);
    const main = syncs[0];
    expect(main?.flows.map((f) => [f.id, f.triggers?.[0]?.type])).toEqual([
      [auto.invoicesFlowId, 'event'],
      [auto.paymentsFlowId, 'timer'],
    ]);
    expect(main?.flows[1]?.triggers?.[0]?.cronschedules).toEqual(['0 2 * * *', '0 */6 * * *']);
    expect(main?.consumers).toEqual([s.ids.syncConsumerId, s.ids.verticalConsumers.ACCOUNTING]);
    expect(main?.connections.map((c) => c.one_api)).toEqual([4, 1]);
  });

  it('keeps accounts, environments and restricted keys apart', async () => {
    const other = await tokenFor(s.app, { ...s.ids.otherAccount });
    const otherList = await call(s.app, 'GET', '/syncs', { token: other });
    expect(otherList.body.map((x: { syncid: string }) => x.syncid)).toEqual([auto.otherAccountSyncId]);
    expectError(await api('GET', `/syncs/${auto.otherAccountSyncId}`), errors.syncNotFound());

    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    expect((await call(s.app, 'GET', '/syncs', { token: production })).body).toEqual([]);
    const created = await call(s.app, 'POST', '/syncs', { token: production, body: NEW_SYNC });
    expect(created.status).toBe(200);
    expectError(await api('GET', `/syncs/${created.body.syncid}`), errors.wrongEnvironment());

    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const seen = await call(s.app, 'GET', `/syncs/${s.ids.syncId}`, { token: restricted });
    expect(seen.body.consumers).toEqual([]);
  });

  it('creates a sync with its flows; it is then listed and read', async () => {
    const res = await api('POST', '/syncs', { body: NEW_SYNC });
    expect(res.status).toBe(200);
    const sync = ReadSyncItem.parse(res.body);
    expect(sync).toMatchObject({
      name: 'Orders to invoices',
      consumers: [],
      mappings: [{ name: 'Payment methods' }],
    });
    expect(sync.connections).toEqual([
      { one_api: 3, connection_type: 1, display_order: 0, display_hidden: false },
      { one_api: 4, connection_type: 2, display_order: 1, display_hidden: false },
    ]);
    expect(sync.flows.map((f) => f.name)).toEqual(['Create invoices', 'Hourly check']);
    expect(sync.flows[0]?.triggers?.[0]).toMatchObject({
      id: 'trigger-1',
      type: 'event',
      priority: 'NORMAL',
    });
    // Its selection is every active integration of its One APIs.
    const catalogue = loadCatalogue();
    const expected = [...catalogue.activeOf('eCommerce'), ...catalogue.activeOf('Invoicing')].map(
      (i) => i.integrationid,
    );
    expect(world.syncs[sync.syncid]?.integrationids?.slice().sort()).toEqual(expected.sort());
    expect(expected).toEqual(expect.arrayContaining([90301, 7010, 7023]));
    const again = await api('GET', `/syncs/${sync.syncid.toUpperCase()}`);
    expect(again.body).toEqual(res.body);
    expect((await api('GET', '/syncs')).body.map((x: { syncid: string }) => x.syncid)).toContain(sync.syncid);
  });

  const badSyncs: [string, unknown, (string | number)[], string?][] = [
    ['an empty name', { ...NEW_SYNC, name: '' }, ['body', 'name'], 'string_too_short'],
    ['no connections', { name: 'x' }, ['body', 'connections'], 'missing'],
    [
      'an unknown One API code',
      { name: 'x', connections: [{ one_api: 42 }] },
      ['body', 'connections', 0, 'one_api'],
    ],
    [
      'an invalid cron schedule',
      {
        name: 'x',
        connections: [],
        flows: [
          {
            name: 'f',
            execution: { type: 'code', data: null },
            triggers: [{ id: 't', type: 'timer', cronschedules: ['61 * * * *'] }],
          },
        ],
      },
      ['body', 'flows', 0, 'triggers', 0, 'cronschedules', 0],
      'value_error',
    ],
    [
      'an unknown trigger type',
      {
        name: 'x',
        connections: [],
        flows: [
          { name: 'f', execution: { type: 'code', data: null }, triggers: [{ id: 't', type: 'weekly' }] },
        ],
      },
      ['body', 'flows', 0, 'triggers', 0, 'type'],
      'enum',
    ],
    [
      'a trigger id used twice',
      {
        name: 'x',
        connections: [],
        flows: [
          {
            name: 'f',
            execution: { type: 'code', data: null },
            triggers: [
              { id: 't', type: 'event' },
              { id: 't', type: 'timer', cronschedules: ['@daily'] },
            ],
          },
        ],
      },
      ['body', 'flows', 0, 'triggers', 1, 'id'],
      'value_error',
    ],
    [
      'an unknown execution type',
      {
        name: 'x',
        connections: [],
        flows: [{ name: 'f', execution: { type: 'script', data: null }, triggers: [] }],
      },
      ['body', 'flows', 0, 'execution', 'type'],
      'enum',
    ],
    [
      'a config key beyond datalayer and presync',
      { name: 'x', connections: [], config: { other: 1 } },
      ['body', 'config', 'other'],
      'extra_forbidden',
    ],
  ];
  it.each(badSyncs)('POST /syncs refuses %s (422) and creates nothing', async (_label, body, loc, type) => {
    const before = Object.keys(world.syncs).length;
    expectValidation(await api('POST', '/syncs', { body }), loc, type);
    expect(Object.keys(world.syncs).length).toBe(before);
  });

  it.each([
    ['not a uuid', 'not-a-uuid'],
    ['an unknown uuid', MISSING],
  ])('GET /syncs/{syncid} with %s is a 404', async (_label, syncid) => {
    expectError(await api('GET', `/syncs/${syncid}`), errors.syncNotFound());
  });

  it('POST /syncs/{syncid}/flows adds a flow, then updates the flow of the same name', async () => {
    const body = {
      name: 'Refresh contacts',
      description: 'first',
      execution: { type: 'code', data: { code: 'x' } },
      triggers: [{ id: 'trigger-1', type: 'event' }],
    };
    const created = await api('POST', `/syncs/${s.ids.syncId}/flows`, { body });
    expect(created.status).toBe(200);
    const flow = ReadFlowItem.parse(created.body);
    expect(flow).toMatchObject({
      name: 'Refresh contacts',
      description: 'first',
      config: { datastores: [] },
    });
    const updated = await api('POST', `/syncs/${s.ids.syncId}/flows`, {
      body: {
        ...body,
        name: 'REFRESH CONTACTS',
        description: 'second',
        triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['*/15 * * * *'] }],
      },
    });
    expect(updated.body).toMatchObject({ id: flow.id, description: 'second', triggers: [{ type: 'timer' }] });
    const sync = await api('GET', `/syncs/${s.ids.syncId}`);
    expect(sync.body.flows.filter((f: { id: string }) => f.id === flow.id)).toHaveLength(1);
    expectError(await api('POST', `/syncs/${MISSING}/flows`, { body }), errors.syncNotFound());
    expectValidation(
      await api('POST', `/syncs/${s.ids.syncId}/flows`, { body: { name: 'x' } }),
      ['body', 'execution'],
      'missing',
    );
  });
});

describe('consumer syncs', () => {
  const linkPath = (consumerid: string) => `/consumers/${consumerid}/syncs`;

  it('hands out a link to the sync; the consumer is then set up for it', async () => {
    const consumerid = await newConsumer();
    expectError(await api('GET', `${linkPath(consumerid)}/${s.ids.syncId}`), errors.consumerNotInSync());
    const res = await api('POST', linkPath(consumerid), {
      body: { syncid: s.ids.syncId, link_metadata: { crm: 'A-1' } },
    });
    expect(res.status).toBe(200);
    const { url } = LinkSyncItem.parse(res.body);
    const linkid = url.split('/link/')[1] as string;
    expect(world.links[linkid]).toMatchObject({
      consumerid,
      integrationid: null,
      apis: ['Invoicing', 'Accounting'],
    });
    const page = await call(s.app, 'GET', `/link/${linkid}`);
    expect(page.status).toBe(200);

    const setup = SyncConsumerItem.parse((await api('GET', `${linkPath(consumerid)}/${s.ids.syncId}`)).body);
    expect(setup).toMatchObject({
      syncid: s.ids.syncId,
      sync_name: 'Invoices to accounting',
      status: 'inactive',
      link_createdon: '2026-01-15T09:00:00.000Z',
      link_metadata: { crm: 'A-1' },
      enabled_flows: [],
    });
    expect(setup.status_details).toMatch(/Invoicing, Accounting/);
    expect((await api('GET', `/syncs/${s.ids.syncId}`)).body.consumers).toContain(consumerid);
  });

  it('a link for one integration leads to that integration; a country narrows the others', async () => {
    const consumerid = await newConsumer();
    const one = await api('POST', linkPath(consumerid), {
      body: { syncid: s.ids.syncId, integrationids: ['1000'], country: 'XX' },
    });
    expect(one.status).toBe(200);
    expect(world.links[one.body.url.split('/link/')[1]]).toMatchObject({
      integrationid: 1000,
      country: null,
    });
    const country = await api('POST', linkPath(consumerid), {
      body: { syncid: s.ids.syncId, country: 'lu' },
    });
    expect(world.links[country.body.url.split('/link/')[1]]).toMatchObject({
      integrationid: null,
      country: 'LU',
    });
  });

  const linkErrors: [string, () => { consumer?: string; body: Record<string, unknown> }, ApiError][] = [
    [
      'an unknown consumer',
      () => ({ consumer: MISSING, body: { syncid: s.ids.syncId } }),
      errors.consumerNotFound(),
    ],
    ['an unknown sync', () => ({ body: { syncid: MISSING } }), errors.syncNotFound()],
    ["another account's sync", () => ({ body: { syncid: auto.otherAccountSyncId } }), errors.syncNotFound()],
    [
      'an integration outside the selection',
      () => ({ body: { syncid: s.ids.syncId, integrationids: ['90102'] } }),
      errors.integrationNotInSync('90102'),
    ],
    [
      'an integration that is not a number',
      () => ({ body: { syncid: s.ids.syncId, integrationids: ['abc'] } }),
      errors.integrationNotInSync('abc'),
    ],
    [
      'two integrations of one One API',
      () => ({ body: { syncid: s.ids.syncId, integrationids: ['1000', '90101'] } }),
      errors.oneIntegrationPerApi(),
    ],
    [
      'an invalid country code',
      () => ({ body: { syncid: s.ids.syncId, country: 'XX' } }),
      errors.countryCodeInvalid('XX'),
    ],
  ];
  it.each(linkErrors)('POST consumer syncs refuses %s and writes nothing', async (_label, make, error) => {
    const consumerid = await newConsumer();
    const { consumer, body } = make();
    const links = Object.keys(world.links).length;
    expectError(await api('POST', linkPath(consumer ?? consumerid), { body }), error);
    expect(Object.keys(world.links).length).toBe(links);
    expect(world.consumer_syncs[`${consumerid}:${s.ids.syncId}`]).toBeUndefined();
  });

  it('POST consumer syncs refuses a country no integration of the sync supports and writes nothing', async () => {
    // The one Banking integration states its countries; integrations of no stated country serve all.
    const banking = await api('POST', '/syncs', {
      body: { ...NEW_SYNC, name: 'Bank feed', connections: [{ one_api: 5, connection_type: 1 }] },
    });
    const consumerid = await newConsumer();
    const links = Object.keys(world.links).length;
    expectError(
      await api('POST', linkPath(consumerid), { body: { syncid: banking.body.syncid, country: 'JP' } }),
      errors.countryNotSupported('JP'),
    );
    expect(Object.keys(world.links).length).toBe(links);
    expect(world.consumer_syncs[`${consumerid}:${banking.body.syncid}`]).toBeUndefined();
  });

  it('POST consumer syncs on a sync without flows is 404 flow; a bad syncid is a validation error', async () => {
    const consumerid = await newConsumer();
    const empty = await api('POST', '/syncs', { body: { name: 'Empty', connections: [{ one_api: 1 }] } });
    expectError(
      await api('POST', linkPath(consumerid), { body: { syncid: empty.body.syncid } }),
      errors.flowNotFound(),
    );
    expectValidation(
      await api('POST', linkPath(consumerid), { body: { syncid: 'nope' } }),
      ['body', 'syncid'],
      'uuid_parsing',
    );
  });

  it("reads the seeded consumer's setup: active, mappings, enabled flows with trigger and values", async () => {
    const res = await api('GET', `${linkPath(s.ids.syncConsumerId)}/${s.ids.syncId}`);
    const setup = SyncConsumerItem.parse(res.body);
    expect(setup.status).toBe('active');
    expect(setup.status_details).toBeNull();
    expect(setup.link_mappings?.[0]?.values).toEqual([
      { source_id: '21', target_id: 'V21' },
      { source_id: '6', target_id: 'V06' },
    ]);
    expect(setup.enabled_flows?.map((f) => [f.id, f.trigger])).toEqual([
      [auto.invoicesFlowId, { id: 'trigger-1', type: 'event', cronschedule: null }],
      [auto.paymentsFlowId, { id: 'trigger-1', type: 'timer', cronschedule: '0 2 * * *' }],
    ]);
    const accounting = await api(
      'GET',
      `${linkPath(s.ids.verticalConsumers.ACCOUNTING as string)}/${s.ids.syncId}`,
    );
    expect(accounting.body).toMatchObject({
      status: 'inactive',
      status_details: expect.stringMatching(/Invoicing/),
    });
  });

  it('preview_executionid must be an execution of the consumer in the sync', async () => {
    const execution = Object.values(world.executions).find(
      (e) => e.consumerid === s.ids.syncConsumerId && e.syncid === s.ids.syncId,
    );
    const path = `${linkPath(s.ids.syncConsumerId)}/${s.ids.syncId}`;
    expect((await api('GET', `${path}?preview_executionid=${execution?.executionid}`)).status).toBe(200);
    expectError(await api('GET', `${path}?preview_executionid=${MISSING}`), errors.executionNotFound());
    expectValidation(
      await api('GET', `${path}?preview_executionid=x`),
      ['query', 'preview_executionid'],
      'uuid_parsing',
    );
  });

  it.each([
    ['an unknown consumer', () => `${linkPath(MISSING)}/${s.ids.syncId}`, errors.consumerNotFound()],
    ['an unknown sync', () => `${linkPath(s.ids.syncConsumerId)}/${MISSING}`, errors.syncNotFound()],
    [
      'a consumer not set up',
      () => `${linkPath(s.ids.multiFolderConsumerId)}/${s.ids.syncId}`,
      errors.consumerNotInSync(),
    ],
  ])('GET consumer sync: %s is a 404', async (_label, path, error) => {
    expectError(await api('GET', path()), error);
  });

  it.each([
    ['consumer_id', () => `${linkPath('x')}/${s.ids.syncId}`, ['path', 'consumer_id']],
    ['syncid', () => `${linkPath(s.ids.syncConsumerId)}/x`, ['path', 'syncid']],
  ])('GET consumer sync: a %s that is not a uuid is a validation error', async (_label, path, loc) => {
    expectValidation(await api('GET', path()), loc, 'uuid_parsing');
  });

  const MAPPINGS = [
    {
      name: 'VAT codes',
      values: [{ source_id: '21', target_id: 'V99' }],
      hidden_source_ids: ['0'],
      sub_mapping_name: 'Tax rate to VAT code',
    },
  ];

  it('PATCH replaces the mappings of a consumer with a flow enabled', async () => {
    const path = `${linkPath(s.ids.syncConsumerId)}/${s.ids.syncId}`;
    const res = await api('PATCH', path, { body: MAPPINGS });
    expect(res.status).toBe(204);
    expect((await api('GET', path)).body.link_mappings).toEqual(MAPPINGS);
    expect((await api('PATCH', path, { body: [] })).status).toBe(204);
    expect((await api('GET', path)).body.link_mappings).toEqual([]);
  });

  it.each([
    ['an object', { body: { name: 'x' } }],
    ['a string', { body: 'mappings' }],
    ['no body', {}],
  ])('PATCH consumer sync with %s: 422 The body should be a list', async (_label, options) => {
    const before = world.consumer_syncs[`${s.ids.syncConsumerId}:${s.ids.syncId}`]?.link_mappings;
    expectError(
      await api('PATCH', `${linkPath(s.ids.syncConsumerId)}/${s.ids.syncId}`, options),
      errors.bodyShouldBeList(),
    );
    expect(world.consumer_syncs[`${s.ids.syncConsumerId}:${s.ids.syncId}`]?.link_mappings).toEqual(before);
  });

  it('PATCH consumer sync: a list with a bad item is a validation error', async () => {
    const res = await api('PATCH', `${linkPath(s.ids.syncConsumerId)}/${s.ids.syncId}`, {
      body: [{ name: 'x' }],
    });
    expectValidation(res, ['body', 0, 'values'], 'missing');
  });

  it.each([
    [
      'a consumer without an enabled flow',
      () => s.ids.verticalConsumers.ACCOUNTING as string,
      () => s.ids.syncId,
      errors.flowNotActivated(),
    ],
    ['an unknown consumer', () => MISSING, () => s.ids.syncId, errors.consumerNotFound()],
    ['an unknown sync', () => s.ids.syncConsumerId, () => MISSING, errors.syncNotFound()],
  ])('PATCH consumer sync: %s is a 404', async (_label, consumer, sync, error) => {
    expectError(await api('PATCH', `${linkPath(consumer())}/${sync()}`, { body: MAPPINGS }), error);
  });
});

describe('flows of a consumer', () => {
  const enable = (consumerid: string, flowid: string, body: unknown, syncid = s.ids.syncId) =>
    api('POST', flowPath(consumerid, syncid, flowid, '/enable'), { body });

  it('enables a flow: defaults filled in, the consumer set up, account.flow.enabled published once', async () => {
    await subscribe('account.flow.enabled');
    const consumerid = await newConsumer();
    const res = await enable(consumerid, auto.invoicesFlowId, { data: { journal_code: 'VTE' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const setup = await api('GET', `/consumers/${consumerid}/syncs/${s.ids.syncId}`);
    expect(setup.body.enabled_flows).toEqual([
      expect.objectContaining({
        id: auto.invoicesFlowId,
        values: { journal_code: 'VTE', days_back: 30 },
        enabled_on: '2026-01-15T09:00:00.000Z',
        trigger: { id: 'trigger-1', type: 'event', cronschedule: null },
      }),
    ]);
    expect(published('account.flow.enabled')).toEqual([
      expect.objectContaining({
        event: 'account.flow.enabled',
        consumerid,
        accountid: s.ids.accountId,
        syncid: s.ids.syncId,
        flowid: auto.invoicesFlowId,
      }),
    ]);
    // Enabling again replaces the configuration but publishes nothing new.
    expect(
      (await enable(consumerid, auto.invoicesFlowId, { data: { journal_code: 'ACH', days_back: 5 } })).status,
    ).toBe(200);
    expect(published('account.flow.enabled')).toHaveLength(1);
    expect(world.flow_consumers[`${consumerid}:${auto.invoicesFlowId}`]?.values).toEqual({
      journal_code: 'ACH',
      days_back: 5,
    });
  });

  it('enables a timer flow on one of its schedules, the first by default, and schedules the next run', async () => {
    const consumerid = await newConsumer();
    expect((await enable(consumerid, auto.paymentsFlowId, { cronschedule: '0 */6 * * *' })).status).toBe(200);
    expect(world.flow_consumers[`${consumerid}:${auto.paymentsFlowId}`]).toMatchObject({
      cronschedule: '0 */6 * * *',
      next_run_at: '2026-01-15T12:00:00.000Z',
    });
    const other = await newConsumer();
    expect((await enable(other, auto.paymentsFlowId, {})).status).toBe(200);
    expect(world.flow_consumers[`${other}:${auto.paymentsFlowId}`]).toMatchObject({
      cronschedule: '0 2 * * *',
      next_run_at: '2026-01-16T02:00:00.000Z',
    });
  });

  const enableErrors: [
    string,
    () => { consumer?: string; sync?: string; flow?: string; body: unknown },
    ApiError,
  ][] = [
    [
      'a required field left unset',
      () => ({ body: { data: {} } }),
      errors.flowRequiresConfiguration(['journal_code']),
    ],
    [
      'a required field set to null',
      () => ({ body: { data: { journal_code: null } } }),
      errors.flowRequiresConfiguration(['journal_code']),
    ],
    [
      'a string field given a number',
      () => ({ body: { data: { journal_code: 12 } } }),
      errors.contextDataInvalid('journal_code', 'string'),
    ],
    [
      'a boolean field given a string',
      () => ({ body: { data: { journal_code: 'V', post_payments: 'yes' } } }),
      errors.contextDataInvalid('post_payments', 'boolean'),
    ],
    [
      'an integer field given a decimal',
      () => ({ body: { data: { journal_code: 'V', days_back: 1.5 } } }),
      errors.contextDataInvalid('days_back', 'integer'),
    ],
    [
      "a trigger's field of the wrong type",
      () => ({ body: { data: { journal_code: 'V', invoice_number: 7 } } }),
      errors.contextDataInvalid('invoice_number', 'string'),
    ],
    [
      'an integration outside the selection',
      () => ({ body: { data: { journal_code: 'V' }, integrationids: ['90102'] } }),
      errors.integrationNotInSync('90102'),
    ],
    [
      'an unknown consumer',
      () => ({ consumer: MISSING, body: { data: { journal_code: 'V' } } }),
      errors.consumerNotFound(),
    ],
    [
      'an unknown sync',
      () => ({ sync: MISSING, body: { data: { journal_code: 'V' } } }),
      errors.syncNotFound(),
    ],
    [
      'an unknown flow',
      () => ({ flow: MISSING, body: { data: { journal_code: 'V' } } }),
      errors.flowNotFound(),
    ],
    ['a flow of another sync', () => ({ flow: auto.posSalesFlowId, body: {} }), errors.flowNotFound()],
  ];
  it.each(enableErrors)('enable refuses %s and writes nothing', async (_label, make, error) => {
    const consumerid = await newConsumer();
    const { consumer, sync, flow, body } = make();
    const res = await enable(consumer ?? consumerid, flow ?? auto.invoicesFlowId, body, sync ?? s.ids.syncId);
    expectError(res, error);
    expect(world.flow_consumers[`${consumerid}:${flow ?? auto.invoicesFlowId}`]).toBeUndefined();
    expect(world.consumer_syncs[`${consumerid}:${s.ids.syncId}`]).toBeUndefined();
  });

  const enableValidation: [
    string,
    () => { flow?: string; path?: string; body?: unknown },
    (string | number)[],
    string?,
  ][] = [
    [
      'an unknown trigger',
      () => ({ body: { triggerid: 'trigger-9', data: { journal_code: 'V' } } }),
      ['body', 'triggerid'],
      'value_error',
    ],
    [
      'a schedule the trigger does not offer',
      () => ({ flow: auto.paymentsFlowId, body: { cronschedule: '5 5 * * *' } }),
      ['body', 'cronschedule'],
      'value_error',
    ],
    [
      'a schedule that is not cron',
      () => ({ flow: auto.paymentsFlowId, body: { cronschedule: 'every day' } }),
      ['body', 'cronschedule'],
      'value_error',
    ],
    ['no body', () => ({}), ['body'], 'missing'],
    [
      'a syncid that is not a uuid',
      () => ({ path: 'not-a-uuid', body: {} }),
      ['path', 'syncid'],
      'uuid_parsing',
    ],
  ];
  it.each(enableValidation)('enable with %s is a validation error', async (_label, make, loc, type) => {
    const consumerid = await newConsumer();
    const { flow, path, body } = make();
    const res = await api(
      'POST',
      flowPath(consumerid, path ?? s.ids.syncId, flow ?? auto.invoicesFlowId, '/enable'),
      body === undefined ? {} : { body },
    );
    expectValidation(res, loc, type);
    expect(world.consumer_syncs[`${consumerid}:${s.ids.syncId}`]).toBeUndefined();
  });

  it('the wrong environment is a 401, a consumer out of a restricted key a 404', async () => {
    const res = await enable(s.ids.productionConsumerId, auto.invoicesFlowId, {
      data: { journal_code: 'V' },
    });
    expectError(res, errors.wrongEnvironment());
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const out = await call(
      s.app,
      'POST',
      flowPath(s.ids.syncConsumerId, s.ids.syncId, auto.invoicesFlowId, '/disable'),
      {
        token: restricted,
      },
    );
    expectError(out, errors.consumerNotFound());
  });

  it('disables a flow: gone from the setup, account.flow.disabled published; again changes nothing', async () => {
    await subscribe('account.flow.disabled');
    const path = flowPath(s.ids.syncConsumerId, s.ids.syncId, auto.paymentsFlowId, '/disable');
    const res = await api('POST', path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const setup = await api('GET', `/consumers/${s.ids.syncConsumerId}/syncs/${s.ids.syncId}`);
    expect(setup.body.enabled_flows.map((f: { id: string }) => f.id)).toEqual([auto.invoicesFlowId]);
    expect(world.flow_consumers[`${s.ids.syncConsumerId}:${auto.paymentsFlowId}`]?.next_run_at).toBeNull();
    expect(published('account.flow.disabled')).toEqual([
      expect.objectContaining({
        consumerid: s.ids.syncConsumerId,
        syncid: s.ids.syncId,
        flowid: auto.paymentsFlowId,
      }),
    ]);
    expect((await api('POST', path)).status).toBe(200);
    expect(published('account.flow.disabled')).toHaveLength(1);
  });

  it.each([
    [
      'an unknown consumer',
      () => flowPath(MISSING, s.ids.syncId, auto.invoicesFlowId, '/disable'),
      errors.consumerNotFound(),
    ],
    [
      'an unknown sync',
      () => flowPath(s.ids.syncConsumerId, MISSING, auto.invoicesFlowId, '/disable'),
      errors.syncNotFound(),
    ],
    [
      'an unknown flow',
      () => flowPath(s.ids.syncConsumerId, s.ids.syncId, MISSING, '/disable'),
      errors.flowNotFound(),
    ],
  ])('disable: %s is a 404', async (_label, path, error) => {
    expectError(await api('POST', path()), error);
  });

  it('PATCH merges values into the configuration and may switch the trigger', async () => {
    const path = flowPath(s.ids.syncConsumerId, s.ids.syncId, auto.invoicesFlowId);
    const res = await api('PATCH', path, { body: { data: { days_back: 7, extra: 'kept' } } });
    expect(res.status).toBe(204);
    expect(world.flow_consumers[`${s.ids.syncConsumerId}:${auto.invoicesFlowId}`]?.values).toEqual({
      journal_code: 'VEN',
      post_payments: true,
      days_back: 7,
      extra: 'kept',
    });
    // The same trigger again, or none, keeps it.
    expect((await api('PATCH', path, { body: { triggerid: 'trigger-1' } })).status).toBe(204);
    expect(world.flow_consumers[`${s.ids.syncConsumerId}:${auto.invoicesFlowId}`]?.triggerid).toBe(
      'trigger-1',
    );
  });

  it.each([
    [
      'a value of the wrong type',
      () => ({ body: { data: { days_back: 'many' } } }),
      errors.contextDataInvalid('days_back', 'integer'),
    ],
    [
      'a flow not enabled for the consumer',
      () => ({ consumer: s.ids.verticalConsumers.ACCOUNTING as string, body: { data: {} } }),
      errors.flowNotActivated(),
    ],
    ['an unknown consumer', () => ({ consumer: MISSING, body: { data: {} } }), errors.consumerNotFound()],
    ['an unknown flow', () => ({ flow: MISSING, body: { data: {} } }), errors.flowNotFound()],
  ] as [string, () => { consumer?: string; flow?: string; body: unknown }, ApiError][])(
    'PATCH flow refuses %s and changes nothing',
    async (_label, make, error) => {
      const before = structuredClone(world.flow_consumers);
      const { consumer, flow, body } = make();
      const res = await api(
        'PATCH',
        flowPath(consumer ?? s.ids.syncConsumerId, s.ids.syncId, flow ?? auto.invoicesFlowId),
        { body },
      );
      expectError(res, error);
      expect(world.flow_consumers).toEqual(before);
    },
  );

  it('PATCH flow after a disable is 404 not activated; an unknown trigger is a validation error', async () => {
    const path = flowPath(s.ids.syncConsumerId, s.ids.syncId, auto.invoicesFlowId);
    expectValidation(
      await api('PATCH', path, { body: { triggerid: 'nope' } }),
      ['body', 'triggerid'],
      'value_error',
    );
    await api('POST', `${path}/disable`);
    expectError(await api('PATCH', path, { body: { data: { days_back: 1 } } }), errors.flowNotActivated());
  });
});

describe('flow configuration fields (unit)', () => {
  it.each([
    ['string', 'VEN', true],
    ['text', 12, false],
    ['number', 1.5, true],
    ['number', '1.5', false],
    ['integer', 3, true],
    ['int', 3.2, false],
    ['boolean', false, true],
    ['checkbox', 'true', false],
    ['date', '2026-01-31', true],
    ['date', '2026-02-31', false],
    ['datetime', '2026-01-31T10:00:00Z', true],
    ['date-time', '2026-01-31', false],
    ['array', ['a'], true],
    ['multiselect', 'a', false],
    ['object', { a: 1 }, true],
    ['json', [1], false],
    ['something-else', Symbol.for('anything'), true],
  ])('a %s field takes %j: %s', (type, value, expected) => {
    expect(fitsType(type, value)).toBe(expected);
  });

  const fields = fieldDefinitions([
    { name: 'a', type: 'string' },
    { name: 'b', type: 'integer', optional: true },
    { name: 'c', type: 'boolean', default: true },
    { name: 'd', type: 'string', required: false },
    { type: 'string' },
  ]);

  it('reads which fields are required, and fills in defaults', () => {
    expect(fields.map((f) => [f.name, f.required])).toEqual([
      ['a', true],
      ['b', false],
      ['c', false],
      ['d', false],
    ]);
    expect(withDefaults(fields, { a: 'x', c: '' })).toEqual({ a: 'x', c: true });
  });

  it('checks in the order of the fields: the first problem wins', () => {
    expect(() => checkFieldValues(fields, { b: 'x' }, { requireAll: true })).toThrow(
      errors.flowRequiresConfiguration(['a']).message,
    );
    expect(() => checkFieldValues(fields, { a: 1 }, { requireAll: true })).toThrow(
      errors.contextDataInvalid('a', 'string').message,
    );
    expect(() => checkFieldValues(fields, { b: 'x' }, { requireAll: false })).toThrow(
      errors.contextDataInvalid('b', 'integer').message,
    );
    expect(() => checkFieldValues(fields, { a: 'x', unknown: 1 }, { requireAll: true })).not.toThrow();
  });
});
