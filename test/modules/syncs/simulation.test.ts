import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../../src/app.js';
import { openWorldFile, seedWorld } from '../../../src/control/seeded-world.js';
import { manualClock } from '../../../src/lib/clock.js';
import { type ApiError, errors } from '../../../src/lib/errors.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
import {
  cronProblem,
  dueRuns,
  nextRun,
  parseCron,
  previousRun,
} from '../../../src/modules/syncs/simulation/cron.js';
import { MAX_CATCH_UP_RUNS, runSeconds } from '../../../src/modules/syncs/simulation/engine.js';
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
import { closedAfterTest, tempDir } from '../../temp-dir.js';

/** The simulation: cron, the execution lifecycle on the clock, scripted failures, issues, restarts. */

const auto = automationDirectory(SEED);
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('cron', () => {
  const at = (iso: string) => new Date(iso);
  const next = (expression: string, after: string) =>
    nextRun(parseCron(expression), at(after))?.toISOString();

  it.each([
    ['*/15 * * * *', '2026-01-15T09:07:00Z', '2026-01-15T09:15:00.000Z'],
    ['*/15 * * * *', '2026-01-15T09:15:00Z', '2026-01-15T09:30:00.000Z'],
    ['0 2 * * *', '2026-01-15T09:00:00Z', '2026-01-16T02:00:00.000Z'],
    ['0 9 * * MON-FRI', '2026-01-16T10:00:00Z', '2026-01-19T09:00:00.000Z'],
    ['0 0 1 * *', '2026-01-15T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['0 0 29 2 *', '2026-01-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['0 0 1,15 * 1', '2026-01-15T00:00:00Z', '2026-01-19T00:00:00.000Z'],
    ['0 12 * * 7', '2026-01-15T00:00:00Z', '2026-01-18T12:00:00.000Z'],
    ['5/20 * * * *', '2026-01-15T09:06:00Z', '2026-01-15T09:25:00.000Z'],
    ['30 8 * jan-mar *', '2026-03-31T09:00:00Z', '2027-01-01T08:30:00.000Z'],
    ['0 22 * * 1-5/2', '2026-01-15T23:00:00Z', '2026-01-16T22:00:00.000Z'],
    ['@hourly', '2026-01-15T09:00:30Z', '2026-01-15T10:00:00.000Z'],
    ['@daily', '2026-12-31T23:59:00Z', '2027-01-01T00:00:00.000Z'],
    ['@weekly', '2026-01-15T00:00:00Z', '2026-01-18T00:00:00.000Z'],
  ])('%s after %s runs at %s', (expression, after, expected) => {
    expect(next(expression, after)).toBe(expected);
  });

  it.each([
    ['four fields', '* * * *', /5 fields/],
    ['a minute of 60', '60 * * * *', /outside 0-59/],
    ['a step of 0', '*/0 * * * *', /step/],
    ['a backward range', '5-1 * * * *', /backwards/],
    ['a word', 'a * * * *', /not a valid minute/],
    ['a date that never comes', '0 0 30 2 *', /never runs/],
    ['a double range', '1-2-3 * * * *', /range/],
    ['an empty string', '', /5 fields/],
  ])('refuses %s', (_label, expression, message) => {
    expect(cronProblem(expression)).toMatch(message);
  });

  it('finds the previous run and the last runs due, oldest first, bounded', () => {
    const daily = parseCron('0 2 * * *');
    expect(previousRun(daily, at('2026-01-15T02:00:00Z'))?.toISOString()).toBe('2026-01-15T02:00:00.000Z');
    expect(previousRun(daily, at('2026-01-15T01:59:00Z'))?.toISOString()).toBe('2026-01-14T02:00:00.000Z');
    const runs = dueRuns(daily, at('2026-01-01T00:00:00Z'), at('2026-01-31T12:00:00Z'), 3).map((d) =>
      d.toISOString(),
    );
    expect(runs).toEqual([
      '2026-01-29T02:00:00.000Z',
      '2026-01-30T02:00:00.000Z',
      '2026-01-31T02:00:00.000Z',
    ]);
    expect(dueRuns(daily, at('2026-01-30T02:00:00Z'), at('2026-01-31T12:00:00Z'), 5)).toHaveLength(1);
    expect(dueRuns(daily, at('2026-01-31T02:00:00Z'), at('2026-01-31T12:00:00Z'), 5)).toHaveLength(0);
  });
});

let s: TestSandbox;
let token: string;
let world: World;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
  world = s.app.services.store.world;
});

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

async function moveClock(app: SandboxApp, body: { advance_seconds: number } | { now: string }) {
  const res = await call(app, 'POST', '/__sandbox/clock', { body });
  expect(res.status).toBe(200);
}

async function advance(seconds: number): Promise<void> {
  await moveClock(s.app, { advance_seconds: seconds });
  token = await sandboxToken(s);
}

const published = (event: string, w: World = world) =>
  Object.values(w.webhook_deliveries)
    .filter((d) => d.event === event)
    .map((d) => JSON.parse(d.body) as Record<string, unknown>);

async function subscribe(...events: string[]) {
  for (const event of events) {
    expect(
      (await api('POST', '/webhooks', { body: { event, url: `http://127.0.0.1:9/${event}` } })).status,
    ).toBe(200);
  }
}

async function sendEvent(): Promise<string> {
  const res = await api('POST', `/syncs/${s.ids.syncId}/flows/${auto.invoicesFlowId}/event`, { body: {} });
  expect(res.status).toBe(200);
  return res.body.data.executions[0].executionid as string;
}

const timerRuns = (flowid: string) =>
  Object.values(world.executions)
    .filter((e) => e.flowid === flowid && e.trigger === 'timer')
    .sort((a, b) => a.queued_at.localeCompare(b.queued_at));

describe('scheduled runs', () => {
  it('an enabled timer flow runs on its cron as the clock moves, under a chain execution', async () => {
    await subscribe('account.flow.executed');
    const before = timerRuns(auto.paymentsFlowId).length;
    await moveClock(s.app, { now: '2026-01-16T01:59:00Z' });
    expect(timerRuns(auto.paymentsFlowId)).toHaveLength(before);
    await moveClock(s.app, { now: '2026-01-16T02:00:30Z' });
    const run = timerRuns(auto.paymentsFlowId).at(-1);
    expect(timerRuns(auto.paymentsFlowId)).toHaveLength(before + 1);
    expect(run).toMatchObject({
      queued_at: '2026-01-16T02:00:00.000Z',
      start: '2026-01-16T02:00:05.000Z',
      settled: false,
    });
    expect(run?.parentexecutionid).toMatch(/^[0-9a-f-]{36}$/);
    await moveClock(s.app, { now: '2026-01-16T02:02:00Z' });
    expect(world.executions[run?.executionid as string]?.settled).toBe(true);
    expect(published('account.flow.executed').map((p) => p.executionid)).toEqual([run?.executionid]);
    expect(world.flow_consumers[`${s.ids.syncConsumerId}:${auto.paymentsFlowId}`]?.next_run_at).toBe(
      '2026-01-17T02:00:00.000Z',
    );
  });

  it(`a long jump of the clock makes up only the last ${MAX_CATCH_UP_RUNS} runs of each schedule`, async () => {
    const before = timerRuns(auto.paymentsFlowId).length;
    await moveClock(s.app, { now: '2026-02-15T12:00:00Z' });
    const made = timerRuns(auto.paymentsFlowId).slice(before);
    expect(made.map((e) => e.queued_at)).toEqual([
      '2026-02-11T02:00:00.000Z',
      '2026-02-12T02:00:00.000Z',
      '2026-02-13T02:00:00.000Z',
      '2026-02-14T02:00:00.000Z',
      '2026-02-15T02:00:00.000Z',
    ]);
    expect(made.every((e) => e.settled)).toBe(true);
    expect(timerRuns(auto.posSalesFlowId).filter((e) => e.queued_at > '2026-01-16')).toHaveLength(
      MAX_CATCH_UP_RUNS,
    );
    expect(world.flow_consumers[`${s.ids.syncConsumerId}:${auto.paymentsFlowId}`]?.next_run_at).toBe(
      '2026-02-16T02:00:00.000Z',
    );
  });

  it('a flow enabled on another schedule runs on it; a disabled one stops', async () => {
    const consumer = await api('POST', '/consumers', { body: { name: 'Six-hourly' } });
    const consumerid = consumer.body.consumerid as string;
    const flowPath = `/consumers/${consumerid}/syncs/${s.ids.syncId}/flows/${auto.paymentsFlowId}`;
    expect((await api('POST', `${flowPath}/enable`, { body: { cronschedule: '0 */6 * * *' } })).status).toBe(
      200,
    );
    await advance(3 * 3600 + 120); // 12:02
    const mine = () => timerRuns(auto.paymentsFlowId).filter((e) => e.consumerid === consumerid);
    expect(mine().map((e) => e.queued_at)).toEqual(['2026-01-15T12:00:00.000Z']);
    expect((await api('POST', `${flowPath}/disable`)).status).toBe(200);
    await advance(86_400);
    expect(mine()).toHaveLength(1);
  });
});

describe('scripted failures and issues', () => {
  it('fails the next N executions of a flow: an issue is opened, updated, then closed by a success', async () => {
    await subscribe('account.issue.created', 'account.issue.updated', 'account.flow.executed');
    const armed = await api('POST', '/__sandbox/failures', {
      body: {
        flowid: auto.invoicesFlowId,
        count: 2,
        error_code: 'ERROR_TIMEOUT',
        message: 'No answer in 30 s',
      },
    });
    expect(armed.status).toBe(200);
    expect(armed.body).toMatchObject({
      flowid: auto.invoicesFlowId,
      consumerid: null,
      remaining: 2,
      level: 'error',
    });
    expect((await api('GET', '/__sandbox/failures')).body).toHaveLength(1);

    const first = await sendEvent();
    await advance(120);
    const created = published('account.issue.created');
    expect(created).toHaveLength(1);
    const issueId = created[0]?.issue_id as string;
    expect(created[0]).toMatchObject({
      error_code: 'ERROR_TIMEOUT',
      level: 'error',
      status: 'open',
      consumerid: s.ids.syncConsumerId,
    });
    expect(published('account.flow.executed')).toEqual([
      expect.objectContaining({ executionid: first, status: 'error' }),
    ]);

    const second = await sendEvent();
    expect((await api('GET', '/__sandbox/failures')).body).toEqual([]);
    await advance(120);
    const issue = (await api('GET', `/issues/${issueId}`)).body;
    expect(issue).toMatchObject({
      occurrences: 2,
      last_seen: world.executions[second]?.end,
      created_on: world.executions[first]?.end,
      error: { error_code: 'ERROR_TIMEOUT', status: '504', description: 'No answer in 30 s' },
    });
    expect(issue.events.map((e: { execution_id: string }) => e.execution_id)).toEqual([first, second]);
    expect(published('account.issue.updated').map((p) => [p.issue_id, p.status])).toEqual([
      [issueId, 'open'],
    ]);
    const lastOnly = await api('GET', `/issues/${issueId}?last_execution_only=true`);
    expect(lastOnly.body.events.map((e: { execution_id: string }) => e.execution_id)).toEqual([second]);

    const third = await sendEvent();
    await advance(120);
    expect(world.executions[third]).toMatchObject({ outcome: 'success', settled: true });
    expect(
      (await api('GET', `/issues?status=closed&error_code=ERROR_TIMEOUT`)).body.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([issueId]);
    // The success closes every open issue of the consumer's flow: the seeded mapping issue too.
    expect(published('account.issue.updated').map((p) => [p.issue_id, p.status])).toEqual([
      [issueId, 'open'],
      [auto.openErrorIssueId, 'closed'],
      [issueId, 'closed'],
    ]);
    // A new failure after the close opens a new issue.
    await api('POST', '/__sandbox/failures', {
      body: { flowid: auto.invoicesFlowId, error_code: 'ERROR_TIMEOUT' },
    });
    await sendEvent();
    await advance(120);
    expect(published('account.issue.created')).toHaveLength(2);
  });

  it('a failure armed for a consumer applies to its flows only, with the level given', async () => {
    const other = await api('POST', '/consumers', { body: { name: 'Other' } });
    const otherId = other.body.consumerid as string;
    await api('POST', `/consumers/${otherId}/syncs/${s.ids.syncId}/flows/${auto.invoicesFlowId}/enable`, {
      body: { data: { journal_code: 'V' } },
    });
    await api('POST', '/__sandbox/failures', {
      body: { consumerid: otherId, error_code: 'ERROR_VALIDATION', level: 'warning', count: 5 },
    });
    const res = await api('POST', `/syncs/${s.ids.syncId}/flows/${auto.invoicesFlowId}/event`, { body: {} });
    const runs = res.body.data.executions as { consumerid: string; executionid: string }[];
    expect(runs.map((r) => world.executions[r.executionid]?.outcome)).toEqual(['success', 'error']);
    expect((await api('GET', '/__sandbox/failures')).body[0].remaining).toBe(4);
    await advance(120);
    const issues = (await api('GET', `/consumers/${otherId}/issues`)).body;
    expect(issues).toEqual([expect.objectContaining({ level: 'warning', occurrences: 1, status: 'open' })]);
    expect(issues[0].connection_id).toBe('');
  });

  it('lists executions with their planned timeline and clears the armed failures', async () => {
    await api('POST', '/__sandbox/failures', {
      body: { flowid: auto.invoicesFlowId, error_code: 'ERROR_INTERNAL' },
    });
    const id = await sendEvent();
    const pending = await api('GET', '/__sandbox/executions?state=pending');
    expect(pending.body).toEqual([
      expect.objectContaining({
        executionid: id,
        status: 'queued',
        outcome: 'error',
        error_code: 'ERROR_INTERNAL',
        settled: false,
        end: new Date(Date.parse('2026-01-15T09:00:05Z') + runSeconds(id) * 1000).toISOString(),
      }),
    ]);
    const settled = await api(
      'GET',
      `/__sandbox/executions?state=settled&consumerid=${s.ids.syncConsumerId}&limit=3`,
    );
    expect(settled.body).toHaveLength(3);
    expect(settled.body.every((e: { settled: boolean }) => e.settled)).toBe(true);
    const bySync = await api('GET', `/__sandbox/executions?syncid=${auto.posSyncId}`);
    expect(bySync.body.map((e: { flowid: string }) => e.flowid)).toEqual([
      auto.posSalesFlowId,
      auto.posSalesFlowId,
    ]);
    await api('POST', '/__sandbox/failures', {
      body: { consumerid: s.ids.syncConsumerId, error_code: 'ERROR_INTERNAL' },
    });
    expect((await api('DELETE', '/__sandbox/failures')).body).toEqual({ removed: 1 });
    expect((await api('GET', '/__sandbox/failures')).body).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['neither a flow nor a consumer', { error_code: 'ERROR_X' }, ['body']],
    [
      'an error code in lower case',
      { flowid: auto.invoicesFlowId, error_code: 'timeout' },
      ['body', 'error_code'],
    ],
    ['a count of 0', { flowid: auto.invoicesFlowId, error_code: 'ERROR_X', count: 0 }, ['body', 'count']],
    [
      'an unknown level',
      { flowid: auto.invoicesFlowId, error_code: 'ERROR_X', level: 'fatal' },
      ['body', 'level'],
    ],
    [
      'a flow and a consumer of different environments',
      { flowid: auto.invoicesFlowId, consumerid: 'production', error_code: 'ERROR_X' },
      ['body', 'consumerid'],
    ],
  ])('arming a failure with %s is a validation error', async (_label, body, loc) => {
    const payload =
      body.consumerid === 'production' ? { ...body, consumerid: s.ids.productionConsumerId } : body;
    expectValidation(await api('POST', '/__sandbox/failures', { body: payload }), loc);
    expect(world.failure_plans).toEqual({});
  });

  it.each([
    ['an unknown flow', { flowid: MISSING, error_code: 'ERROR_X' }, errors.flowNotFound()],
    ['an unknown consumer', { consumerid: MISSING, error_code: 'ERROR_X' }, errors.consumerNotFound()],
  ] as [string, unknown, ApiError][])('arming a failure for %s is a 404', async (_label, body, error) => {
    expectError(await api('POST', '/__sandbox/failures', { body }), error);
  });

  it('the control endpoints need the admin token when one is set', async () => {
    const app = createApp({ seed: SEED, adminToken: 'let-me-in' });
    const body = { flowid: auto.invoicesFlowId, error_code: 'ERROR_X' };
    expectError(await call(app, 'POST', '/__sandbox/failures', { body }), errors.adminTokenRequired());
    expectError(
      await call(app, 'GET', '/__sandbox/executions', { token: 'wrong' }),
      errors.adminTokenRequired(),
    );
    expectError(await call(app, 'DELETE', '/__sandbox/failures'), errors.adminTokenRequired());
    expect((await call(app, 'POST', '/__sandbox/failures', { body, token: 'let-me-in' })).status).toBe(200);
    expect((await call(app, 'GET', '/__sandbox/failures', { token: 'let-me-in' })).body).toHaveLength(1);
  });
});

describe('durability and determinism', () => {
  it('a world reopened from its file settles a pending execution once, after the restart', async () => {
    const file = join(tempDir('sandbox-automation-'), 'world.json');
    const start = new Date('2026-01-15T09:00:00.000Z');
    const open = async () => {
      const store = closedAfterTest(await openWorldFile(file, () => seedWorld(SEED)));
      return createApp({ seed: SEED, store, clock: manualClock(start) });
    };
    const first = await open();
    const firstToken = await tokenFor(first, { accountId: s.ids.accountId, ...s.ids.sandbox });
    await call(first, 'POST', '/webhooks', {
      token: firstToken,
      body: { event: 'account.flow.executed', url: 'http://127.0.0.1:9/x' },
    });
    await call(first, 'POST', '/__sandbox/failures', {
      body: { flowid: auto.invoicesFlowId, error_code: 'ERROR_INTERNAL' },
    });
    const sent = await call(first, 'POST', `/syncs/${s.ids.syncId}/flows/${auto.invoicesFlowId}/event`, {
      token: firstToken,
      body: {},
    });
    const executionid = sent.body.data.executions[0].executionid as string;

    const second = await open();
    const pending = second.services.store.world.executions[executionid];
    expect(pending).toMatchObject({ settled: false, outcome: 'error', queued_at: start.toISOString() });
    await moveClock(second, { advance_seconds: 600 });
    expect(second.services.store.world.executions[executionid]?.settled).toBe(true);
    expect(published('account.flow.executed', second.services.store.world)).toHaveLength(1);

    const third = await open();
    await moveClock(third, { advance_seconds: 1200 });
    const w = third.services.store.world;
    expect(published('account.flow.executed', w)).toHaveLength(1);
    const issue = Object.values(w.issues).find((i) => i.events.some((e) => e.execution_id === executionid));
    expect(issue?.occurrences).toBe(1);
  });

  it('the same seed and the same requests give the same executions, byte for byte', async () => {
    const run = async () => {
      const t = sandbox();
      const tk = await sandboxToken(t);
      const sent = await call(t.app, 'POST', `/syncs/${t.ids.syncId}/flows/${auto.invoicesFlowId}/event`, {
        token: tk,
        body: {},
      });
      await call(t.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 90 } });
      const list = await call(t.app, 'GET', `/syncs/${t.ids.syncId}/executions?size=3`, {
        token: await sandboxToken(t),
      });
      return sent.text + list.text;
    };
    expect(await run()).toBe(await run());
  });
});
