import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors } from '../../../src/lib/errors.js';
import { SEEDED_DATALAYER_APIS } from '../../../src/modules/syncs/automation.seed.js';
import { TriggerResponse } from '../../../src/modules/syncs/syncs.schemas.js';
import type { World } from '../../../src/store/world.js';
import {
  type CallOptions,
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

/**
 * The datalayer operations. It is available where the account has it configured for the
 * connection's One API (seeded: Accounting, Point of Sale and Invoicing on the main account, none
 * on the other) and the connection's integration offers it (features.datalayer).
 */

let s: TestSandbox;
let token: string;
let world: World;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  world = s.app.services.store.world;
});

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

async function advance(seconds: number): Promise<void> {
  expect((await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } })).status).toBe(
    200,
  );
  token = await sandboxToken(s);
}

/** The connection of a consumer to an integration (the seed makes one per pair). */
function connectionOf(consumerid: string, integrationid: number): string {
  const found = Object.values(world.connections).find(
    (c) => c.consumerid === consumerid && c.integrationid === integrationid,
  );
  if (!found) throw new Error(`no connection of ${consumerid} to ${integrationid}`);
  return found.connectionid;
}

const path = (consumerid: string, connectionid: string, op: 'enable' | 'refresh' | 'disable') =>
  `/consumers/${consumerid}/connections/${connectionid}/${op}_datalayer`;

const published = (event: string) =>
  Object.values(world.webhook_deliveries)
    .filter((d) => d.event === event)
    .map((d) => JSON.parse(d.body) as Record<string, unknown>);

describe('datalayer', () => {
  it('is seeded as configured for three One APIs of the main account', () => {
    expect(world.datalayer_settings[s.ids.accountId]?.apis).toEqual(SEEDED_DATALAYER_APIS);
    expect(world.datalayer_settings[s.ids.otherAccount.accountId]?.apis).toEqual([]);
  });

  it('enable: 200 {}, a first run that completes on the clock and publishes its end', async () => {
    expect(
      (
        await api('POST', '/webhooks', {
          body: { event: 'account.datalayer.sync.completed', url: 'http://127.0.0.1:9/d' },
        })
      ).status,
    ).toBe(200);
    const consumerid = s.ids.syncConsumerId;
    const connectionid = connectionOf(consumerid, 7010);
    const res = await api('POST', path(consumerid, connectionid, 'enable'), {
      body: { from_date: '2025-06-01', full_history: false, entity_filter: { folder_ids: ['f-1'] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(world.datalayer_syncs[connectionid]).toMatchObject({
      enabled: true,
      from_date: '2025-06-01',
      entity_filter: { folder_ids: ['f-1'] },
      next_run_at: '2026-01-16T03:00:00.000Z',
    });
    const run = Object.values(world.executions).find(
      (e) => e.kind === 'datalayer' && e.used_connectionid === connectionid,
    );
    expect(run).toMatchObject({ trigger: 'refresh', settled: false, consumerid });
    await advance(70);
    expect(world.executions[run?.executionid as string]?.settled).toBe(true);
    expect(world.datalayer_syncs[connectionid]?.last_refresh_at).toBe(run?.end);
    expect(published('account.datalayer.sync.completed')).toEqual([
      expect.objectContaining({ consumerid, connectionid, executionid: run?.executionid, status: 'success' }),
    ]);
  });

  it('an empty or null body enables with the defaults', async () => {
    const connectionid = connectionOf(s.ids.syncConsumerId, 7010);
    expect(
      (await api('POST', path(s.ids.syncConsumerId, connectionid, 'enable'), { body: null })).status,
    ).toBe(200);
    expect(world.datalayer_syncs[connectionid]).toMatchObject({ from_date: null, full_history: false });
    expect((await api('POST', path(s.ids.syncConsumerId, connectionid, 'enable'))).status).toBe(200);
  });

  it('refresh: a TriggerResponse with the execution; a failure opens an issue, the next success closes it', async () => {
    const consumerid = s.ids.syncConsumerId;
    const connectionid = connectionOf(consumerid, 1000);
    await api('POST', '/__sandbox/failures', {
      body: { consumerid, error_code: 'ERROR_AUTHENTICATION_FAILED' },
    });
    const res = await api('POST', path(consumerid, connectionid, 'refresh'), {
      body: { force_from_date: '2025-12-01' },
    });
    expect(res.status).toBe(200);
    const answer = TriggerResponse.parse(res.body);
    const executionid = answer.data?.executionid as string;
    expect(answer).toMatchObject({ status: 'success', data: { connectionid } });
    expect(world.executions[executionid]).toMatchObject({
      kind: 'datalayer',
      data: { force_from_date: '2025-12-01' },
      outcome: 'error',
    });
    await advance(70);
    const issue = Object.values(world.issues).find((i) => i.datalayer_of === connectionid);
    expect(issue).toMatchObject({
      status: 'open',
      error_code: 'ERROR_AUTHENTICATION_FAILED',
      integration_id: 1000,
      connection_id: connectionid,
    });
    expect((await api('POST', path(consumerid, connectionid, 'refresh'))).status).toBe(200);
    await advance(70);
    expect(world.issues[issue?.issue_id as string]?.status).toBe('closed');
  });

  it('runs every day at 03:00 UTC while enabled, not once disabled', async () => {
    const consumerid = s.ids.syncConsumerId;
    const connectionid = connectionOf(consumerid, 1000);
    const scheduled = () =>
      Object.values(world.executions).filter(
        (e) => e.used_connectionid === connectionid && e.trigger === 'schedule',
      );
    const before = scheduled().length;
    await advance(18 * 3600 + 5 * 60); // 2026-01-16T03:05Z
    expect(scheduled().length).toBe(before + 1);
    expect(scheduled().at(-1)).toMatchObject({ queued_at: '2026-01-16T03:00:00.000Z', settled: true });

    const res = await api('POST', path(consumerid, connectionid, 'disable'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(world.datalayer_syncs[connectionid]).toMatchObject({ enabled: false, next_run_at: null });
    await advance(2 * 86_400);
    expect(scheduled().length).toBe(before + 1);
    expectError(
      await api('POST', path(consumerid, connectionid, 'refresh')),
      errors.datalayerNotConfigured(),
    );
    expect((await api('POST', path(consumerid, connectionid, 'disable'))).status).toBe(200);
  });

  it('deleting the connection removes its datalayer sync', async () => {
    const connectionid = connectionOf(s.ids.syncConsumerId, 1000);
    expect(
      (await api('DELETE', `/consumers/${s.ids.syncConsumerId}/connections/${connectionid}`)).status,
    ).toBe(204);
    expect(world.datalayer_syncs[connectionid]).toBeUndefined();
  });

  async function connectionTo(integrationid: number, credentials: { key: string; value: string }[]) {
    const consumer = await api('POST', '/consumers', { body: { name: 'Datalayer Consumer' } });
    const consumerid = consumer.body.consumerid as string;
    const res = await api('POST', `/consumers/${consumerid}/connections`, {
      body: { integrationid, credentials },
    });
    expect(res.status).toBe(200);
    return { consumerid, connectionid: connectionOf(consumerid, integrationid) };
  }

  type Target = { consumer: string; connection: string; token?: string };
  const errorCases: [string, () => Promise<Target>, ApiError, ('enable' | 'refresh' | 'disable')[]][] = [
    [
      'an unknown consumer',
      async () => ({ consumer: MISSING, connection: connectionOf(s.ids.syncConsumerId, 1000) }),
      errors.datalayerTargetNotFound(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      'an unknown connection',
      async () => ({ consumer: s.ids.syncConsumerId, connection: MISSING }),
      errors.datalayerTargetNotFound(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      "another consumer's connection",
      async () => ({
        consumer: s.ids.multiFolderConsumerId,
        connection: connectionOf(s.ids.syncConsumerId, 1000),
      }),
      errors.datalayerTargetNotFound(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      'a One API without the datalayer on the account',
      async () => ({
        consumer: s.ids.verticalConsumers.ECOMMERCE as string,
        connection: connectionOf(s.ids.verticalConsumers.ECOMMERCE as string, 90301),
      }),
      errors.datalayerNotConfigured(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      'an integration without the datalayer',
      async () => {
        const t = await connectionTo(7023, [
          { key: 'username', value: 'u' },
          { key: 'password', value: 'p' },
        ]);
        return { consumer: t.consumerid, connection: t.connectionid };
      },
      errors.datalayerNotConfigured(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      'an account without the datalayer',
      async () => ({
        consumer: s.ids.otherAccountConsumerId,
        connection: connectionOf(s.ids.otherAccountConsumerId, 1000),
        token: await tokenFor(s.app, { ...s.ids.otherAccount }),
      }),
      errors.datalayerNotConfigured(),
      ['enable', 'refresh', 'disable'],
    ],
    [
      'an inactive connection',
      async () => ({
        consumer: s.ids.pendingConsumerId,
        connection: connectionOf(s.ids.pendingConsumerId, 9012),
      }),
      errors.datalayerNotConfigured(),
      ['enable', 'refresh'],
    ],
    [
      'a connection whose datalayer is not enabled',
      async () => ({ consumer: s.ids.syncConsumerId, connection: connectionOf(s.ids.syncConsumerId, 7010) }),
      errors.datalayerNotConfigured(),
      ['refresh'],
    ],
    [
      'a consumer of the other environment',
      async () => ({
        consumer: s.ids.productionConsumerId,
        connection: connectionOf(s.ids.productionConsumerId, 1000),
      }),
      errors.wrongEnvironment(),
      ['enable', 'refresh', 'disable'],
    ],
  ];
  const expanded = errorCases.flatMap(([label, target, error, ops]) =>
    ops.map((op) => [op, label, target, error] as const),
  );
  it.each(expanded)('%s_datalayer refuses %s and changes nothing', async (op, _label, target, error) => {
    const t = await target();
    const executions = Object.keys(world.executions).length;
    const datalayers = structuredClone(world.datalayer_syncs);
    const res = await call(s.app, 'POST', path(t.consumer, t.connection, op), { token: t.token ?? token });
    expectError(res, error);
    expect(Object.keys(world.executions).length).toBe(executions);
    expect(world.datalayer_syncs).toEqual(datalayers);
  });

  it.each([
    [
      'a negative fiscal_years_back',
      'enable',
      { fiscal_years_back: -1 },
      ['body', 'fiscal_years_back'],
      'greater_than_equal',
    ],
    [
      'a from_date that is not a date',
      'enable',
      { from_date: '01/02/2025' },
      ['body', 'from_date'],
      'date_from_datetime_parsing',
    ],
    [
      'an entity filter that is not lists',
      'enable',
      { entity_filter: { folder_ids: 'f-1' } },
      ['body', 'entity_filter', 'folder_ids'],
      'list_type',
    ],
    [
      'a force_from_date that is not a date',
      'refresh',
      { force_from_date: 'soon' },
      ['body', 'force_from_date'],
      'date_from_datetime_parsing',
    ],
  ] as const)('%s is a validation error', async (_label, op, body, loc, type) => {
    const res = await api('POST', path(s.ids.syncConsumerId, connectionOf(s.ids.syncConsumerId, 1000), op), {
      body,
    });
    expectValidation(res, [...loc], type);
  });

  it.each(['consumer_id', 'connection_id'])(
    'a %s that is not a uuid is a validation error',
    async (param) => {
      const connectionid = connectionOf(s.ids.syncConsumerId, 1000);
      const target =
        param === 'consumer_id'
          ? path('x', connectionid, 'disable')
          : path(s.ids.syncConsumerId, 'x', 'disable');
      expectValidation(await api('POST', target), ['path', param], 'uuid_parsing');
    },
  );
});

describe("the datalayer and the connection's life", () => {
  it('a run of a connection whose credentials expired fails; one that cannot be reached when it starts times out', async () => {
    const consumerid = s.ids.syncConsumerId;
    const connectionid = connectionOf(consumerid, 7010);
    const enabled = await api('POST', path(consumerid, connectionid, 'enable'), { body: {} });
    expect(enabled.status).toBe(200);
    await advance(70);
    // The sandbox's software cannot be reached at 03:00 the next night: that night's run times out.
    const declared = await call(s.app, 'POST', '/__sandbox/timeline', {
      body: {
        events: [
          {
            at: '2026-01-16T02:00:00Z',
            until: '2026-01-16T05:00:00Z',
            consumer: consumerid,
            connection: connectionid,
            event: 'unreachable',
          },
          {
            at: '2026-01-16T12:00:00Z',
            consumer: consumerid,
            connection: connectionid,
            event: 'credentials_expired',
          },
        ],
      },
    });
    expect(declared.status, declared.text).toBe(200);
    await advance(86_400);
    const runs = () =>
      Object.values(world.executions)
        .filter((e) => e.kind === 'datalayer' && e.used_connectionid === connectionid)
        .sort((a, b) => a.start.localeCompare(b.start));
    const night = runs().find((e) => e.start.startsWith('2026-01-16T03'));
    expect(night).toMatchObject({ outcome: 'error', failure: { error_code: 'ERROR_TIMEOUT' } });
    // The credentials expire at noon: the next night's run, planned before, fails for them.
    await advance(86_400);
    const next = runs().find((e) => e.start.startsWith('2026-01-17T03'));
    expect(next).toMatchObject({ outcome: 'error', failure: { error_code: 'ERROR_AUTHENTICATION_FAILED' } });
    expect(
      Object.values(world.issues).some(
        (issue) => issue.datalayer_of === connectionid && issue.error_code === 'ERROR_AUTHENTICATION_FAILED',
      ),
    ).toBe(true);
  });
});
