import { describe, expect, it } from 'vitest';
import { seedDirectory, seedWorld } from '../../../src/control/seeded-world.js';
import {
  listIssues,
  matchesIssueFilters,
  requireIssue,
  requireIssueConsumer,
  toExtendedIssueItem,
  toIssueItem,
} from '../../../src/modules/issues/issues.domain.js';
import type { IssuesFilters } from '../../../src/modules/issues/issues.schemas.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
import type { Principal } from '../../../src/platform/tokens.js';
import type { IssueRecord, World } from '../../../src/store/world.js';
import { refusal } from '../domain-helpers.js';

/** The issue rules called directly, each test on a copy of the seeded world of seed 7. */

const SEEDED = seedWorld(7);
const world = (): World => structuredClone(SEEDED);
const DIR = seedDirectory(7);
const IDS = automationDirectory(7);
const SYNC_CONSUMER = DIR.syncConsumerId;
const POS_CONSUMER = DIR.verticalConsumers.POS as string;
const EVOLIZ_CONNECTION = '76986271-34e1-47cf-89d2-91a8cb78af05';

const principal = (over: Partial<Principal> = {}): Principal => ({
  ...{ kind: 'api', clientid: 'key', accountid: DIR.accountId, envid: DIR.sandboxEnvId },
  ...{ consumers: null, mcp: null, ...over },
});

function issue(w: World, id: string): IssueRecord {
  const found = w.issues[id];
  if (!found) throw new Error(`no issue ${id}`);
  return found;
}

const NO_CONSUMER = { status: 404, message: 'The consumer does not exist.', detail: '', code: undefined };
const NO_ISSUE = { status: 404, message: 'The issue does not exist.', detail: '', code: undefined };
const WRONG_ENV = {
  ...{
    status: 401,
    message: 'The API key of this token does not belong to the environment of this resource',
  },
  ...{ detail: '', code: 'ERROR_SERVICE_AUTHENTICATION_ERROR' },
};

describe('the wire shape of an issue', () => {
  it('copies the record, its error as a block', () => {
    const w = world();
    const record = issue(w, IDS.openErrorIssueId);
    expect(toIssueItem(record)).toEqual({
      ...{ id: IDS.openErrorIssueId, consumer_id: SYNC_CONSUMER, connection_id: EVOLIZ_CONNECTION },
      ...{ integration_id: 7010, integration_name: 'Evoliz', created_on: '2026-01-14T10:00:44.000Z' },
      ...{ updated_on: '2026-01-14T16:01:03.000Z', last_seen: '2026-01-14T16:01:03.000Z' },
      error: {
        ...{ error_code: 'ERROR_MAPPING_MISSING', status: record.error_status },
        ...{ title: record.error_title, description: record.error_description },
      },
      ...{ occurrences: 2, level: 'error', status: 'open' },
    });
  });

  it('answers an issue without connection with empty strings and 0', () => {
    const record = issue(world(), IDS.openErrorIssueId);
    Object.assign(record, { connection_id: null, integration_id: null, integration_name: null });
    const item = toIssueItem(record);
    expect([item.connection_id, item.integration_id, item.integration_name]).toEqual(['', 0, '']);
  });

  it.each([
    [false, ['328b0392-2319-4852-a507-a288756f308c', 'e79090cc-0779-4484-bb5f-b53cdc6edee9']],
    [true, ['e79090cc-0779-4484-bb5f-b53cdc6edee9']],
  ])('with lastExecutionOnly=%s keeps the events of %j', (lastOnly, executions) => {
    const record = issue(world(), IDS.openErrorIssueId);
    const events = toExtendedIssueItem(record, lastOnly).events ?? [];
    expect(events.map((e) => e.execution_id)).toEqual(executions);
    expect(events[0]).not.toBe(record.events.at(-executions.length));
    expect(events[0]).toEqual(record.events.at(-executions.length));
  });

  it('keeps every event of the last execution, and none for an issue without events', () => {
    const record = issue(world(), IDS.openErrorIssueId);
    const [first, second] = record.events;
    if (!first || !second) throw new Error('two events expected');
    record.events.push({ ...first, id: 'third', execution_id: second.execution_id });
    expect(toExtendedIssueItem(record, true).events?.map((e) => e.id)).toEqual([second.id, 'third']);
    record.events = [];
    expect(toExtendedIssueItem(record, true).events).toEqual([]);
  });
});

describe('the filters of the issue lists', () => {
  // The open error issue: created 2026-01-14T10:00:44Z, last seen 2026-01-14T16:01:03Z.
  it.each<[string, IssuesFilters, boolean]>([
    ['no filter', {}, true],
    ['created on its day', { created_on: '2026-01-14' }, true],
    ['created the day before', { created_on: '2026-01-13' }, true],
    ['created the day after', { created_on: '2026-01-15' }, false],
    ['last seen on its day', { last_seen_on: '2026-01-14' }, true],
    ['last seen the day after', { last_seen_on: '2026-01-15' }, false],
    ['its error code', { error_code: 'ERROR_MAPPING_MISSING' }, true],
    ['another error code', { error_code: 'ERROR_RATE_LIMITED' }, false],
    ['its error code in other letters', { error_code: 'error_mapping_missing' }, false],
    ['status all', { status: 'all' }, true],
    ['status open', { status: 'open' }, true],
    ['status closed', { status: 'closed' }, false],
    ['level error', { level: 'error' }, true],
    ['level warning', { level: 'warning' }, false],
    ['every filter matching', { created_on: '2026-01-14', status: 'open', level: 'error' }, true],
    ['one of several failing', { created_on: '2026-01-14', status: 'open', level: 'warning' }, false],
  ])('%s: %s', (_name, filters, expected) => {
    expect(matchesIssueFilters(issue(world(), IDS.openErrorIssueId), filters)).toBe(expected);
  });

  it('compares days in UTC: an issue at 23:59Z is of that day, one at 00:00Z of the next', () => {
    const record = issue(world(), IDS.openErrorIssueId);
    record.created_on = '2026-03-01T23:59:59.999Z';
    expect(matchesIssueFilters(record, { created_on: '2026-03-01' })).toBe(true);
    expect(matchesIssueFilters(record, { created_on: '2026-03-02' })).toBe(false);
    record.created_on = '2026-03-02T00:00:00.000Z';
    expect(matchesIssueFilters(record, { created_on: '2026-03-02' })).toBe(true);
  });
});

describe('the issue lists', () => {
  const ALL = [
    IDS.openWarningIssueId,
    IDS.openErrorIssueId,
    IDS.closedWarningIssueId,
    IDS.closedErrorIssueId,
  ];

  it.each<[string, Partial<Principal>, IssuesFilters, string | undefined, string[]]>([
    ['every issue of the environment, last seen first', {}, {}, undefined, ALL],
    ['the open ones', {}, { status: 'open' }, undefined, [IDS.openWarningIssueId, IDS.openErrorIssueId]],
    ['the warnings', {}, { level: 'warning' }, undefined, [IDS.openWarningIssueId, IDS.closedWarningIssueId]],
    ['seen on the 15th or later', {}, { last_seen_on: '2026-01-15' }, undefined, [IDS.openWarningIssueId]],
    ['of one consumer', {}, {}, POS_CONSUMER, [IDS.openWarningIssueId]],
    ['of a consumer without issues', {}, {}, DIR.customConsumerId, []],
    [
      'for a key restricted to another consumer',
      { consumers: new Set([DIR.restricted.consumerId]) },
      {},
      undefined,
      [],
    ],
    [
      'for a key restricted to the POS consumer',
      { consumers: new Set([POS_CONSUMER]) },
      {},
      undefined,
      [IDS.openWarningIssueId],
    ],
    ['of the production environment', { envid: DIR.productionEnvId }, {}, undefined, []],
    ['of another account', { accountid: DIR.otherAccount.accountId }, {}, undefined, []],
  ])('%s', (_name, caller, filters, consumerid, expected) => {
    const list = listIssues(world(), principal(caller), filters, consumerid);
    expect(list.map((i) => i.issue_id)).toEqual(expected);
  });

  it('orders issues last seen together by id, the greatest first', () => {
    const w = world();
    for (const id of ALL) issue(w, id).last_seen = '2026-01-15T00:00:00.000Z';
    const sorted = [...ALL].sort().reverse();
    expect(listIssues(w, principal(), {}).map((i) => i.issue_id)).toEqual(sorted);
  });
});

describe('the consumer of the per-consumer list', () => {
  it('finds a consumer of the caller, its id in any letter case', () => {
    expect(requireIssueConsumer(world(), principal(), SYNC_CONSUMER.toUpperCase()).consumerid).toBe(
      SYNC_CONSUMER,
    );
  });

  it.each([
    ['not a uuid', 'not-a-uuid', {}, NO_CONSUMER],
    ['an inherited name', '__proto__', {}, NO_CONSUMER],
    ['an unknown uuid', '00000000-0000-4000-8000-000000000000', {}, NO_CONSUMER],
    ["another account's consumer", DIR.otherAccountConsumerId, {}, NO_CONSUMER],
    ['a consumer outside a restricted key', SYNC_CONSUMER, { consumers: new Set(['x']) }, NO_CONSUMER],
    ['a consumer of the other environment', DIR.productionConsumerId, {}, WRONG_ENV],
  ])('refuses %s', (_name, id, caller, expected) => {
    expect(refusal(() => requireIssueConsumer(world(), principal(caller), id))).toEqual(expected);
  });
});

describe('one issue', () => {
  it('is found by its id in any letter case', () => {
    const w = world();
    expect(requireIssue(w, principal(), IDS.openErrorIssueId.toUpperCase())).toBe(
      issue(w, IDS.openErrorIssueId),
    );
  });

  it.each<[string, string, Partial<Principal>]>([
    ['an unknown id', '00000000-0000-4000-8000-000000000000', {}],
    ['__proto__', '__proto__', {}],
    ['constructor', 'constructor', {}],
    [
      'an issue of a consumer outside a restricted key',
      IDS.openErrorIssueId,
      { consumers: new Set([POS_CONSUMER]) },
    ],
    [
      'an issue of the other environment (404, not 401)',
      IDS.openErrorIssueId,
      { envid: DIR.productionEnvId },
    ],
    ['an issue of another account', IDS.openErrorIssueId, { accountid: DIR.otherAccount.accountId }],
  ])('does not exist for %s', (_name, id, caller) => {
    expect(refusal(() => requireIssue(world(), principal(caller), id))).toEqual(NO_ISSUE);
  });
});
