import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiError, errors } from '../../../src/lib/errors.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
import { runSeconds } from '../../../src/modules/syncs/simulation/engine.js';
import {
  ChainExecutionItem,
  ServicePageSyncExecutionItem,
  TriggerResponse,
} from '../../../src/modules/syncs/syncs.schemas.js';
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

/** Executions: the runs an event or the SDK starts, on the sandbox clock, and the lists that show them. */

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

/** Moves the sandbox clock (the tick runs before the answer), then takes a fresh token (30-minute lifetime). */
async function advance(seconds: number): Promise<void> {
  const res = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(res.status).toBe(200);
  token = await sandboxToken(s);
}

async function newConsumerWithInvoicesFlow(): Promise<string> {
  const res = await api('POST', '/consumers', { body: { name: 'Second Consumer' } });
  const consumerid = res.body.consumerid as string;
  const enabled = await api(
    'POST',
    `/consumers/${consumerid}/syncs/${s.ids.syncId}/flows/${auto.invoicesFlowId}/enable`,
    {
      body: { data: { journal_code: 'VEN' } },
    },
  );
  expect(enabled.status).toBe(200);
  return consumerid;
}

const eventPath = (flowid = auto.invoicesFlowId, syncid = s.ids.syncId) =>
  `/syncs/${syncid}/flows/${flowid}/event`;
const executionPath = (executionid: string, flowid = auto.invoicesFlowId) =>
  `/syncs/${s.ids.syncId}/flows/${flowid}/executions/${executionid}`;

async function sendEvent(body: unknown = {}) {
  const res = await api('POST', eventPath(), { body });
  expect(res.status).toBe(200);
  return TriggerResponse.parse(res.body).data as {
    chainexecutionid: string;
    executions: { consumerid: string; executionid: string }[];
    consumers_left_out?: string[];
  };
}

async function subscribe(event: string): Promise<void> {
  expect(
    (await api('POST', '/webhooks', { body: { event, url: `http://127.0.0.1:9/${event}` } })).status,
  ).toBe(200);
}

const published = (event: string) =>
  Object.values(world.webhook_deliveries)
    .filter((d) => d.event === event)
    .map((d) => JSON.parse(d.body) as Record<string, unknown>);

describe('a custom event runs the flow on the sandbox clock', () => {
  it('queued, then running, then success with its end; account.flow.executed published once', async () => {
    await subscribe('account.flow.executed');
    const data = await sendEvent({ data: { invoice_number: 'INV-7' } });
    expect(data.executions).toHaveLength(1);
    const [{ consumerid, executionid }] = data.executions as [{ consumerid: string; executionid: string }];
    expect(consumerid).toBe(s.ids.syncConsumerId);

    const queued = ChainExecutionItem.parse((await api('GET', executionPath(executionid))).body);
    expect(queued).toEqual({
      id: executionid,
      parentexecutionid: data.chainexecutionid,
      start: '2026-01-15T09:00:05.000Z',
      end: null,
      status: 'queued',
    });
    await advance(5);
    expect((await api('GET', executionPath(executionid))).body.status).toBe('running');
    const duration = runSeconds(executionid);
    await advance(duration - 1);
    expect((await api('GET', executionPath(executionid))).body).toMatchObject({
      status: 'running',
      end: null,
    });
    expect(published('account.flow.executed')).toEqual([]);
    await advance(1);
    const done = (await api('GET', executionPath(executionid))).body;
    expect(done).toMatchObject({
      status: 'success',
      end: new Date(Date.parse('2026-01-15T09:00:05.000Z') + duration * 1000).toISOString(),
    });
    expect(published('account.flow.executed')).toEqual([
      expect.objectContaining({
        consumerid,
        syncid: s.ids.syncId,
        flowid: auto.invoicesFlowId,
        executionid,
        status: 'success',
      }),
    ]);
    await advance(3600);
    expect(published('account.flow.executed')).toHaveLength(1);
    expect(world.executions[executionid]?.data).toEqual({ invoice_number: 'INV-7' });
  });

  it('runs for the consumers named that enabled the flow, and says which were left out', async () => {
    const second = await newConsumerWithInvoicesFlow();
    const all = await sendEvent();
    expect(all.executions.map((e) => e.consumerid)).toEqual([s.ids.syncConsumerId, second]);
    const named = await sendEvent({ consumers: [second.toUpperCase(), MISSING, s.ids.pendingConsumerId] });
    expect(named.executions.map((e) => e.consumerid)).toEqual([second]);
    expect(named.consumers_left_out).toEqual([MISSING, s.ids.pendingConsumerId]);
  });

  it('a preview run is flagged as such', async () => {
    const data = await sendEvent({ data: { is_preview: true } });
    expect(world.executions[data.executions[0]?.executionid as string]?.is_preview).toBe(true);
  });

  const eventErrors: [string, () => { path?: string; body: unknown }, ApiError][] = [
    [
      'an unknown sync (a plain string)',
      () => ({ path: eventPath(auto.invoicesFlowId, 'not-a-sync'), body: {} }),
      errors.syncNotFound(),
    ],
    [
      'an unknown sync',
      () => ({ path: eventPath(auto.invoicesFlowId, MISSING), body: {} }),
      errors.syncNotFound(),
    ],
    [
      "another account's sync",
      () => ({ path: eventPath(auto.otherAccountFlowId, auto.otherAccountSyncId), body: {} }),
      errors.syncNotFound(),
    ],
    ['an unknown flow', () => ({ path: eventPath('not-a-flow'), body: {} }), errors.chainNotFound()],
    [
      'a flow of another sync',
      () => ({ path: eventPath(auto.posSalesFlowId), body: {} }),
      errors.chainNotFound(),
    ],
    [
      'a context value of the wrong type',
      () => ({ body: { data: { invoice_number: 7 } } }),
      errors.contextDataInvalid('invoice_number', 'string'),
    ],
    ['an empty list of consumers', () => ({ body: { consumers: [] } }), errors.noConsumersFound()],
    [
      'consumers none of which enabled the flow',
      () => ({ body: { consumers: [s.ids.pendingConsumerId] } }),
      errors.noConsumersFound(),
    ],
    [
      'a flow nobody enabled',
      () => ({ path: eventPath(auto.paymentsFlowId), body: { consumers: [MISSING] } }),
      errors.noConsumersFound(),
    ],
  ];
  it.each(eventErrors)('refuses %s and queues nothing', async (_label, make, error) => {
    const before = Object.keys(world.executions).length;
    const { path, body } = make();
    expectError(await api('POST', path ?? eventPath(), { body }), error);
    expect(Object.keys(world.executions).length).toBe(before);
  });

  it.each([
    [
      'a date that is not a date',
      { data: { start_date: '15/01/2026' } },
      ['body', 'data', 'start_date'],
      'date_from_datetime_parsing',
    ],
    ['an unknown import mode', { data: { import_mode: 'ALL' } }, ['body', 'data', 'import_mode'], 'enum'],
    ['consumers that are not a list', { consumers: 'all' }, ['body', 'consumers'], 'list_type'],
  ])('an event with %s is a validation error', async (_label, body, loc, type) => {
    expectValidation(await api('POST', eventPath(), { body }), loc as (string | number)[], type);
  });

  it("a restricted key reaches its own consumers' runs only", async () => {
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    expectError(
      await call(s.app, 'POST', eventPath(), { token: restricted, body: {} }),
      errors.noConsumersFound(),
    );
    const seeded = Object.values(world.executions).find((e) => e.flowid === auto.invoicesFlowId) as {
      executionid: string;
    };
    expectError(
      await call(s.app, 'GET', executionPath(seeded.executionid), { token: restricted }),
      errors.executionNotFound(),
    );
    const page = await call(s.app, 'GET', `/syncs/${s.ids.syncId}/executions`, { token: restricted });
    expect(page.body.total).toBe(0);
  });
});

describe('execution lists', () => {
  const listPath = (query = '') => `/syncs/${s.ids.syncId}/executions${query}`;

  it("pages the sync's executions newest first (default size 50)", async () => {
    const res = await api('GET', listPath());
    const page = ServicePageSyncExecutionItem.parse(res.body);
    expect({ total: page.total, page: page.page, size: page.size, count: page.items.length }).toEqual({
      total: 8,
      page: 1,
      size: 50,
      count: 8,
    });
    const starts = page.items.map((i) => i.start);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(page.items[0]).toMatchObject({
      flow_id: auto.paymentsFlowId,
      status: 'success',
      consumer_id: s.ids.syncConsumerId,
    });
    expect(page.items.map((i) => i.status)).toEqual([
      'success',
      'error',
      'error',
      'error',
      'success',
      'success',
      'error',
      'success',
    ]);

    const second = ServicePageSyncExecutionItem.parse((await api('GET', listPath('?page=2&size=3'))).body);
    expect(second.items.map((i) => i.id)).toEqual(page.items.slice(3, 6).map((i) => i.id));
    expect(second).toMatchObject({ total: 8, page: 2, size: 3 });
    expect((await api('GET', listPath('?page=9&size=500'))).body).toMatchObject({
      items: [],
      total: 8,
      size: 500,
    });
  });

  it('filters by flow and by a start range (both ends included)', async () => {
    const flow = await api('GET', listPath(`?flowid=${auto.paymentsFlowId}`));
    expect(flow.body.total).toBe(3);
    const all = ServicePageSyncExecutionItem.parse((await api('GET', listPath())).body).items;
    const from = all[5]?.start as string;
    const to = all[1]?.start as string;
    const ranged = await api('GET', listPath(`?date_from=${from}&date_to=${to}`));
    expect(ranged.body.items.map((i: { id: string }) => i.id)).toEqual(all.slice(1, 6).map((i) => i.id));
    const offset = await api('GET', listPath('?date_from=2026-01-14T12:00:00%2B02:00'));
    expect(offset.body.items.every((i: { start: string }) => i.start >= '2026-01-14T10:00:00.000Z')).toBe(
      true,
    );
  });

  it.each<[string, string, string[], string?]>([
    ['size 0', '?size=0', ['query', 'size'], 'greater_than_equal'],
    ['size 501', '?size=501', ['query', 'size'], 'less_than_equal'],
    ['page 0', '?page=0', ['query', 'page'], 'greater_than_equal'],
    ['a page that is not a number', '?page=two', ['query', 'page']],
    ['a flowid that is not a uuid', '?flowid=x', ['query', 'flowid'], 'uuid_parsing'],
    ['a date_from that is not a date-time', '?date_from=yesterday', ['query', 'date_from']],
  ])('%s is a validation error', async (_label, query, loc, type) => {
    expectValidation(await api('GET', listPath(query)), loc, type);
  });

  it('an unknown sync or flow is a 404; a syncid that is not a uuid a validation error', async () => {
    expectError(await api('GET', `/syncs/${MISSING}/executions`), errors.syncNotFound());
    expectError(await api('GET', listPath(`?flowid=${MISSING}`)), errors.flowNotFound());
    expectError(await api('GET', listPath(`?flowid=${auto.posSalesFlowId}`)), errors.flowNotFound());
    expectValidation(await api('GET', '/syncs/x/executions'), ['path', 'syncid'], 'uuid_parsing');
  });

  const consumerPath = (consumer: string, sync: string, flow: string, query = '') =>
    `/consumers/${consumer}/syncs/${sync}/flows/${flow}/executions${query}`;

  it("lists one consumer's executions of a flow, newest first, within dates", async () => {
    const res = await api('GET', consumerPath(s.ids.syncConsumerId, s.ids.syncId, auto.invoicesFlowId));
    const items = (res.body as unknown[]).map((i) => ChainExecutionItem.parse(i));
    expect(items.map((i) => i.status)).toEqual(['error', 'error', 'success', 'error', 'success']);
    const day = await api(
      'GET',
      consumerPath(
        s.ids.syncConsumerId,
        s.ids.syncId,
        auto.invoicesFlowId,
        '?date_from=2026-01-14T00:00:00Z&date_to=2026-01-14T23:59:59Z',
      ),
    );
    expect(day.body).toHaveLength(2);
    const second = await newConsumerWithInvoicesFlow();
    expect((await api('GET', consumerPath(second, s.ids.syncId, auto.invoicesFlowId))).body).toEqual([]);
  });

  it.each([
    [
      'an unknown consumer',
      () => consumerPath(MISSING, s.ids.syncId, auto.invoicesFlowId),
      errors.consumerNotFound(),
    ],
    [
      'an unknown sync',
      () => consumerPath(s.ids.syncConsumerId, MISSING, auto.invoicesFlowId),
      errors.syncNotFound(),
    ],
    [
      'an unknown flow',
      () => consumerPath(s.ids.syncConsumerId, s.ids.syncId, MISSING),
      errors.flowNotFound(),
    ],
  ])("a consumer's executions: %s is a 404", async (_label, path, error) => {
    expectError(await api('GET', path()), error);
  });

  it.each([
    ['consumer_id', () => consumerPath('x', s.ids.syncId, auto.invoicesFlowId), ['path', 'consumer_id']],
    ['syncid', () => consumerPath(s.ids.syncConsumerId, 'x', auto.invoicesFlowId), ['path', 'syncid']],
    ['flowid', () => consumerPath(s.ids.syncConsumerId, s.ids.syncId, 'x'), ['path', 'flowid']],
  ])("a consumer's executions: a %s that is not a uuid is a validation error", async (_label, path, loc) => {
    expectValidation(await api('GET', path()), loc, 'uuid_parsing');
  });
});

describe('one execution', () => {
  it('by id, with or without its consumer; a chain execution as a whole or for one consumer', async () => {
    const second = await newConsumerWithInvoicesFlow();
    await api('POST', '/__sandbox/failures', {
      body: { consumerid: second, error_code: 'ERROR_TIMEOUT' },
    });
    const data = await sendEvent();
    const [first, other] = data.executions as unknown as [{ executionid: string }, { executionid: string }];
    expect(
      (await api('GET', `${executionPath(first.executionid)}?consumerid=${s.ids.syncConsumerId}`)).status,
    ).toBe(200);
    expectError(
      await api('GET', `${executionPath(first.executionid)}?consumerid=${second}`),
      errors.executionNotFound(),
    );

    const chain = executionPath(data.chainexecutionid);
    expect((await api('GET', chain)).body).toMatchObject({
      id: data.chainexecutionid,
      parentexecutionid: null,
      status: 'queued',
      end: null,
    });
    expect((await api('GET', `${chain}?consumerid=${second}`)).body.id).toBe(other.executionid);
    expectError(await api('GET', `${chain}?consumerid=${MISSING}`), errors.executionNotFound());
    await advance(10);
    expect((await api('GET', chain)).body.status).toBe('running');
    await advance(120);
    const ends = [first, other].map((e) => world.executions[e.executionid]?.end as string).sort();
    expect((await api('GET', chain)).body).toMatchObject({
      status: 'error',
      start: '2026-01-15T09:00:05.000Z',
      end: ends[1],
    });
    expect((await api('GET', executionPath(other.executionid))).body.status).toBe('error');
  });

  it.each([
    ['an unknown execution', () => executionPath(MISSING), errors.executionNotFound()],
    [
      'an execution of another flow',
      () =>
        executionPath(
          Object.values(world.executions).find((e) => e.flowid === auto.paymentsFlowId)
            ?.executionid as string,
        ),
      errors.executionNotFound(),
    ],
    [
      'an unknown sync (a plain string)',
      () => `/syncs/nope/flows/${auto.invoicesFlowId}/executions/${MISSING}`,
      errors.syncNotFound(),
    ],
    ['an unknown flow', () => executionPath(MISSING, 'nope'), errors.flowNotFound()],
  ])('%s is a 404', async (_label, path, error) => {
    expectError(await api('GET', path()), error);
  });
});

describe('local runs reported by the SDK', () => {
  const localPath = (flowid = auto.invoicesFlowId) => `/syncs/${s.ids.syncId}/flows/${flowid}/local`;

  it('START opens running executions; END closes them as a success', async () => {
    await subscribe('account.flow.executed');
    const start = await api('POST', localPath(), { body: { type: 'START' } });
    expect(start.status).toBe(200);
    const { executionid, chainexecutionid } = start.body.data;
    expect((await api('GET', executionPath(executionid))).body).toMatchObject({
      status: 'running',
      end: null,
    });
    await advance(3600);
    expect((await api('GET', executionPath(executionid))).body.status).toBe('running');
    const end = await api('POST', localPath(), { body: { type: 'END', executionid, chainexecutionid } });
    expect(end.body).toMatchObject({ status: 'success', data: { chainexecutionid, status: 'success' } });
    expect((await api('GET', executionPath(executionid))).body).toMatchObject({
      status: 'success',
      end: '2026-01-15T10:00:00.000Z',
    });
    expect(published('account.flow.executed').map((p) => p.executionid)).toEqual([executionid]);
    // Closing again changes nothing.
    expect((await api('POST', localPath(), { body: { type: 'END', chainexecutionid } })).status).toBe(200);
    expect(published('account.flow.executed')).toHaveLength(1);
  });

  it('END with an error fails them and opens an issue with the message', async () => {
    const start = await api('POST', localPath(), { body: { type: 'START' } });
    const { executionid } = start.body.data;
    const end = await api('POST', localPath(), {
      body: { type: 'END', executionid, error: true, error_message: 'Journal VEN is closed' },
    });
    expect(end.body.data.status).toBe('error');
    const issue = Object.values(world.issues).find((i) =>
      i.events.some((e) => e.execution_id === executionid),
    );
    expect(issue).toMatchObject({ error_code: 'ERROR_LOCAL_EXECUTION', status: 'open', occurrences: 1 });
    expect(issue?.events[0]?.message).toBe('Journal VEN is closed');
  });

  it.each([
    [
      'END of an unknown run',
      () => ({ body: { type: 'END', chainexecutionid: MISSING } }),
      errors.executionNotFound(),
    ],
    ['END without ids', () => ({ body: { type: 'END' } }), errors.executionNotFound()],
    [
      'START of a flow nobody enabled',
      () => ({ flow: auto.paymentsFlowId, body: { type: 'START' }, disable: true }),
      errors.noConsumersFound(),
    ],
    ['an unknown flow', () => ({ flow: MISSING, body: { type: 'START' } }), errors.chainNotFound()],
  ] as [string, () => { flow?: string; body: unknown; disable?: boolean }, ApiError][])(
    '%s is refused',
    async (_label, make, error) => {
      const { flow, body, disable } = make();
      if (disable) {
        await api(
          'POST',
          `/consumers/${s.ids.syncConsumerId}/syncs/${s.ids.syncId}/flows/${auto.paymentsFlowId}/disable`,
        );
      }
      expectError(await api('POST', localPath(flow), { body }), error);
    },
  );

  it('an unknown type is a validation error', async () => {
    expectValidation(await api('POST', localPath(), { body: { type: 'PAUSE' } }), ['body', 'type'], 'enum');
  });
});
