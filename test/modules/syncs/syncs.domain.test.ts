import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { ApiError } from '../../../src/lib/errors.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
import * as ex from '../../../src/modules/syncs/executions.domain.js';
import * as ff from '../../../src/modules/syncs/flow-fields.js';
import type { SimServices } from '../../../src/modules/syncs/simulation/engine.js';
import * as d from '../../../src/modules/syncs/syncs.domain.js';
import type * as wire from '../../../src/modules/syncs/syncs.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { Ticker } from '../../../src/platform/ticker.js';
import type { Principal } from '../../../src/platform/tokens.js';
import { Store } from '../../../src/store/store.js';
import type { ExecutionRecord, FlowRecord, FlowTriggerRecord } from '../../../src/store/world.js';
import { refusal } from '../domain-helpers.js';

/** Sync, flow and execution rules called directly, each test on a store over the world of seed 7. */

const CATALOGUE = loadCatalogue();
const DIR = seedDirectory(7);
const IDS = automationDirectory(7);
const SC = DIR.syncConsumerId; // both connections, both flows of the main sync enabled
const ACC = DIR.verticalConsumers.ACCOUNTING as string; // set up for the main sync, no flow enabled
const INV = DIR.verticalConsumers.INVOICING as string; // not set up
const NOW = '2026-01-15T09:00:00.000Z';
const principal = (over: Partial<Principal> = {}): Principal => ({
  ...{ kind: 'api', clientid: 'key', accountid: DIR.accountId, envid: DIR.sandboxEnvId },
  ...{ consumers: null, mcp: null, ...over },
});
const only = (...ids: string[]) => principal({ consumers: new Set(ids) });
function get<T>(records: Record<string, T>, id: string): T {
  const found = records[id];
  if (!found) throw new Error(`no record ${id}`);
  return found;
}
/** Services of the test's own: a store over a fresh world, a manual clock, ids numbered from 1. */
function setup(at = NOW) {
  let n = 0;
  const ids = { next: (kind: string) => uuidFrom('domain-test', kind, ++n) };
  const ticker = new Ticker(
    async () => {},
    () => {},
  );
  const store = Store.memory(seedWorld(7));
  const s: SimServices & d.SyncDeps = {
    store,
    clock: manualClock(new Date(at)),
    ids,
    ticker,
    catalogue: CATALOGUE,
  };
  const w = store.world;
  const main = get(w.syncs, DIR.syncId);
  const [invoices, payments] = [get(w.flows, IDS.invoicesFlowId), get(w.flows, IDS.paymentsFlowId)];
  return { s, w, main, invoices, payments, consumer: (id: string) => get(w.consumers, id) };
}
const minted = (kind: string, n: number) => uuidFrom('domain-test', kind, n);
const api = (status: number, message: string, detail = '', code?: string) => ({
  status,
  message,
  detail,
  code,
});
const invalid = (loc: (string | number)[], msg: string) => ({
  ...{ status: 422, issues: [{ loc, msg, type: 'value_error' }] },
});
const NO_SYNC = api(404, 'The sync does not exist');
const NO_FLOW = api(404, 'The flow does not exist');
const NO_EXECUTION = api(404, 'The execution does not exist');
const NOT_ACTIVATED = api(404, 'The flow is not yet activated for this consumer');
const OTHER_ENV = 'The API key of this token does not belong to the environment of this resource';
const WRONG_ENV = api(401, OTHER_ENV, '', 'ERROR_SERVICE_AUTHENTICATION_ERROR');
const notInSync = (id: string) => api(400, `${id} is not part of the selected integrations of the sync`);
const badCountry = (code: string) => api(400, `${code} is not a valid country code.`);
const unsupported = (code: string) => api(400, `No integration supports country '${code}'`);
const NO_CONSUMERS = (detail: string) => api(400, 'No consumers found', detail);
const badType = (name: string, type: string) =>
  api(422, `Error while validating context data; the field ${name} does not seem to be of type ${type}`);
const NEEDS = 'Impossible to enable the flow as the flow requires configuration fields';
const needs = (...names: string[]) => api(400, NEEDS, `Missing: ${names.join(', ')}`);
const noTrigger = (id: string, known: string) =>
  invalid(['body', 'triggerid'], `The flow has no trigger '${id}' (its triggers: ${known})`);
const DEFAULTS = { visible: true, definitionFields: null, options: null, priority: 'NORMAL' as const };
type Kind = 'event' | 'timer';
const trig = (id = 'trigger-1', type: Kind = 'event', cronschedules: string[] | null = null) =>
  ({ id, type, cronschedules, ...DEFAULTS }) as FlowTriggerRecord;
const flowIn = (over: Partial<wire.CreateFlowInput> = {}): wire.CreateFlowInput =>
  ({
    name: 'F',
    execution: { type: 'code', data: null },
    triggers: [trig()],
    ...over,
  }) as wire.CreateFlowInput;

describe('lookups and lists', () => {
  it.each<[string, string, Partial<Principal>, object | null]>([
    ['its id in capitals', DIR.syncId.toUpperCase(), {}, null],
    ['an unknown id', '00000000-0000-4000-8000-000000000000', {}, NO_SYNC],
    ['__proto__', '__proto__', {}, NO_SYNC],
    ["another account's sync", IDS.otherAccountSyncId, {}, NO_SYNC],
    ['a sync of the other environment', DIR.syncId, { envid: DIR.productionEnvId }, WRONG_ENV],
  ])('a sync by %s', (_name, id, caller, expected) => {
    const { w, main } = setup();
    if (expected === null) expect(d.requireSync(w, principal(caller), id)).toBe(main);
    else expect(refusal(() => d.requireSync(w, principal(caller), id))).toEqual(expected);
  });

  it.each([
    ['an unknown id', 'nope'],
    ['constructor', 'constructor'],
    ['a flow of another sync', IDS.posSalesFlowId],
  ])('no flow for %s; a custom refusal when asked', (_name, id) => {
    const { w, main } = setup();
    expect(refusal(() => d.requireFlow(w, main, id))).toEqual(NO_FLOW);
    expect(refusal(() => d.requireFlow(w, main, id, () => new ApiError(400, 'x')))).toEqual(api(400, 'x'));
    expect(d.requireFlow(w, main, IDS.paymentsFlowId.toUpperCase()).name).toBe('Import payments');
  });

  it('lists syncs of the caller, flows of a sync, its One APIs in display order', () => {
    const { w, main } = setup();
    expect(d.syncsOf(w, principal()).map((s) => s.syncid)).toEqual([DIR.syncId, IDS.posSyncId]);
    expect(d.syncsOf(w, principal({ envid: DIR.productionEnvId }))).toEqual([]);
    expect(d.flowsOf(w, DIR.syncId).map((f) => f.flowid)).toEqual([IDS.invoicesFlowId, IDS.paymentsFlowId]);
    expect(d.apisOf(main)).toEqual(['Invoicing', 'Accounting']);
    const codes = [3, 1, null, 99, 1].map((one_api, i) => ({ one_api, display_order: 5 - i }));
    expect(d.apisOf({ ...main, connections: codes as never })).toEqual(['Accounting', 'eCommerce']);
  });

  it('shows the consumers of a sync that the caller may see', () => {
    const { w, main } = setup();
    expect(d.consumersOfSync(w, only(ACC), DIR.syncId)).toEqual([ACC]);
    const item = d.toReadSyncItem(w, principal(), main);
    expect([item.consumers, item.flows.map((f) => f.id)]).toEqual([
      [SC, ACC],
      d.flowsOf(w, DIR.syncId).map((f) => f.flowid),
    ]);
    expect(item.flows[1]?.triggers).toEqual([trig('trigger-1', 'timer', ['0 2 * * *', '0 */6 * * *'])]);
  });
});

describe('creating syncs and flows', () => {
  it('selects every active integration of its One APIs', () => {
    expect(d.defaultSelection(CATALOGUE, ['Banking', 'Payment'])).toEqual([7105, 7106, 10000]);
    expect(d.defaultSelection(CATALOGUE, ['Accounting'])).not.toContain(90103);
    expect(d.defaultSelection(CATALOGUE, [])).toEqual([]);
  });

  it('creates a sync with defaults, and its flows', () => {
    const { s, w } = setup();
    const flows = [flowIn(), flowIn({ name: 'G', description: 'g', config: { datastores: null } })];
    const sync = d.createSync(w, s, principal(), { name: 'S', connections: [{ one_api: 5 }, {}], flows });
    expect(sync).toMatchObject({ syncid: minted('sync', 1), config: null, integrationids: [10000] });
    const defaults = [5, null, 0, false, null, null, 0, false];
    expect([sync.mappings, sync.connections.flatMap((c) => Object.values(c))]).toEqual([[], defaults]);
    expect(d.flowsOf(w, sync.syncid).map((f) => [f.flowid, f.description, f.config, f.triggers])).toEqual([
      [minted('flow', 2), null, { datastores: [] }, [trig()]],
      [minted('flow', 3), 'g', { datastores: null }, [trig()]],
    ]);
  });

  it('refuses a trigger id used twice, before writing anything', () => {
    const { s, w, main } = setup();
    const before = JSON.stringify(w);
    const twice = [trig('a'), trig('b'), trig('b', 'timer')];
    const flows = [flowIn(), flowIn({ triggers: twice })];
    expect(refusal(() => d.createSync(w, s, principal(), { name: 'S', connections: [], flows }))).toEqual(
      invalid(['body', 'flows', 1, 'triggers', 2, 'id'], "The trigger id 'b' is used twice"),
    );
    expect(refusal(() => d.upsertFlow(w, s, main, flowIn({ triggers: twice })))).toEqual(
      invalid(['body', 'triggers', 2, 'id'], "The trigger id 'b' is used twice"),
    );
    expect(JSON.stringify(w)).toBe(before);
  });

  it('updates the flow of the same name in any letter case, else adds one', () => {
    const { s, w, main } = setup();
    const same = d.upsertFlow(w, s, main, flowIn({ name: 'IMPORT PAYMENTS', description: 'new' }));
    expect(same).toMatchObject({
      flowid: IDS.paymentsFlowId,
      description: 'new',
      created_on: '2026-01-02T09:05:00.000Z',
    });
    const added = d.upsertFlow(w, s, main, flowIn({ name: 'Another' }));
    expect(added).toMatchObject({ flowid: minted('flow', 1), created_on: NOW });
    expect(d.flowsOf(w, main.syncid)).toHaveLength(3);
  });
});

describe('consumers of a sync', () => {
  it.each<[string, string, string | null]>([
    ['with both connections', SC, null],
    ['without an invoicing connection', ACC, 'Invoicing'],
    ['without any connection', DIR.customConsumerId, 'Invoicing, Accounting'],
    ['with connections outside the selection', DIR.coverageLimitsConsumerId, 'Invoicing, Accounting'],
  ])('a consumer %s', (_name, consumerid, missing) => {
    const { w, main } = setup();
    const details = missing && `No active connection of the sync's integrations for: ${missing}`;
    expect(d.consumerSyncStatus(w, CATALOGUE, main, consumerid)).toEqual({
      ...{ status: missing ? 'inactive' : 'active', details },
    });
  });

  const ONE_PER_API = 'You can only provide one integrationid for each selected One API';
  const TWO_INVOICING = api(400, ONE_PER_API, '7010 and 7023 are both Invoicing integrations');
  it.each<[string[], number[] | object]>([
    [[], []],
    [[' 1000 ', '7010'], [1000, 7010] as number[]],
    [['7010', '07010'], [7010]],
    [['90102'], notInSync('90102')],
    [['abc'], notInSync('abc')],
    [['1e3'], notInSync('1e3')],
    [['-1000'], notInSync('-1000')],
    [['__proto__'], notInSync('__proto__')],
    [['7010', '7023'], TWO_INVOICING],
  ])('integrationids %j give %j', (given, expected) => {
    const { main } = setup();
    if (!Array.isArray(expected))
      expect(refusal(() => d.checkSyncIntegrations(CATALOGUE, main, given))).toEqual(expected);
    else
      expect(d.checkSyncIntegrations(CATALOGUE, main, given).map((i) => i.integrationid)).toEqual(expected);
  });

  it.each<[number[], string, object | null]>([
    [[7010], 'fr', null], // no country list: every country
    [[90101], 'be', null],
    [[90101], 'FR', unsupported('FR')],
    [[90103], 'BE', unsupported('BE')], // inactive integration
    [[7010], 'XX', badCountry('XX')],
    [[7010], 'BEL', badCountry('BEL')],
  ])('a sync of %j and the country %s', (integrationids, country, expected) => {
    const sync = { ...setup().main, integrationids };
    if (expected === null) expect(() => d.assertSyncCountry(CATALOGUE, sync, country)).not.toThrow();
    else expect(refusal(() => d.assertSyncCountry(CATALOGUE, sync, country))).toEqual(expected);
  });

  it('makes the link a consumer sets the sync up through', () => {
    const { s, w, main, consumer } = setup();
    const link = (id: string, input: Omit<wire.CreateConsumerSyncInput, 'syncid'>) =>
      d.createConsumerSyncLink(w, s, consumer(id), main, { syncid: main.syncid, ...input });
    const one = link(INV, { integrationids: ['1000'], country: 'XX', link_metadata: { a: 1 } });
    const apis = ['Invoicing', 'Accounting'];
    const linkid = minted('link', 1);
    const rest = { connectionid: null, country: null, redirect: true, created_on: NOW, completed_on: null };
    expect(one).toEqual({ linkid, consumerid: INV, integrationid: 1000, apis, ...rest });
    const record = get(w.consumer_syncs, `${INV}:${main.syncid}`);
    expect([record.link_createdon, record.link_metadata]).toEqual([NOW, { a: 1 }]);
    const two = link(ACC, { integrationids: ['1000', '7010'] });
    expect([two.integrationid, two.apis]).toEqual([null, ['Accounting', 'Invoicing']]);
    expect(get(w.consumer_syncs, `${ACC}:${main.syncid}`).link_createdon).toBe('2026-01-08T14:00:00.000Z');
    expect(link(ACC, { country: 'be' })).toMatchObject({ country: 'BE', apis });
  });

  it('refuses a link: a sync without flows, then the integrationids, then the country', () => {
    const { s, w, main, consumer } = setup();
    const empty = d.createSync(w, s, principal(), { name: 'S', connections: [] });
    const link = (sync = main, input: Omit<wire.CreateConsumerSyncInput, 'syncid'> = {}) =>
      refusal(() => d.createConsumerSyncLink(w, s, consumer(INV), sync, { syncid: sync.syncid, ...input }));
    expect(link(empty, { integrationids: ['x'] })).toEqual(NO_FLOW);
    expect(link(main, { integrationids: ['x'], country: 'XX' })).toEqual(notInSync('x'));
    expect(link(main, { country: 'XX' })).toEqual(badCountry('XX'));
    expect(w.consumer_syncs[`${INV}:${main.syncid}`]).toBeUndefined();
  });

  it('replaces the mappings once a flow is enabled', () => {
    const { w, main, consumer } = setup();
    const mappings = [{ name: 'VAT codes', values: [] }] as never[];
    d.replaceMappings(w, consumer(SC), main, mappings);
    expect(get(w.consumer_syncs, `${SC}:${main.syncid}`).link_mappings).toBe(mappings);
    expect(refusal(() => d.replaceMappings(w, consumer(ACC), main, mappings))).toEqual(NOT_ACTIVATED);
    expect(refusal(() => d.requireConsumerSync(w, INV, main))).toEqual(
      api(404, 'The consumer is not configured for this sync'),
    );
  });
});

describe('triggers, schedules and configuration fields', () => {
  const flow = (...triggers: FlowTriggerRecord[]) => ({ triggers }) as FlowRecord;
  it.each<[string, FlowRecord, string | null | undefined, string | object]>([
    ['the one named', flow(trig('a'), trig('b')), 'b', 'b'],
    ['trigger-1 by default', flow(trig('a'), trig('trigger-1')), undefined, 'trigger-1'],
    ['else the first', flow(trig('a'), trig('b')), null, 'a'],
    ['no such trigger', flow(trig('a'), trig('b')), 'c', noTrigger('c', 'a, b')],
    ['no trigger at all, named', flow(), 'c', noTrigger('c', 'none')],
    ['no trigger at all', flow(), undefined, invalid(['body', 'triggerid'], 'The flow has no trigger')],
  ])('picks %s', (_name, f, id, expected) => {
    if (typeof expected === 'string') expect(d.pickTrigger(f, id).id).toBe(expected);
    else expect(refusal(() => d.pickTrigger(f, id))).toEqual(expected);
  });

  const TWO = ['0 1 * * *', '0 2 * * *'];
  const badCron = (msg: string, what = 'trigger') =>
    invalid(['body', 'cronschedule'], `The ${what} 'x' ${msg}`);
  it.each<[string, FlowTriggerRecord, string | null | undefined, string | null | object]>([
    ['none for an event trigger', trig('e', 'event', TWO), '0 3 * * *', null],
    ['the one given among those offered', trig('x', 'timer', TWO), '0 2 * * *', '0 2 * * *'],
    ['the first offered by default', trig('x', 'timer', TWO), null, '0 1 * * *'],
    ['any given when none is offered', trig('x', 'timer', []), '*/5 * * * *', '*/5 * * * *'],
    [
      'not one offered',
      trig('x', 'timer', TWO),
      '0 3 * * *',
      badCron('offers these schedules only: 0 1 * * * | 0 2 * * *'),
    ],
    [
      'none given nor offered',
      trig('x', 'timer'),
      undefined,
      badCron('needs a cronschedule', 'timer trigger'),
    ],
  ])('schedules %s', (_name, trigger, given, expected) => {
    if (typeof expected !== 'object' || !expected) expect(d.pickSchedule(trigger, given)).toBe(expected);
    else expect(refusal(() => d.pickSchedule(trigger, given))).toEqual(expected);
  });

  it('reads field definitions: required unless optional, required false or a default', () => {
    const raw: Record<string, unknown>[] = [
      { name: 'a', type: 'string' },
      { name: 'b', optional: true },
    ];
    raw.push(
      { name: 'c', required: false, type: 5 },
      { name: 'd', default: null },
      { name: '' },
      { type: 'x' },
    );
    raw.push({ name: 'e', optional: 'yes' }, { name: 7 });
    const read = ff.fieldDefinitions(raw).map((f) => `${f.name} ${f.type} ${f.required} ${f.default}`);
    expect(read).toEqual(
      ['a string true undefined', 'b null false undefined', 'c null false undefined'].concat([
        'd null false null',
        'e null true undefined',
      ]),
    );
    expect(ff.fieldDefinitions(null)).toEqual([]);
  });

  it.each<[string | null, unknown[], unknown[]]>([
    ['string', ['', 'x'], [1, null]],
    ['TEXT', ['x'], [true]],
    ['email', ['a'], [1]],
    ['number', [1.5, -0], [Number.NaN, Number.POSITIVE_INFINITY, '1']],
    ['float', [2], ['2']],
    ['integer', [2, 2.0, -3], [2.5, '2']],
    ['int', [0], [0.1]],
    ['boolean', [false], ['true', 0]],
    ['checkbox', [true], [1]],
    ['date', ['2028-02-29', '2026-12-31'], ['2026-02-29', '2026-01-01T00:00:00Z', 20260101]],
    ['datetime', ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00'], ['2026-01-01', '2026-01-01 00:00:00Z']],
    ['date-time', ['2026-01-01T00:00:00+01:00'], ['x']],
    ['array', [[]], [{}]],
    ['multiselect', [['a']], ['a']],
    ['object', [{}], [[], null]],
    ['json', [{ a: 1 }], [[]]],
    ['colour', [1, null, {}], []],
    [null, [1, 'x'], []],
    ['__proto__', [1], []],
    ['constructor', ['x'], []],
  ])('type %s takes %j, refuses %j', (type, accepted, refused) => {
    expect(accepted.map((v) => ff.fitsType(type, v))).toEqual(accepted.map(() => true));
    expect(refused.map((v) => ff.fitsType(type, v))).toEqual(refused.map(() => false));
  });

  it('fills defaults of unset fields and checks values in the flow order', () => {
    const raw: Record<string, unknown>[] = [
      { name: 'a', type: 'integer' },
      { name: 'b', type: 'string' },
    ];
    raw.push(
      { name: 'c', type: 'boolean', default: true },
      { name: '__proto__', type: 'string', default: 'p' },
    );
    const fields = ff.fieldDefinitions(raw);
    const filled = ff.withDefaults(fields, { a: '', c: '' });
    expect([filled.a, filled.c, Object.getOwnPropertyDescriptor(filled, '__proto__')?.value]).toEqual([
      '',
      true,
      'p',
    ]);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    const check = (values: Record<string, unknown>, requireAll = true) =>
      refusal(() => ff.checkFieldValues(fields, values, { requireAll }));
    expect(check({ c: 1 })).toEqual(needs('a', 'b'));
    expect(check({ a: 'x' })).toEqual(badType('a', 'integer'));
    expect(check({ a: 1, c: 1 }, false)).toEqual(badType('c', 'boolean'));
    expect(() => ff.checkFieldValues(fields, { a: null, b: '' }, { requireAll: false })).not.toThrow();
  });
});

describe('enabling a flow for a consumer', () => {
  it('enables with defaults, sets the consumer up, keeps the first date on enabling again', () => {
    const { s, w, main, invoices, consumer } = setup();
    const enable = (data: Record<string, unknown>, integrationids: string[] = []) =>
      d.enableFlow(w, s, consumer(INV), main, invoices, { data, integrationids });
    expect(enable({ journal_code: 'VEN' }, ['7010'])).toEqual({
      newlyEnabled: true,
      record: {
        ...{ consumerid: INV, syncid: main.syncid, flowid: invoices.flowid, enabled: true, enabled_on: NOW },
        ...{ disabled_on: null, triggerid: 'trigger-1', cronschedule: null, integrationids: [7010] },
        ...{ values: { journal_code: 'VEN', days_back: 30 }, next_run_at: null },
      },
    });
    expect(get(w.consumer_syncs, `${INV}:${main.syncid}`).link_createdon).toBe(NOW);
    s.clock.advance(60);
    const again = enable({ journal_code: 'X', days_back: 0 });
    expect([again.newlyEnabled, again.record.enabled_on, again.record.values.days_back]).toEqual([
      false,
      NOW,
      0,
    ]);
    const disable = () => d.disableFlow(w, s, consumer(INV), invoices);
    expect([disable(), disable()]).toEqual([true, false]);
    const record = get(w.flow_consumers, `${INV}:${invoices.flowid}`);
    expect([record.enabled, record.disabled_on, record.next_run_at]).toEqual([
      false,
      '2026-01-15T09:01:00.000Z',
      null,
    ]);
    expect(enable({ journal_code: 'X' }).record.enabled_on).toBe('2026-01-15T09:01:00.000Z');
  });

  it.each<[string, wire.EnableFlowInput, object]>([
    [
      'an unknown trigger before a bad integration',
      { triggerid: 'x', integrationids: ['1'] },
      noTrigger('x', 'trigger-1'),
    ],
    ['a bad integration before missing fields', { integrationids: ['90102'] }, notInSync('90102')],
    ['a required field left empty', { data: { journal_code: '' } }, needs('journal_code')],
    ['a missing field before a later wrong type', { data: { post_payments: 'yes' } }, needs('journal_code')],
    [
      'an optional field of the wrong type',
      { data: { journal_code: 'V', post_payments: 1 } },
      badType('post_payments', 'boolean'),
    ],
    [
      'a trigger field of the wrong type',
      { data: { journal_code: 'V', invoice_number: 1 } },
      badType('invoice_number', 'string'),
    ],
  ])('refuses %s, writing nothing', (_name, input, expected) => {
    const { s, w, main, invoices, consumer } = setup();
    const before = JSON.stringify(w);
    expect(refusal(() => d.enableFlow(w, s, consumer(INV), main, invoices, input))).toEqual(expected);
    expect(JSON.stringify(w)).toBe(before);
  });

  it.each([
    ['0 2 * * *', NOW, '2026-01-16T02:00:00.000Z'],
    ['0 */6 * * *', NOW, '2026-01-15T12:00:00.000Z'],
    ['0 */6 * * *', '2026-01-15T12:00:00.000Z', '2026-01-15T18:00:00.000Z'], // strictly after
    ['*/15 * * * *', '2026-01-15T09:07:30.000Z', '2026-01-15T09:15:00.000Z'],
    ['0 9 * * MON', NOW, '2026-01-19T09:00:00.000Z'],
    ['0 9 15 * 1', NOW, '2026-01-19T09:00:00.000Z'], // day of month or of week
    ['0 9 20 * 1', '2026-01-19T09:00:00.000Z', '2026-01-20T09:00:00.000Z'],
    ['30 23 31 * *', NOW, '2026-01-31T23:30:00.000Z'],
    ['0 0 31 * *', '2026-01-31T00:00:00.000Z', '2026-03-31T00:00:00.000Z'],
    ['0 0 29 2 *', NOW, '2028-02-29T00:00:00.000Z'],
    ['@monthly', NOW, '2026-02-01T00:00:00.000Z'],
    ['@yearly', '2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z'],
    ['0 12 * DEC 7', NOW, '2026-12-06T12:00:00.000Z'],
  ])('a timer on %s, enabled at %s, runs next at %s', (cron, at, next) => {
    const { s, w, main, payments, consumer } = setup(at);
    payments.triggers[0]?.cronschedules?.splice(0);
    const { record } = d.enableFlow(w, s, consumer(INV), main, payments, { cronschedule: cron });
    expect([record.cronschedule, record.next_run_at]).toEqual([cron, next]);
  });

  it('updates the configuration of an enabled flow, and its trigger', () => {
    const { s, w, payments, invoices, consumer } = setup();
    const update = (f: FlowRecord, input: wire.UpdateFlowInput, id = SC) =>
      d.updateFlowConfig(w, s, consumer(id), f, input);
    expect(refusal(() => update(invoices, {}, INV))).toEqual(NOT_ACTIVATED);
    expect(update(invoices, { data: { post_payments: false, extra: 1 } }).values).toEqual({
      ...{ journal_code: 'VEN', post_payments: false, days_back: 30, extra: 1 },
    });
    const wrong = refusal(() => update(invoices, { data: { days_back: 1.5 } }));
    expect(wrong).toEqual(badType('days_back', 'integer'));
    expect(refusal(() => update(invoices, { triggerid: 'nope' }))).toEqual(noTrigger('nope', 'trigger-1'));
    payments.triggers.push(trig('late', 'timer', ['0 22 * * *']));
    const moved = update(payments, { triggerid: 'late' });
    expect(moved).toMatchObject({
      triggerid: 'late',
      cronschedule: '0 22 * * *',
      next_run_at: '2026-01-15T22:00:00.000Z',
    });
    s.clock.advance(86_400);
    const kept = update(payments, { triggerid: 'late', data: { start_date: '2026-01-01' } });
    expect(kept).toMatchObject({
      next_run_at: '2026-01-15T22:00:00.000Z',
      values: { start_date: '2026-01-01' },
    });
  });
});

describe('executions', () => {
  const E = (executionid: string, start: string, over: Partial<ExecutionRecord> = {}) =>
    ({
      executionid,
      start,
      parentexecutionid: 'c',
      end: start,
      settled: true,
      outcome: 'success',
      ...over,
    }) as ExecutionRecord;
  it.each<[ex.DateRange, boolean]>([
    [{}, true],
    [{ date_from: '2026-01-10T10:00:00Z' }, true],
    [{ date_from: '2026-01-10T10:00:00.001Z' }, false],
    [{ date_to: '2026-01-10T10:00:00Z' }, true],
    [{ date_to: '2026-01-10T09:59:59.999Z' }, false],
    [{ date_from: '2026-01-10', date_to: '2026-01-11' }, true],
    [{ date_from: '2026-01-11', date_to: '2026-01-09' }, false],
  ])('an execution started 2026-01-10T10:00Z in %j: %s', (range, expected) => {
    expect(ex.inDateRange(E('e', '2026-01-10T10:00:00.000Z'), range)).toBe(expected);
  });

  const [T7, T8, T9] = ['2026-01-15T07:00:00.000Z', '2026-01-15T08:00:00.000Z', '2026-01-15T09:00:20.000Z'];
  it.each<[string, ExecutionRecord[], [string, string, string | null]]>([
    ['all queued', [E('a', T9, { settled: false }), E('b', T9, { settled: false })], ['queued', T9, null]],
    ['one started', [E('a', T8, { settled: false }), E('b', T9, { settled: false })], ['running', T8, null]],
    ['one settled, one queued', [E('a', T8), E('b', T9, { settled: false })], ['running', T8, null]],
    ['all settled', [E('a', T8), E('b', T7, { end: T9 })], ['success', T7, T9]],
    ['settled, one failed', [E('a', T8), E('b', T7, { outcome: 'error' })], ['error', T7, T8]],
  ])('a chain %s', (_name, children, [status, start, end]) => {
    expect(ex.chainSummary('ch', children, new Date(NOW))).toEqual({
      id: 'ch',
      parentexecutionid: null,
      start,
      end,
      status,
    });
  });

  it.each([
    [1, 3, 3],
    [3, 3, 2],
    [4, 3, 0],
    [1, 100, 8],
  ])('lists page %i of size %i: %i of 8, newest first', (page, size, count) => {
    const { w, main } = setup();
    const list = (p: number, z: number) =>
      ex.listSyncExecutions(w, principal(), main, { page: p, size: z }, new Date(NOW));
    const all = list(1, 100).items;
    expect([list(page, size).total, list(page, size).items.length]).toEqual([8, count]);
    expect(list(page, size).items).toEqual(all.slice((page - 1) * size, page * size));
    expect(all.map((e) => e.start)).toEqual(
      all
        .map((e) => e.start)
        .sort()
        .reverse(),
    );
    expect(all[0]).toEqual({
      ...{
        id: '36540577-5fb1-4381-b425-03becc90eaa8',
        parentexecutionid: 'c7a79a64-63b6-4aea-961c-7e0e1794c945',
      },
      ...{ start: '2026-01-15T02:00:05.000Z', end: '2026-01-15T02:00:53.000Z', status: 'success' },
      ...{ consumer_id: SC, flow_id: IDS.paymentsFlowId },
    });
  });

  it('filters the executions by flow, date and caller', () => {
    const { w, main, payments } = setup();
    const total = (q: object, p = principal()) =>
      ex.listSyncExecutions(w, p, main, { page: 1, size: 50, ...q }, new Date(NOW)).total;
    expect([
      total({ flowid: IDS.invoicesFlowId.toUpperCase() }),
      total({ date_from: '2026-01-14' }),
      total({}, only(ACC)),
    ]).toEqual([5, 4, 0]);
    expect(refusal(() => total({ flowid: '__proto__' }))).toEqual(NO_FLOW);
    const range = { date_to: '2026-01-14T02:00:05Z' };
    expect(ex.listConsumerExecutions(w, SC, payments, range, new Date(NOW)).map((e) => e.status)).toEqual([
      'error',
      'success',
    ]);
  });

  it('finds an execution, a chain, or a consumer in a chain', () => {
    const { w, invoices } = setup();
    const find = (id: string, c?: string, p = principal()) =>
      ex.findExecution(w, p, invoices, id, c, new Date(NOW));
    const [run, chain] = ['328b0392-2319-4852-a507-a288756f308c', '3e92262e-8e92-402b-9318-5dda40a605c9'];
    const times = { start: '2026-01-14T10:00:05.000Z', end: '2026-01-14T10:00:44.000Z', status: 'error' };
    expect(find(run.toUpperCase(), SC.toUpperCase())).toEqual({
      id: run,
      parentexecutionid: chain,
      ...times,
    });
    expect(find(chain.toUpperCase())).toEqual({ id: chain, parentexecutionid: null, ...times });
    expect(find(chain, SC).id).toBe(run);
    const payment = '9f43d217-c50f-4490-ba3e-02d3810be381'; // of the other flow
    for (const [id, c, p] of [
      [run, ACC],
      [chain, ACC],
      ['__proto__'],
      [run, undefined, only(ACC)],
      [payment],
    ] as const)
      expect(refusal(() => find(id, c, p))).toEqual(NO_EXECUTION);
  });

  it('queues a custom event for the consumers named that enabled the flow', () => {
    const { s, w, main, invoices } = setup();
    const send = (input: wire.PostSyncFlowEventInput, p = principal()) =>
      ex.sendCustomEvent(s, p, main, invoices, input);
    const out = send({ consumers: [SC.toUpperCase(), SC, ACC, 'x'], data: { is_preview: true } });
    const [chain, run] = [minted('chain-execution', 1), minted('execution', 2)];
    expect(out).toEqual({
      ...{ status: 'success', message: 'The flow was triggered for 1 consumer' },
      data: {
        chainexecutionid: chain,
        executions: [{ consumerid: SC, executionid: run }],
        consumers_left_out: [ACC, 'x'],
      },
    });
    expect(get(w.executions, run)).toMatchObject({
      ...{ parentexecutionid: chain, trigger: 'event', is_preview: true, queued_at: NOW, settled: false },
      ...{ used_connectionid: '76986271-34e1-47cf-89d2-91a8cb78af05', start: '2026-01-15T09:00:05.000Z' },
    });
    expect(Object.keys(send({}).data ?? {})).toEqual(['chainexecutionid', 'executions']);
    expect(refusal(() => send({ consumers: [ACC] }))).toEqual(
      NO_CONSUMERS('None of the consumers given exists with this flow enabled'),
    );
    expect(refusal(() => send({}, only(ACC)))).toEqual(NO_CONSUMERS('No consumer has enabled this flow'));
    expect(refusal(() => send({ data: { invoice_number: 5 } as never }))).toEqual(
      badType('invoice_number', 'string'),
    );
  });

  it('opens a local run, then closes it as failed with an issue', () => {
    const { s, w, main, invoices } = setup();
    const report = (input: wire.LocalFlowRunInput, p = principal()) =>
      ex.reportLocalRun(s, p, main, invoices, input);
    const [chain, run] = [minted('chain-execution', 1), minted('execution', 2)];
    expect(report({ type: 'START' })).toEqual({
      ...{ status: 'success', message: 'A local run was opened for 1 consumer', published: 0 },
      data: { executionid: run, chainexecutionid: chain, executionids: [run] },
    });
    expect(ex.findExecution(w, principal(), invoices, chain, undefined, new Date(NOW))).toMatchObject({
      status: 'running',
      end: null,
    });
    expect(refusal(() => report({ type: 'END', chainexecutionid: 'nope' }))).toEqual(NO_EXECUTION);
    expect(refusal(() => report({ type: 'END' }))).toEqual(NO_EXECUTION);
    s.clock.advance(90);
    expect(
      report({ type: 'END', executionid: run.toUpperCase(), error: true, technical_error_message: 'boom' }),
    ).toEqual({
      ...{ status: 'success', message: 'The local run was closed as failed', published: 0 },
      data: { chainexecutionid: chain, status: 'error' },
    });
    expect(get(w.executions, run)).toMatchObject({
      ...{ end: '2026-01-15T09:01:30.000Z', outcome: 'error', settled: true },
      failure: { error_code: 'ERROR_LOCAL_EXECUTION', level: 'error', message: 'boom' },
    });
    const opened = Object.values(w.issues).filter((i) => i.error_code === 'ERROR_LOCAL_EXECUTION');
    expect(opened.map((i) => [i.consumerid, i.status, i.occurrences])).toEqual([[SC, 'open', 1]]);
    expect(refusal(() => report({ type: 'START' }, only(ACC)))).toEqual(
      NO_CONSUMERS('No consumer has enabled this flow'),
    );
  });
});
