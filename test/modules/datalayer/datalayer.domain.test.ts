import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import {
  assertConfigured,
  type DatalayerTarget,
  disableDatalayer,
  enableDatalayer,
  refreshDatalayer,
  requireDatalayerTarget,
} from '../../../src/modules/datalayer/datalayer.domain.js';
import { runSeconds, type SimServices } from '../../../src/modules/syncs/simulation/engine.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { Ticker } from '../../../src/platform/ticker.js';
import type { Principal } from '../../../src/platform/tokens.js';
import { Store } from '../../../src/store/store.js';
import { refusal } from '../domain-helpers.js';

/** The datalayer rules called directly, each test on a store of its own over the world of seed 7. */

const DIR = seedDirectory(7);
const CATALOGUE = loadCatalogue();
const SYNC_CONSUMER = DIR.syncConsumerId;
const SYNC_ODOO = '79d80066-329c-4d63-b946-28bdd07a2d1e'; // enabled in the seed
const SYNC_EVOLIZ = '76986271-34e1-47cf-89d2-91a8cb78af05';
const ACCOUNTING = DIR.verticalConsumers.ACCOUNTING as string;
const ACCOUNTING_ODOO = '2afa7942-f7ef-4716-9f9e-92ab0ed45b46';
const ECOMMERCE = DIR.verticalConsumers.ECOMMERCE as string;
const ECOMMERCE_SHOP = 'aa249c72-aee5-4314-8d17-f89173b2179c';
const PENDING_ZELTY = 'cafefdb9-901b-4fa7-bf62-2cee2b9c93fe'; // inactive
const COVERAGE_INVOICING = 'caf1edaa-27c6-437c-9f3d-0f22f27adf3a'; // 90401, no datalayer
const OTHER_ODOO = 'ee98e36b-938a-4874-89e5-fdd1f0b8d6e8';

const principal = (over: Partial<Principal> = {}): Principal => ({
  ...{ kind: 'api', clientid: 'key', accountid: DIR.accountId, envid: DIR.sandboxEnvId },
  ...{ consumers: null, mcp: null, ...over },
});

/** Services of their own: a store over a fresh world, a manual clock, ids numbered from 1. */
function services(at = '2026-01-15T09:00:00.000Z'): SimServices {
  const store = Store.memory(seedWorld(7));
  let minted = 0;
  const ids = { next: (kind: string) => uuidFrom('domain-test', kind, ++minted) };
  const ticker = new Ticker(
    async () => {},
    () => {},
  );
  return { store, clock: manualClock(new Date(at)), ids, ticker, catalogue: CATALOGUE };
}
const target = (s: SimServices, consumer: string, connection: string, caller: Partial<Principal> = {}) =>
  requireDatalayerTarget(s.store.world, principal(caller), consumer, connection);

const NO_TARGET = {
  status: 404,
  message: 'The consumer or connection does not exist',
  detail: '',
  code: undefined,
};
const notConfigured = (detail: string) => ({
  ...{ status: 400, message: 'The datalayer is not configured on this account.', detail, code: undefined },
});
const NOT_ACTIVE = notConfigured('The connection is not active: the datalayer needs an active connection');
const NOT_ENABLED = notConfigured('The datalayer sync of this connection is not enabled');

describe('the consumer and connection of a datalayer', () => {
  it('are found by their ids in any letter case', () => {
    const s = services();
    const found = target(s, SYNC_CONSUMER.toUpperCase(), SYNC_ODOO.toUpperCase());
    expect([found.consumer.consumerid, found.connection.connectionid]).toEqual([SYNC_CONSUMER, SYNC_ODOO]);
  });

  it.each([
    ['an unknown consumer', '00000000-0000-4000-8000-000000000000', SYNC_ODOO, {}, NO_TARGET],
    ['__proto__ as consumer', '__proto__', SYNC_ODOO, {}, NO_TARGET],
    ['__proto__ as connection', SYNC_CONSUMER, '__proto__', {}, NO_TARGET],
    ['an unknown connection', SYNC_CONSUMER, '00000000-0000-4000-8000-000000000000', {}, NO_TARGET],
    ["another consumer's connection", SYNC_CONSUMER, ACCOUNTING_ODOO, {}, NO_TARGET],
    ["another account's consumer", DIR.otherAccountConsumerId, OTHER_ODOO, {}, NO_TARGET],
    [
      'a consumer outside a restricted key',
      SYNC_CONSUMER,
      SYNC_ODOO,
      { consumers: new Set(['x']) },
      NO_TARGET,
    ],
    [
      'a consumer of the other environment',
      DIR.productionConsumerId,
      SYNC_ODOO,
      {},
      {
        ...{ status: 401, detail: '', code: 'ERROR_SERVICE_AUTHENTICATION_ERROR' },
        message: 'The API key of this token does not belong to the environment of this resource',
      },
    ],
  ])('refuse %s', (_name, consumer, connection, caller, expected) => {
    expect(refusal(() => target(services(), consumer, connection, caller))).toEqual(expected);
  });
});

describe('where the datalayer is configured', () => {
  it.each([
    ['an accounting connection', SYNC_CONSUMER, SYNC_ODOO, 1000],
    ['an invoicing connection', SYNC_CONSUMER, SYNC_EVOLIZ, 7010],
  ])('on %s, answers its integration', (_name, consumer, connection, integrationid) => {
    const s = services();
    expect(assertConfigured(s.store.world, CATALOGUE, target(s, consumer, connection)).integrationid).toBe(
      integrationid,
    );
  });

  it.each<[string, string, string, (s: SimServices, t: DatalayerTarget) => void, string]>([
    [
      'a One API the account has not configured',
      ECOMMERCE,
      ECOMMERCE_SHOP,
      () => {},
      'The datalayer is not configured for the eCommerce One API (configured: Accounting, Point of Sale, Invoicing)',
    ],
    [
      'an integration without datalayer',
      DIR.coverageLimitsConsumerId,
      COVERAGE_INVOICING,
      () => {},
      'The integration Sandbox Invoicing Basic (90401) has no datalayer',
    ],
    [
      'an account with no settings at all',
      ACCOUNTING,
      ACCOUNTING_ODOO,
      (s) => {
        delete s.store.world.datalayer_settings[DIR.accountId];
      },
      'The datalayer is not configured for the Accounting One API (configured: none)',
    ],
    [
      'a connection of an unknown integration',
      ACCOUNTING,
      ACCOUNTING_ODOO,
      (_s, t) => {
        t.connection.integrationid = 424242;
      },
      'The integration of this connection is unknown',
    ],
  ])('refuses %s', (_name, consumer, connection, change, detail) => {
    const s = services();
    const t = target(s, consumer, connection);
    change(s, t);
    expect(refusal(() => assertConfigured(s.store.world, CATALOGUE, t))).toEqual(notConfigured(detail));
    expect(refusal(() => enableDatalayer(s, t, null))).toEqual(notConfigured(detail));
    expect(refusal(() => refreshDatalayer(s, t, null))).toEqual(notConfigured(detail));
    expect(refusal(() => disableDatalayer(s, t))).toEqual(notConfigured(detail));
  });
});

describe('enabling', () => {
  it('enables with the settings given, plans the 03:00 UTC run and queues a first run', () => {
    const s = services();
    const t = target(s, ACCOUNTING, ACCOUNTING_ODOO);
    const input = {
      from_date: '2025-06-01',
      fiscal_years_back: 2,
      full_history: true,
      entity_filter: { f: ['1'] },
    };
    const { record, execution } = enableDatalayer(s, t, input);
    expect(record).toEqual({
      ...{ connectionid: ACCOUNTING_ODOO, consumerid: ACCOUNTING, accountid: DIR.accountId },
      ...{
        envid: DIR.sandboxEnvId,
        enabled: true,
        enabled_on: '2026-01-15T09:00:00.000Z',
        disabled_on: null,
      },
      ...input,
      ...{ next_run_at: '2026-01-16T03:00:00.000Z', last_refresh_at: null },
    });
    expect(s.store.world.datalayer_syncs[ACCOUNTING_ODOO]).toBe(record);
    const id = uuidFrom('domain-test', 'execution', 1);
    expect(execution).toEqual({
      ...{ executionid: id, parentexecutionid: null, accountid: DIR.accountId, envid: DIR.sandboxEnvId },
      ...{ consumerid: ACCOUNTING, kind: 'datalayer', trigger: 'refresh', syncid: null, flowid: null },
      ...{
        used_connectionid: ACCOUNTING_ODOO,
        integrationid: 1000,
        is_preview: false,
        data: { initial: true },
      },
      ...{ queued_at: '2026-01-15T09:00:00.000Z', start: '2026-01-15T09:00:05.000Z' },
      end: new Date(Date.parse('2026-01-15T09:00:05.000Z') + runSeconds(id) * 1000).toISOString(),
      ...{ outcome: 'success', failure: null, settled: false },
    });
    expect(s.store.world.executions[id]).toBe(execution);
  });

  it('takes the defaults without settings', () => {
    const s = services();
    const { record } = enableDatalayer(s, target(s, ACCOUNTING, ACCOUNTING_ODOO), undefined);
    const { from_date, fiscal_years_back, full_history, entity_filter } = record;
    expect({ from_date, fiscal_years_back, full_history, entity_filter }).toEqual({
      ...{ from_date: null, fiscal_years_back: null, full_history: false, entity_filter: null },
    });
  });

  it.each([
    ['2026-01-15T02:59:59.999Z', '2026-01-15T03:00:00.000Z'],
    ['2026-01-15T03:00:00.000Z', '2026-01-16T03:00:00.000Z'],
    ['2026-01-15T03:00:30.000Z', '2026-01-16T03:00:00.000Z'],
    ['2026-12-31T23:59:00.000Z', '2027-01-01T03:00:00.000Z'],
    ['2028-02-28T12:00:00.000Z', '2028-02-29T03:00:00.000Z'],
  ])('enabled at %s, runs next at %s', (now, next) => {
    const s = services(now);
    expect(enableDatalayer(s, target(s, ACCOUNTING, ACCOUNTING_ODOO), null).record.next_run_at).toBe(next);
  });

  it('keeps the date it was enabled on and its last refresh when enabled again', () => {
    const s = services();
    const { record } = enableDatalayer(s, target(s, SYNC_CONSUMER, SYNC_ODOO), { full_history: true });
    expect([record.enabled_on, record.last_refresh_at, record.from_date, record.full_history]).toEqual([
      ...['2026-01-05T09:45:00.000Z', '2026-01-15T03:00:33.000Z', null, true],
    ]);
  });

  it('starts a new enabled_on after a disable, keeping the last refresh', () => {
    const s = services();
    const t = target(s, SYNC_CONSUMER, SYNC_ODOO);
    disableDatalayer(s, t);
    s.clock.advance(3600);
    const { record } = enableDatalayer(s, t, null);
    expect([record.enabled_on, record.disabled_on, record.last_refresh_at]).toEqual([
      ...['2026-01-15T10:00:00.000Z', null, '2026-01-15T03:00:33.000Z'],
    ]);
  });

  it('refuses an inactive connection, leaving the world as it was', () => {
    const s = services();
    const t = target(s, DIR.pendingConsumerId, PENDING_ZELTY);
    const before = JSON.stringify(s.store.world);
    expect(refusal(() => enableDatalayer(s, t, null))).toEqual(NOT_ACTIVE);
    expect(JSON.stringify(s.store.world)).toBe(before);
  });
});

describe('refreshing', () => {
  it.each([
    [{ force_from_date: '2025-03-01' }, { force_from_date: '2025-03-01' }],
    [{ force_from_date: null }, null],
    [{}, null],
    [null, null],
  ])('queues a run with %j: data %j', (input, data) => {
    const s = services();
    const execution = refreshDatalayer(s, target(s, SYNC_CONSUMER, SYNC_ODOO), input);
    expect([execution.kind, execution.trigger, execution.data, execution.queued_at]).toEqual([
      ...['datalayer', 'refresh', data, '2026-01-15T09:00:00.000Z'],
    ]);
  });

  it.each<[string, string, string, (s: SimServices) => void, object]>([
    ['a datalayer never enabled', ACCOUNTING, ACCOUNTING_ODOO, () => {}, NOT_ENABLED],
    [
      'a disabled datalayer',
      SYNC_CONSUMER,
      SYNC_ODOO,
      (s) => disableDatalayer(s, target(s, SYNC_CONSUMER, SYNC_ODOO)),
      NOT_ENABLED,
    ],
    [
      'an enabled datalayer whose connection went inactive',
      SYNC_CONSUMER,
      SYNC_ODOO,
      (s) => {
        const connection = s.store.world.connections[SYNC_ODOO];
        if (connection) connection.status = 'inactive';
      },
      NOT_ACTIVE,
    ],
  ])('refuses %s', (_name, consumer, connection, change, expected) => {
    const s = services();
    change(s);
    const count = Object.keys(s.store.world.executions).length;
    expect(refusal(() => refreshDatalayer(s, target(s, consumer, connection), null))).toEqual(expected);
    expect(Object.keys(s.store.world.executions)).toHaveLength(count);
  });
});

describe('disabling', () => {
  it('stops the refreshes of an enabled datalayer', () => {
    const s = services('2026-01-20T08:30:00.000Z');
    disableDatalayer(s, target(s, SYNC_CONSUMER, SYNC_ODOO));
    expect(s.store.world.datalayer_syncs[SYNC_ODOO]).toMatchObject({
      ...{ enabled: false, disabled_on: '2026-01-20T08:30:00.000Z', next_run_at: null },
      ...{ enabled_on: '2026-01-05T09:45:00.000Z', last_refresh_at: '2026-01-15T03:00:33.000Z' },
    });
  });

  it.each([
    ['never enabled', ACCOUNTING, ACCOUNTING_ODOO],
    ['on an inactive connection', DIR.pendingConsumerId, PENDING_ZELTY],
  ])('changes nothing for a datalayer %s', (_name, consumer, connection) => {
    const s = services();
    const before = JSON.stringify(s.store.world);
    disableDatalayer(s, target(s, consumer, connection));
    expect(JSON.stringify(s.store.world)).toBe(before);
  });

  it('changes nothing the second time', () => {
    const s = services();
    const t = target(s, SYNC_CONSUMER, SYNC_ODOO);
    disableDatalayer(s, t);
    s.clock.advance(60);
    disableDatalayer(s, t);
    expect(s.store.world.datalayer_syncs[SYNC_ODOO]?.disabled_on).toBe('2026-01-15T09:00:00.000Z');
  });
});
