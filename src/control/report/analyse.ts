import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from '@hono/zod-openapi';
import type { Catalogue } from '../../platform/catalogue.js';
import type { Scrubber } from '../../platform/scrub.js';
import type { World } from '../../store/world.js';
import { isAuthenticationPath } from '../requests/paths.js';
import { type ControlCallNote, type JournalRecord, recordId } from '../requests/records.js';
import { bearerOf, type Call, claimsOf, listKeyOf, queryOf } from './calls.js';
import { coverageOf, routes, webhooks } from './coverage.js';
import { Findings } from './findings.js';
import type { OperationIndex } from './operations.js';
import type { CoverageEntrySchema, ReportSchema } from './schemas.js';
import { tokenHygiene } from './tokens.js';
import { errorsAndReactions, pagination, writes } from './traffic.js';

/**
 * The readiness report: what a world's journal, webhooks and deliveries say of the client that
 * called it, as findings a person reads and CI fails on. A pure function of what it is handed: the
 * same requests give the same report.
 */

export type { Finding } from './findings.js';
export type CoverageEntry = z.infer<typeof CoverageEntrySchema>;
export type ReadinessReport = z.infer<typeof ReportSchema>;

export interface ReportInput {
  records: readonly JournalRecord[];
  operations: OperationIndex;
  world: World;
  catalogue: Catalogue;
  now: Date;
  /** Only what concerns this consumer (and the client's tokens). */
  consumerId?: string | undefined;
  /** Only what concerns this connection (its requests; the webhooks stay the account's). */
  connectionId?: string | undefined;
  /** The vertical segments of consumer paths (accounting, pos...): their writes carry a request id. */
  areas: ReadonlySet<string>;
  /** Control endpoints called with an API token (see RequestJournal.controlCalls). */
  controlCalls?: readonly ControlCallNote[];
  /** What every finding's text goes through (the urls of webhooks it cites may carry tokens). */
  scrubber: Scrubber;
}

/** Longest a report works before it lets other requests in, in milliseconds. */
const SLICE_MS = 8;

/** Runs `work` over `items`, letting other requests in every few milliseconds. */
async function sliced<T>(items: readonly T[], work: (item: T, index: number) => void): Promise<void> {
  let start = performance.now();
  for (let i = 0; i < items.length; i += 1) {
    if (i % 64 === 0 && performance.now() - start > SLICE_MS) {
      await nextTurn();
      start = performance.now();
    }
    work(items[i] as T, i);
  }
}

export async function readinessReport(input: ReportInput): Promise<ReadinessReport> {
  const { operations, world, catalogue } = input;
  const consumerFilter = input.consumerId?.toLowerCase();
  const findings = new Findings();
  const calls: Call[] = [];
  await sliced(input.records, (record) => {
    const token = bearerOf(record);
    const claims = token ? claimsOf(token) : null;
    const query = queryOf(record.url);
    calls.push({
      record,
      id: recordId(record),
      at: record.at,
      method: record.method,
      path: record.path,
      listKey: listKeyOf(record.path, query),
      query,
      operation: operations.match(record.method, record.path),
      token,
      claims,
      client: record.principal?.clientid ?? claims?.sub ?? null,
    });
  });
  const tokenCalls = calls.filter((call) => call.method === 'POST' && call.path === '/token');
  const apiCalls = calls.filter((call) => !isAuthenticationPath(call.path));
  // The client's tokens are its own whatever the consumer; the rest is about the consumer asked for.
  const connectionFilter = input.connectionId?.toLowerCase();
  const scoped = apiCalls.filter(
    (call) =>
      (!consumerFilter || call.record.consumerId === consumerFilter) &&
      (!connectionFilter || call.record.connectionId === connectionFilter),
  );

  // Each reading in its turn, letting other requests in between (a full journal takes a few tens of
  // milliseconds per reading).
  const tokens = tokenHygiene(tokenCalls, apiCalls, findings);
  await nextTurn();
  errorsAndReactions(scoped, findings);
  await nextTurn();
  pagination(scoped, findings);
  await nextTurn();
  const written = writes(scoped, operations, input.areas, findings);
  await nextTurn();
  routes(scoped, operations, input.controlCalls ?? [], findings);
  await nextTurn();
  const coverage = coverageOf(scoped, world, catalogue, input.areas, findings);
  await nextTurn();
  webhooks(world, consumerFilter, findings);

  const list = findings.list(input.scrubber);
  const kinds: Record<string, number> = {};
  for (const finding of list) kinds[finding.kind] = (kinds[finding.kind] ?? 0) + 1;
  const times = calls.map((call) => call.at);
  return {
    generated_at: input.now.toISOString(),
    consumer_id: consumerFilter ?? null,
    connection_id: connectionFilter ?? null,
    requests: {
      recorded: calls.length,
      api_calls: scoped.length,
      token_requests: tokenCalls.length,
      first: times.length ? new Date(Math.min(...times)).toISOString() : null,
      last: times.length ? new Date(Math.max(...times)).toISOString() : null,
    },
    tokens,
    writes: written,
    summary: {
      findings: list.length,
      errors: list.filter((f) => f.severity === 'error').length,
      warnings: list.filter((f) => f.severity === 'warning').length,
      infos: list.filter((f) => f.severity === 'info').length,
      kinds,
    },
    coverage,
    findings: list,
  };
}
