import { errors } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import { canSee, requireConsumer } from '../../platform/access.js';
import type { Principal } from '../../platform/tokens.js';
import type { IssueRecord, World } from '../../store/world.js';
import type { ExtendedIssueOut, IssueItemOut, IssuesFilters } from './issues.schemas.js';

export function toIssueItem(issue: IssueRecord): IssueItemOut {
  return {
    id: issue.issue_id,
    consumer_id: issue.consumerid,
    connection_id: issue.connection_id ?? '',
    integration_id: issue.integration_id ?? 0,
    integration_name: issue.integration_name ?? '',
    created_on: issue.created_on,
    updated_on: issue.updated_on,
    last_seen: issue.last_seen,
    error: {
      error_code: issue.error_code,
      status: issue.error_status,
      title: issue.error_title,
      description: issue.error_description,
    },
    occurrences: issue.occurrences,
    level: issue.level,
    status: issue.status,
  };
}

/** The issue with its events; with lastExecutionOnly, those of the execution of the latest event. */
export function toExtendedIssueItem(issue: IssueRecord, lastExecutionOnly: boolean): ExtendedIssueOut {
  const last = issue.events.at(-1)?.execution_id;
  const events = lastExecutionOnly ? issue.events.filter((e) => e.execution_id === last) : issue.events;
  return { ...toIssueItem(issue), events: events.map((e) => ({ ...e })) };
}

const dayOf = (iso: string) => iso.slice(0, 10);

/**
 * The filters of the issue lists. Each filter given must match (they combine); the date filters are
 * inclusive lower bounds: created_on=D keeps the issues created on day D or later (UTC), and
 * last_seen_on=D those last seen on D or later. status defaults to all.
 */
export function matchesIssueFilters(issue: IssueRecord, filters: IssuesFilters): boolean {
  if (filters.created_on !== undefined && dayOf(issue.created_on) < filters.created_on) return false;
  if (filters.last_seen_on !== undefined && dayOf(issue.last_seen) < filters.last_seen_on) return false;
  if (filters.error_code !== undefined && issue.error_code !== filters.error_code) return false;
  if (filters.status !== undefined && filters.status !== 'all' && issue.status !== filters.status)
    return false;
  if (filters.level !== undefined && issue.level !== filters.level) return false;
  return true;
}

const seenLatestFirst = (a: IssueRecord, b: IssueRecord) =>
  b.last_seen.localeCompare(a.last_seen) || b.issue_id.localeCompare(a.issue_id);

export function listIssues(
  world: World,
  principal: Principal,
  filters: IssuesFilters,
  consumerid?: string,
): IssueRecord[] {
  return Object.values(world.issues)
    .filter(
      (issue) =>
        canSee(principal, issue) &&
        (consumerid === undefined || issue.consumerid === consumerid) &&
        matchesIssueFilters(issue, filters),
    )
    .sort(seenLatestFirst);
}

/** The consumer of the per-consumer list: any id that is not one of the caller's consumers is a 404. */
export function requireIssueConsumer(world: World, principal: Principal, consumerId: string) {
  if (!isUuid(consumerId)) throw errors.issueConsumerNotFound();
  return requireConsumer(world, principal, consumerId, errors.issueConsumerNotFound);
}

export function requireIssue(world: World, principal: Principal, issueId: string): IssueRecord {
  const key = issueId.toLowerCase();
  const issue = own(world.issues, key);
  if (!issue || !canSee(principal, issue)) throw errors.issueNotFound();
  return issue;
}
