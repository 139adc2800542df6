import { own } from '../../../lib/own.js';
import type { ExecutionRecord, IssueRecord, World } from '../../../store/world.js';
import { issueEvent, publishEvent } from '../../webhooks/index.js';
import type { SimServices } from './engine.js';
import { describeError } from './error-codes.js';

/**
 * The issues side of a settled execution: a failure opens an issue for its consumer and source (a
 * flow, or the datalayer sync of a connection) or, when one with the same error code and level is
 * open, adds an occurrence to it; a success closes the open issues of the same consumer and source.
 * Each change publishes account.issue.created or account.issue.updated.
 */

/** Events kept per issue: the oldest go first beyond this. */
export const MAX_EVENTS_PER_ISSUE = 100;

const sameSource = (issue: IssueRecord, execution: ExecutionRecord) =>
  issue.consumerid === execution.consumerid &&
  (execution.kind === 'datalayer'
    ? issue.datalayer_of === execution.used_connectionid
    : issue.flowid === execution.flowid && issue.syncid === execution.syncid);

function publishIssue(services: SimServices, issue: IssueRecord, event: 'created' | 'updated'): number {
  return publishEvent(services, issueEvent(event, issue));
}

function integrationOf(services: SimServices, world: World, execution: ExecutionRecord) {
  const connection = execution.used_connectionid
    ? own(world.connections, execution.used_connectionid)
    : undefined;
  const integrationid = connection?.integrationid ?? execution.integrationid;
  const integration = integrationid !== null ? services.catalogue.get(integrationid) : undefined;
  return {
    connection_id: execution.used_connectionid,
    integration_id: integrationid,
    integration_name: integration?.name ?? connection?.name ?? null,
  };
}

/** Opens or updates the issue of a failed execution; returns the number of deliveries queued. */
export function recordFailure(services: SimServices, execution: ExecutionRecord): number {
  const failure = execution.failure;
  if (!failure || execution.end === null) return 0;
  const world = services.store.world;
  const at = execution.end;
  const description = describeError(failure.error_code, failure.message);
  const event = {
    id: services.ids.next('issue-event'),
    execution_id: execution.executionid,
    created_on: at,
    context: {
      kind: execution.kind,
      trigger: execution.trigger,
      syncid: execution.syncid,
      flowid: execution.flowid,
      connectionid: execution.used_connectionid,
    },
    message: failure.message ?? description.description,
  };
  const open = Object.values(world.issues).find(
    (issue) =>
      issue.status === 'open' &&
      issue.error_code === failure.error_code &&
      issue.level === failure.level &&
      sameSource(issue, execution),
  );
  if (open) {
    open.occurrences += 1;
    open.last_seen = at;
    open.updated_on = at;
    open.events.push(event);
    if (open.events.length > MAX_EVENTS_PER_ISSUE)
      open.events.splice(0, open.events.length - MAX_EVENTS_PER_ISSUE);
    return publishIssue(services, open, 'updated');
  }
  const issue: IssueRecord = {
    issue_id: services.ids.next('issue'),
    accountid: execution.accountid,
    envid: execution.envid,
    consumerid: execution.consumerid,
    ...integrationOf(services, world, execution),
    syncid: execution.syncid,
    flowid: execution.flowid,
    datalayer_of: execution.kind === 'datalayer' ? execution.used_connectionid : null,
    error_code: failure.error_code,
    error_status: description.status,
    error_title: description.title,
    error_description: description.description,
    level: failure.level,
    status: 'open',
    created_on: at,
    updated_on: at,
    last_seen: at,
    occurrences: 1,
    events: [event],
  };
  world.issues[issue.issue_id] = issue;
  return publishIssue(services, issue, 'created');
}

/** Closes the open issues of the execution's consumer and source; returns the deliveries queued. */
export function closeIssuesAfter(services: SimServices, execution: ExecutionRecord): number {
  if (execution.end === null) return 0;
  let published = 0;
  for (const issue of Object.values(services.store.world.issues)) {
    if (issue.status !== 'open' || !sameSource(issue, execution)) continue;
    issue.status = 'closed';
    issue.updated_on = execution.end;
    published += publishIssue(services, issue, 'updated');
  }
  return published;
}
