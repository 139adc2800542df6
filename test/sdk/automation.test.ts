import { API } from '@chift/chift-nodejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { automationDirectory } from '../../src/modules/syncs/automation.seed.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';

/**
 * The official Node SDK, pointed at a listening sandbox (a fresh one per test), through syncs, flows,
 * executions and issues. The sandbox runs on a manual clock, moved through the control endpoint:
 * executions end in at most 65 seconds of sandbox time.
 */
const SEED = 13;
const ids = seedDirectory(SEED);
const auto = automationDirectory(SEED);
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;

beforeEach(async () => {
  sandbox = await startSandbox({ seed: SEED, port: 0, clock: new Date('2026-01-15T09:00:00.000Z') });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
});

afterEach(async () => {
  await sandbox.close();
});

async function advance(seconds: number): Promise<void> {
  const res = await fetch(`${sandbox.url}/__sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  expect(res.status).toBe(200);
}

describe('official SDK against the sandbox: syncs, flows and issues', () => {
  it('reads syncs and their flows', async () => {
    const syncs = await client.Syncs.getSyncs();
    expect(syncs.map((sync) => sync.syncid)).toEqual([ids.syncId, auto.posSyncId]);
    const sync = await client.Syncs.getSyncById(ids.syncId);
    expect(sync.name).toBe('Invoices to accounting');
    expect(sync.consumers).toContain(ids.syncConsumerId);
    expect(sync.getFlows().map((flow) => flow.flowId)).toEqual([auto.invoicesFlowId, auto.paymentsFlowId]);
    expect(sync.getFlowByName('import PAYMENTS')?.flowId).toBe(auto.paymentsFlowId);
    expect(sync.getFlowById(auto.invoicesFlowId)?.name).toBe('Send invoices to accounting');
    await expect(client.Syncs.getSyncById('no-such-sync')).rejects.toMatchObject({
      response: { status: 404, data: { message: 'The sync does not exist', status: 'error' } },
    });
  });

  it('creates a sync and a flow of code in it', async () => {
    const sync = await client.Syncs.createSync({
      name: 'SDK sync',
      connections: [{ one_api: 1, display_order: 0, display_hidden: false }],
      mappings: [],
      flows: [],
    } as never);
    expect(sync.syncid).toMatch(/^[0-9a-f-]{36}$/);
    const flow = await sync.createFlow(
      {
        name: 'SDK flow',
        description: 'made by the SDK',
        execution: { type: 'code' },
        triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 * * * *'] }],
        config: { definitionFields: [{ name: 'limit', type: 'integer', optional: true }] },
      },
      async () => {
        return 'done';
      },
    );
    expect(flow.name).toBe('SDK flow');
    const again = await client.Syncs.getSyncById(sync.syncid);
    expect(again.getFlowById(flow.flowId)?.name).toBe('SDK flow');
  });

  it("sets a consumer up: sync url, enable, update, the consumer's sync data", async () => {
    const consumer = await client.Consumers.createConsumer({ name: 'SDK automation consumer' });
    const link = await consumer.getSyncUrl({ syncid: ids.syncId, integrationids: ['1000'] });
    expect(link.url).toMatch(new RegExp(`^${sandbox.url}/link/`));
    await consumer.enableFlow(ids.syncId, auto.invoicesFlowId, { data: { journal_code: 'SDK' } } as never);
    await consumer.updateFlowConfig(ids.syncId, auto.invoicesFlowId, { data: { days_back: 3 } } as never);
    const data = await consumer.getSyncData(ids.syncId);
    expect(data).toMatchObject({ syncid: ids.syncId, status: 'inactive' });
    expect(data.enabled_flows?.[0]).toMatchObject({
      id: auto.invoicesFlowId,
      values: { journal_code: 'SDK', days_back: 3 },
    });
    await expect(
      consumer.enableFlow(ids.syncId, auto.invoicesFlowId, { data: { journal_code: 5 } } as never),
    ).rejects.toMatchObject({
      response: {
        status: 422,
        data: {
          message:
            'Error while validating context data; the field journal_code does not seem to be of type string',
        },
      },
    });
  });

  it('sends an event and follows the execution on the clock', async () => {
    const sync = await client.Syncs.getSyncById(ids.syncId);
    const flow = sync.getFlowById(auto.invoicesFlowId);
    const answer = await client.Syncs.sendCustomEvent(ids.syncId, auto.invoicesFlowId, {
      consumers: [ids.syncConsumerId],
      data: { invoice_number: 'INV-1' },
    } as never);
    const executionid = (answer as unknown as { data: { executions: { executionid: string }[] } }).data
      .executions[0]?.executionid as string;
    expect((await flow?.getExecution(executionid))?.status).toBe('queued');
    await advance(90);
    const done = await client.Syncs.getExecution(ids.syncId, auto.invoicesFlowId, executionid);
    expect(done).toMatchObject({ id: executionid, status: 'success' });
    expect(done.end).not.toBeNull();
    const mine = await flow?.getConsumerExecutions(ids.syncConsumerId);
    expect(mine?.[0]?.id).toBe(executionid);
    const viaSyncs = await client.Syncs.getConsumerExecutions(
      ids.syncConsumerId,
      ids.syncId,
      auto.invoicesFlowId,
    );
    expect(viaSyncs.map((e) => e.id)).toEqual(mine?.map((e) => e.id));
    const viaSync = await sync.sendCustomEvent(auto.invoicesFlowId, { data: {} } as never);
    expect(viaSync).toMatchObject({ status: 'success' });
    expect((await sync.getExecution(auto.invoicesFlowId, executionid)).status).toBe('success');
    // Flow.execute posts the flow's definition again (the same flow is kept), then sends the event.
    await flow?.execute({ testData: { consumers: [ids.syncConsumerId] }, context: {} });
    expect((await client.Syncs.getSyncById(ids.syncId)).getFlows()).toHaveLength(2);
    const after = await sync.getConsumerExecutions(ids.syncConsumerId, auto.invoicesFlowId);
    expect(after[0]).toMatchObject({ status: 'queued' });
    expect(after).toHaveLength((mine?.length ?? 0) + 2);
  });

  it('runs a flow locally with logs: the sandbox opens and closes its executions', async () => {
    const sync = await client.Syncs.getSyncById(ids.syncId);
    const flow = sync.getFlowById(auto.paymentsFlowId);
    const seen: string[] = [];
    const process = async (
      consumer: {
        consumerId: string;
        logData: (logs: { type: string; message: string; context: unknown }[]) => Promise<unknown>;
      },
      context: { flow_id: string },
    ) => {
      seen.push(`${consumer.consumerId}:${context.flow_id}`);
      // While the flow runs, the SDK names the chain execution on every request it sends.
      await consumer.logData([{ type: 'info', message: 'processed the payments', context: { count: 3 } }]);
    };
    // The SDK types the consumer as its factory; at run time it passes the consumer object.
    await flow?.executeLocal(process as never, true);
    // The seeded sync consumer is set up (active) with the flow enabled; the other one is not active.
    expect(seen).toEqual([`${ids.syncConsumerId}:${auto.paymentsFlowId}`]);
    const runs = await client.Syncs.getConsumerExecutions(
      ids.syncConsumerId,
      ids.syncId,
      auto.paymentsFlowId,
    );
    expect(runs[0]).toMatchObject({ status: 'success' });
    expect(runs[0]?.end).not.toBeNull();
    const logs = (await (
      await fetch(`${sandbox.url}/__sandbox/logs?consumerid=${ids.syncConsumerId}`)
    ).json()) as {
      message: string;
      context: unknown;
      related_executionid: string | null;
    }[];
    expect(logs).toEqual([
      expect.objectContaining({ message: 'processed the payments', context: { count: 3 } }),
    ]);
    const related = logs[0]?.related_executionid as string;
    const chain = await (
      await fetch(`${sandbox.url}/__sandbox/executions?consumerid=${ids.syncConsumerId}&state=all`)
    ).json();
    expect(JSON.stringify(chain)).toContain(related);
  });

  it('reads issues with filters, per consumer, and one issue with its last execution only', async () => {
    // A successful run of the invoices flow closes the seeded mapping issue.
    const seeded = await client.Issues.getIssues({ status: 'open' } as never);
    expect(seeded.map((i) => i.id)).toEqual(
      expect.arrayContaining([auto.openWarningIssueId, auto.openErrorIssueId]),
    );
    await client.Syncs.sendCustomEvent(ids.syncId, auto.invoicesFlowId, {
      consumers: [ids.syncConsumerId],
      data: { invoice_number: 'INV-1' },
    } as never);
    await advance(90);
    const open = await client.Issues.getIssues({ status: 'open' } as never);
    expect(open.map((i) => i.id)).toEqual([auto.openWarningIssueId]);
    const closed = await client.Issues.getIssues({
      status: 'closed',
      error_code: 'ERROR_MAPPING_MISSING',
    } as never);
    expect(closed.map((i) => i.id)).toEqual([auto.openErrorIssueId]);
    const errorsOnly = await client.Issues.getIssuesByConsumerId(ids.syncConsumerId, {
      level: 'error',
    } as never);
    expect(errorsOnly.map((i) => i.id)).toEqual([auto.openErrorIssueId, auto.closedErrorIssueId]);
    const issue = await client.Issues.getIssue(auto.openErrorIssueId, { last_execution_only: true } as never);
    expect(issue.events).toHaveLength(1);
    expect(issue.error.error_code).toBe('ERROR_MAPPING_MISSING');
    await expect(client.Issues.getIssue('missing')).rejects.toMatchObject({
      response: { status: 404, data: { message: 'The issue does not exist.' } },
    });
  });
});
