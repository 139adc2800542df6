import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { ExtendedIssueItem, IssueItem } from '../../../src/modules/issues/issues.schemas.js';
import { automationDirectory } from '../../../src/modules/syncs/automation.seed.js';
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

/**
 * The issue lists and one issue, over the seeded issues: an open and a closed one of each level.
 * Sorted by last seen, newest first: open warning (15 Jan), open error (14 Jan 16:01), closed warning
 * (14 Jan 02:00), closed error (12 Jan).
 */

let s: TestSandbox;
let token: string;
const auto = automationDirectory(SEED);
const MISSING = '00000000-0000-4000-8000-000000000000';
const OPEN_WARNING = auto.openWarningIssueId;
const OPEN_ERROR = auto.openErrorIssueId;
const CLOSED_WARNING = auto.closedWarningIssueId;
const CLOSED_ERROR = auto.closedErrorIssueId;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const api = (method: string, path: string, options: CallOptions = {}) =>
  call(s.app, method, path, { token, ...options });

const idsOf = (body: unknown) => (body as { id: string }[]).map((i) => i.id);

describe('issues', () => {
  it('lists the issues of the environment, last seen first, in the IssueItem shape', async () => {
    const res = await api('GET', '/issues');
    expect(res.status).toBe(200);
    const items = (res.body as unknown[]).map((i) => IssueItem.parse(i));
    expect(items.map((i) => i.id)).toEqual([OPEN_WARNING, OPEN_ERROR, CLOSED_WARNING, CLOSED_ERROR]);
    expect(items[1]).toMatchObject({
      consumer_id: s.ids.syncConsumerId,
      integration_id: 7010,
      integration_name: 'Evoliz',
      occurrences: 2,
      level: 'error',
      error: { error_code: 'ERROR_MAPPING_MISSING', status: '400', title: 'A mapping is missing' },
    });
    expect(items[0]).toMatchObject({
      consumer_id: s.ids.verticalConsumers.POS,
      level: 'warning',
      integration_id: 9012,
    });
  });

  const filters: [string, string, string[]][] = [
    ['status=open', 'status=open', [OPEN_WARNING, OPEN_ERROR]],
    ['status=closed', 'status=closed', [CLOSED_WARNING, CLOSED_ERROR]],
    ['status=all', 'status=all', [OPEN_WARNING, OPEN_ERROR, CLOSED_WARNING, CLOSED_ERROR]],
    ['level=warning', 'level=warning', [OPEN_WARNING, CLOSED_WARNING]],
    ['level=error', 'level=error', [OPEN_ERROR, CLOSED_ERROR]],
    ['error_code', 'error_code=ERROR_MAPPING_MISSING', [OPEN_ERROR]],
    ['an unknown error_code', 'error_code=NOPE', []],
    ['created_on (that day or later)', 'created_on=2026-01-14', [OPEN_WARNING, OPEN_ERROR, CLOSED_WARNING]],
    ['created_on of the last day', 'created_on=2026-01-15', []],
    ['last_seen_on (that day or later)', 'last_seen_on=2026-01-15', [OPEN_WARNING]],
    ['status and level together', 'status=open&level=error', [OPEN_ERROR]],
    ['created_on and status together', 'created_on=2026-01-14&status=closed', [CLOSED_WARNING]],
    ['level and error_code that exclude each other', 'level=warning&error_code=ERROR_MAPPING_MISSING', []],
    ['last_seen_on and level together', 'last_seen_on=2026-01-14&level=error', [OPEN_ERROR]],
  ];
  it.each(filters)('filters by %s (each filter given must match)', async (_label, query, expected) => {
    const res = await api('GET', `/issues?${query}`);
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual(expected);
  });

  it.each<[string, string, string[], string?]>([
    ['an unknown status', 'status=pending', ['query', 'status'], 'enum'],
    ['an unknown level', 'level=info', ['query', 'level'], 'enum'],
    [
      'a created_on that is not a date',
      'created_on=14-01-2026',
      ['query', 'created_on'],
      'date_from_datetime_parsing',
    ],
    ['a last_seen_on that is a date-time', 'last_seen_on=2026-01-14T00:00:00Z', ['query', 'last_seen_on']],
  ])('%s is a validation error', async (_label, query, loc, type) => {
    expectValidation(await api('GET', `/issues?${query}`), loc, type);
  });

  it("lists one consumer's issues with the same filters", async () => {
    const res = await api('GET', `/consumers/${s.ids.syncConsumerId}/issues`);
    expect(idsOf(res.body)).toEqual([OPEN_ERROR, CLOSED_WARNING, CLOSED_ERROR]);
    const open = await api('GET', `/consumers/${s.ids.syncConsumerId}/issues?status=open`);
    expect(idsOf(open.body)).toEqual([OPEN_ERROR]);
    const pos = await api(
      'GET',
      `/consumers/${(s.ids.verticalConsumers.POS as string).toUpperCase()}/issues`,
    );
    expect(idsOf(pos.body)).toEqual([OPEN_WARNING]);
    expect((await api('GET', `/consumers/${s.ids.multiFolderConsumerId}/issues`)).body).toEqual([]);
  });

  it.each([
    ['an unknown uuid', () => MISSING],
    ['a string that is not a uuid', () => 'not-a-consumer'],
    ["another account's consumer", () => s.ids.otherAccountConsumerId],
  ])("a consumer's issues: %s is a 404 with the issues' own message", async (_label, consumer) => {
    expectError(await api('GET', `/consumers/${consumer()}/issues`), errors.issueConsumerNotFound());
  });

  it("a consumer's issues: the other environment's consumer is a 401", async () => {
    expectError(
      await api('GET', `/consumers/${s.ids.productionConsumerId}/issues`),
      errors.wrongEnvironment(),
    );
  });

  it('one issue, with its events; last_execution_only keeps those of the last execution', async () => {
    const res = await api('GET', `/issues/${OPEN_ERROR}`);
    const issue = ExtendedIssueItem.parse(res.body);
    expect(issue.events).toHaveLength(2);
    expect(issue.events?.map((e) => e.message)).toEqual([
      'No VAT code mapped for the tax rate 12',
      'No VAT code mapped for the tax rate 12',
    ]);
    expect(issue.events?.[1]?.created_on).toBe(issue.last_seen);
    const last = ExtendedIssueItem.parse(
      (await api('GET', `/issues/${OPEN_ERROR}?last_execution_only=true`)).body,
    );
    expect(last.events).toEqual([issue.events?.[1]]);
    const all = await api('GET', `/issues/${OPEN_ERROR.toUpperCase()}?last_execution_only=false`);
    expect(all.body.events).toHaveLength(2);
  });

  it.each([
    ['an unknown id', () => MISSING],
    ['an id that is not a uuid', () => 'issue-1'],
  ])('one issue: %s is a 404', async (_label, id) => {
    expectError(await api('GET', `/issues/${id()}`), errors.issueNotFound());
  });

  it('last_execution_only must be true or false', async () => {
    expectValidation(
      await api('GET', `/issues/${OPEN_ERROR}?last_execution_only=maybe`),
      ['query', 'last_execution_only'],
      'enum',
    );
  });

  it('other accounts, the other environment and restricted keys see none of these issues', async () => {
    const other = await tokenFor(s.app, { ...s.ids.otherAccount });
    expect((await call(s.app, 'GET', '/issues', { token: other })).body).toEqual([]);
    expectError(await call(s.app, 'GET', `/issues/${OPEN_ERROR}`, { token: other }), errors.issueNotFound());
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    expect((await call(s.app, 'GET', '/issues', { token: production })).body).toEqual([]);
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    expect((await call(s.app, 'GET', '/issues', { token: restricted })).body).toEqual([]);
    expectError(
      await call(s.app, 'GET', `/issues/${OPEN_ERROR}`, { token: restricted }),
      errors.issueNotFound(),
    );
  });

  it('deleting the consumer removes its issues', async () => {
    expect((await api('DELETE', `/consumers/${s.ids.syncConsumerId}`)).status).toBe(204);
    expect(idsOf((await api('GET', '/issues')).body)).toEqual([OPEN_WARNING]);
  });
});
