import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from '@hono/zod-openapi';
import { attemptErrorKind } from '../../modules/webhooks/index.js';
import type { Catalogue } from '../../platform/catalogue.js';
import type { Scrubber } from '../../platform/scrub.js';
import { TOKEN_LIFETIME_SECONDS, unverifiedClaims } from '../../platform/tokens.js';
import { CLIENT_REQUEST_ID_HEADER } from '../../platform/transactions.js';
import type { World } from '../../store/world.js';
import { isAuthenticationPath } from '../requests/paths.js';
import { type ControlCallNote, type JournalRecord, recordHeader, recordId } from '../requests/records.js';
import { compare, Findings } from './findings.js';
import { COMPANIONS } from './kinds.js';
import { invalidValues, type Operation, type OperationIndex, unknownFields } from './operations.js';
import type { CoverageEntrySchema, ReportSchema } from './schemas.js';

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

/** A token renewed with more than this left was renewed too early (the SDKs renew 30 s before). */
const EARLY_RENEWAL_SECONDS = 5 * 60;
/** Renewals too early before the report says so (one is a restart). */
const EARLY_RENEWALS_FLAGGED = 2;
/** The same whole list pulled this many times without a filter of what changed. */
const FULL_PULLS_FLAGGED = 3;
/** Longest a report works before it lets other requests in, in milliseconds. */
const SLICE_MS = 8;
const WRITES = new Set(['POST', 'PUT', 'PATCH']);
/** Query parameters that read only what changed. */
const INCREMENTAL = ['updated_after', 'date_from', 'date_to', 'starting_from'];
const PAGING = new Set(['page', 'size']);

interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
}

/** What the report reads of one recorded request. */
interface Call {
  record: JournalRecord;
  id: string;
  at: number;
  method: string;
  path: string;
  /** The query without page and size, sorted: the list it reads. */
  listKey: string;
  query: URLSearchParams;
  operation: Operation | null;
  token: string | null;
  claims: TokenClaims | null;
  client: string | null;
}

/** The claims of a JWT, read without checking it (the API checked it; the report only reads). */
function claimsOf(token: string): TokenClaims | null {
  const claims = unverifiedClaims(token);
  if (!claims || claims.exp === undefined) return null;
  return { sub: claims.sub, iat: claims.iat ?? claims.exp - TOKEN_LIFETIME_SECONDS, exp: claims.exp };
}

function bearerOf(record: JournalRecord): string | null {
  const value = recordHeader(record, 'authorization');
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1] ?? null;
}

function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

function listKeyOf(path: string, query: URLSearchParams): string {
  const kept = [...query]
    .filter(([name]) => !PAGING.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(kept).toString()}`;
}

/** The error an answer carried: its class (status and error_code), message and detail. */
function errorOf(record: JournalRecord): { key: string; message: string; detail: string } {
  const text = record.responseBody;
  let code = '';
  let message = '';
  let detail = '';
  if (text !== null && text.length < 64 * 1024) {
    try {
      const body = JSON.parse(text) as { error_code?: unknown; message?: unknown; detail?: unknown };
      if (typeof body.error_code === 'string') code = body.error_code;
      if (typeof body.detail === 'string') detail = body.detail;
      if (typeof body.message === 'string') message = body.message;
      if (Array.isArray(body.detail)) {
        const fields = (body.detail as { loc?: unknown[] }[])
          .map((issue) => (Array.isArray(issue.loc) ? issue.loc.join('.') : ''))
          .filter(Boolean);
        detail = `invalid: ${[...new Set(fields)].join(', ')}`;
      }
    } catch {
      // Not JSON: the class is the status alone.
    }
  }
  return { key: code ? `${record.status} ${code}` : String(record.status), message, detail };
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

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

function tokenHygiene(tokenCalls: Call[], apiCalls: Call[], findings: Findings): ReadinessReport['tokens'] {
  const issued = tokenCalls.filter((call) => call.record.status === 200);
  // Tokens per hour of sandbox time.
  const perHour = new Map<number, number>();
  for (const call of issued) {
    const hour = Math.floor(call.at / 3_600_000);
    perHour.set(hour, (perHour.get(hour) ?? 0) + 1);
  }
  // A client's new token while its previous one had more than EARLY_RENEWAL_SECONDS left.
  const lastIssued = new Map<string, number>();
  const early = new Map<string, Call[]>();
  for (const call of issued) {
    if (!call.client) continue;
    const previous = lastIssued.get(call.client);
    if (
      previous !== undefined &&
      previous + (TOKEN_LIFETIME_SECONDS - EARLY_RENEWAL_SECONDS) * 1000 > call.at
    ) {
      const list = early.get(call.client) ?? [];
      list.push(call);
      early.set(call.client, list);
    }
    lastIssued.set(call.client, call.at);
  }
  for (const [client, renewals] of early) {
    if (renewals.length < EARLY_RENEWALS_FLAGGED) continue;
    const requested = issued.filter((call) => call.client === client).length;
    const used = apiCalls.filter((call) => call.client === client).length;
    for (const call of renewals) {
      findings.add(
        'token_not_reused',
        { key: client },
        (count) =>
          `Client ${client} requested ${plural(requested, 'token')} for ${plural(used, 'API call')}; ${count} of them while the previous token had more than ${EARLY_RENEWAL_SECONDS / 60} minutes left.`,
        call.id,
      );
    }
  }
  // Requests sent with a token past its expiry (the API answered 401), and 401s not acted on.
  let expired = 0;
  const refused = new Map<string, Call>();
  for (const call of apiCalls) {
    if (call.claims && call.claims.exp * 1000 <= call.at) {
      expired += 1;
      findings.add(
        'expired_token_used',
        { key: call.client ?? '' },
        (count) =>
          `${plural(count, 'request')} of client ${call.client ?? '(unknown)'} carried a token past its expires_on.`,
        call.id,
      );
    }
    if (!call.token) continue;
    const earlier = refused.get(call.token);
    if (earlier && call.record.status === 401) {
      findings.add(
        'no_new_token_after_401',
        { key: call.client ?? '' },
        (count) =>
          `After a 401 (${earlier.id}), ${plural(count, 'more request')} of client ${call.client ?? '(unknown)'} sent the same token.`,
        call.id,
      );
    }
    if (call.record.status === 401) refused.set(call.token, call);
  }
  const distinct = new Set(apiCalls.flatMap((call) => (call.token ? [call.token] : [])));
  return {
    requested: issued.length,
    most_in_one_hour: Math.max(0, ...perHour.values()),
    distinct_used: distinct.size,
    expired_uses: expired,
  };
}

function signature(call: Call): string {
  return `${call.method} ${call.path}?${call.query.toString()}\n${call.record.requestBody ?? ''}`;
}

function errorsAndReactions(calls: Call[], findings: Findings): void {
  // For each error class: how many, and what came next on the same operation. The next call of each
  // operation (or path) is found in one pass from the end.
  const nextOf = new Array<Call | undefined>(calls.length);
  const latest = new Map<string, Call>();
  for (let index = calls.length - 1; index >= 0; index -= 1) {
    const call = calls[index] as Call;
    const key = call.operation?.operationId ?? `${call.method} ${call.path}`;
    nextOf[index] = latest.get(key);
    latest.set(key, call);
  }
  calls.forEach((call, index) => {
    const status = call.record.status;
    if (status < 400) return;
    const error = errorOf(call.record);
    const operation = call.operation?.operationId ?? null;
    const at = { consumer: call.record.consumerId, operation, key: error.key };
    // What the client did next on the same operation (or path).
    const next = nextOf[index];
    const reaction =
      status === 401
        ? 'unauthenticated'
        : next === undefined
          ? 'gave up'
          : signature(next) === signature(call)
            ? 'retried unchanged'
            : next.record.status < 400
              ? 'corrected it'
              : 'changed it, failed again';
    findings.add(
      'error_met',
      { ...at, key: `${error.key}|${reaction}` },
      (count) =>
        `${plural(count, 'answer')} ${error.key}${error.message || error.detail ? ` (${[error.message, error.detail].filter(Boolean).join(': ')})` : ''} on ${operation ?? `${call.method} ${call.path}`}; the client then ${reaction}.`,
      call.id,
    );
    if (status === 400 && error.detail.startsWith('folder_id is required')) {
      findings.add(
        'folder_id_missing',
        { consumer: call.record.consumerId, connection: call.record.connectionId, operation },
        (count) => `${plural(count, 'accounting call')} without folder_id: ${error.detail}.`,
        call.id,
      );
    }
  });
  // The same failing request sent again unchanged.
  const failing = new Map<string, Call[]>();
  for (const call of calls) {
    const status = call.record.status;
    if (status < 400 || status === 429 || status >= 500 || status === 401) continue;
    const key = `${status}\n${signature(call)}`;
    const list = failing.get(key) ?? [];
    list.push(call);
    failing.set(key, list);
  }
  for (const [key, list] of failing) {
    if (list.length < 2) continue;
    const first = list[0] as Call;
    for (const call of list) {
      findings.add(
        'repeated_failure',
        {
          consumer: first.record.consumerId,
          operation: first.operation?.operationId ?? null,
          key,
        },
        (count) =>
          `${first.method} ${first.path} answered ${first.record.status} ${plural(count, 'time')}, sent unchanged each time.`,
        call.id,
      );
    }
  }
}

function pagination(calls: Call[], findings: Findings): void {
  // Which pages of each list were read, and the whole lists read without a filter of what changed.
  const pages = new Map<string, { read: Set<number>; size: number; total: number; calls: Call[] }>();
  const fullPulls = new Map<string, Call[]>();
  for (const call of calls) {
    if (call.method !== 'GET' || !call.operation) continue;
    const page = call.record.status === 200 ? (call.record.page ?? null) : null;
    if (!page) continue;
    const entry = pages.get(call.listKey) ?? {
      read: new Set<number>(),
      size: page.size,
      total: page.total,
      calls: [],
    };
    entry.read.add(page.page);
    entry.total = page.total;
    entry.size = page.size;
    entry.calls.push(call);
    pages.set(call.listKey, entry);
    const incremental = INCREMENTAL.some((name) => call.operation?.query.has(name));
    const filtered = INCREMENTAL.some((name) => call.query.has(name));
    if (incremental && !filtered && page.page === 1) {
      const list = fullPulls.get(call.listKey) ?? [];
      list.push(call);
      fullPulls.set(call.listKey, list);
    }
  }
  for (const entry of pages.values()) {
    const needed = Math.ceil(entry.total / Math.max(1, entry.size));
    const unread: number[] = [];
    for (let page = 1; page <= needed && unread.length < 50; page += 1)
      if (!entry.read.has(page)) unread.push(page);
    if (unread.length === 0) continue;
    const first = entry.calls[0] as Call;
    findings.add(
      'partial_list_read',
      {
        consumer: first.record.consumerId,
        connection: first.record.connectionId,
        operation: first.operation?.operationId ?? null,
        key: first.listKey,
      },
      () =>
        `${first.operation?.operationId ?? first.path}: total ${entry.total} in pages of ${entry.size}; read page ${[...entry.read].sort((a, b) => a - b).join(', ')}, never page ${unread.join(', ')}${unread.length === 50 ? '...' : ''}.`,
      first.id,
    );
  }
  for (const [key, list] of fullPulls) {
    if (list.length < FULL_PULLS_FLAGGED) continue;
    const first = list[0] as Call;
    for (const call of list) {
      findings.add(
        'repeated_full_pull',
        {
          consumer: first.record.consumerId,
          connection: first.record.connectionId,
          operation: first.operation?.operationId ?? null,
          key,
        },
        (count) =>
          `${first.operation?.operationId}: the whole list was pulled ${plural(count, 'time')} without ${[...INCREMENTAL].filter((name) => first.operation?.query.has(name)).join(' or ')}.`,
        call.id,
      );
    }
  }
}

function writes(
  calls: Call[],
  operations: OperationIndex,
  areas: ReadonlySet<string>,
  findings: Findings,
): ReadinessReport['writes'] {
  const created = new Map<string, Call[]>();
  const counts = { total: 0, with_request_id: 0, transactions_looked_up: 0 };
  for (const call of calls) {
    const operation = call.operation;
    if (
      operation?.area === 'connections' &&
      call.method === 'GET' &&
      operation.path.endsWith('/transactions')
    ) {
      counts.transactions_looked_up += 1;
    }
    if (!operation || !WRITES.has(call.method)) continue;
    const consumer = call.record.consumerId;
    const requestId = recordHeader(call.record, CLIENT_REQUEST_ID_HEADER);
    // Creates and updates of a vertical's data.
    const vertical = operation.area !== null && areas.has(operation.area);
    if (vertical) counts.total += 1;
    if (vertical && requestId) counts.with_request_id += 1;
    if (vertical && !requestId) {
      findings.add(
        'write_without_request_id',
        { consumer, connection: call.record.connectionId },
        (count) => `${plural(count, 'write')} without x-chift-client-requestid.`,
        call.id,
      );
      if (call.record.status >= 200 && call.record.status < 300 && call.record.requestBody !== null) {
        const key = `${call.method} ${call.path}\n${call.record.requestBody}`;
        const list = created.get(key) ?? [];
        list.push(call);
        created.set(key, list);
      }
    }
    // Fields the operation's schema does not define.
    if (operation.body && call.record.requestBody !== null && !call.record.requestTruncated) {
      let body: unknown;
      try {
        body = JSON.parse(call.record.requestBody);
      } catch {
        continue;
      }
      if (call.record.status >= 200 && call.record.status < 300) {
        for (const issue of invalidValues(body, operation.body, operations)) {
          findings.add(
            'accepted_only_here',
            { consumer, operation: operation.operationId, key: issue },
            (count) =>
              `${operation.operationId}: ${issue} (accepted ${plural(count, 'time')}, answered ${call.record.status}).`,
            call.id,
          );
        }
      }
      const unknown = unknownFields(body, operation.body, operations);
      for (const field of unknown) {
        findings.add(
          'unknown_body_field',
          { consumer, operation: operation.operationId, key: field },
          (count) =>
            `${operation.operationId}: the field ${field} is not in its schema (sent ${plural(count, 'time')}).`,
          call.id,
        );
      }
    }
  }
  for (const list of created.values()) {
    if (list.length < 2) continue;
    const first = list[0] as Call;
    for (const call of list.slice(1)) {
      findings.add(
        'duplicate_write',
        {
          consumer: first.record.consumerId,
          connection: first.record.connectionId,
          operation: first.operation?.operationId ?? null,
          key: first.id,
        },
        (count) =>
          `${first.method} ${first.path} with the same body succeeded ${count + 1} times without x-chift-client-requestid (first: ${first.id}).`,
        call.id,
      );
    }
  }
  return counts;
}

function routes(
  calls: Call[],
  operations: OperationIndex,
  control: readonly ControlCallNote[],
  findings: Findings,
): void {
  // Control endpoints the client's own credentials called: its code reaches for the sandbox.
  for (const call of control) {
    findings.add(
      'sandbox_only',
      { key: `${call.method} ${call.path}` },
      (count) =>
        `${call.method} ${call.path} was called ${plural(count, 'time')} with an API token of client ${call.client}: a control endpoint of the sandbox.`,
    );
  }
  for (const call of calls) {
    // The published operations' parameters (the routes beyond the document pass theirs on).
    const source = call.operation?.source;
    const known = source === 'published' || source === 'newer' ? call.operation?.query : undefined;
    if (known) {
      for (const name of new Set(call.query.keys())) {
        // page and size: the official SDKs send them on every read, and the service ignores them.
        if (known.has(name) || PAGING.has(name)) continue;
        findings.add(
          'unknown_query_parameter',
          { consumer: call.record.consumerId, operation: call.operation?.operationId ?? null, key: name },
          (count) =>
            `${call.operation?.operationId} does not take ${name} (sent ${plural(count, 'time')}); it takes ${[...known].join(', ') || 'none'}.`,
          call.id,
        );
      }
    }
    const operation = call.operation;
    if (operation?.deprecated) {
      findings.add(
        'deprecated_operation',
        { consumer: call.record.consumerId, operation: operation.operationId },
        (count) => `${operation.operationId} (${operation.summary}) called ${plural(count, 'time')}.`,
        call.id,
      );
    }
    // Routes the service answers beyond its document (the official clients call them), newer
    // operations, the link pages and images: no finding. Only what matches nothing is named.
    if (operation || call.record.status === 0) continue;
    // Only the API's namespace: the link pages, the MCP server and the home page are not API calls.
    const root = call.path.split('/').find((segment) => segment.length > 0) ?? '';
    if (!operations.roots.has(root) || root === 'mcp') continue;
    const status = call.record.status;
    const kind = status === 404 || status === 405 ? 'unknown_route' : 'sandbox_only';
    findings.add(
      kind,
      { consumer: call.record.consumerId, key: `${call.method} ${call.path}` },
      (count) =>
        kind === 'unknown_route'
          ? `${call.method} ${call.path} answered ${status} ${plural(count, 'time')}: no published operation has this path.`
          : `${call.method} ${call.path} answered ${status} ${plural(count, 'time')} here; the published API has no such operation.`,
      call.id,
    );
  }
}

function coverageOf(
  calls: Call[],
  world: World,
  catalogue: Catalogue,
  areas: ReadonlySet<string>,
  findings: Findings,
): CoverageEntry[] {
  const groups = new Map<string, { consumer: string; connection: string | null; calls: Call[] }>();
  for (const call of calls) {
    const consumer = call.record.consumerId;
    if (!consumer || !call.operation || call.operation.area === null || !areas.has(call.operation.area))
      continue;
    if (!Object.hasOwn(world.consumers, consumer)) continue;
    const connection = call.record.connectionId;
    const key = `${consumer}|${connection ?? ''}`;
    const group = groups.get(key) ?? { consumer, connection, calls: [] };
    group.calls.push(call);
    groups.set(key, group);
  }
  const out: CoverageEntry[] = [];
  for (const group of [...groups.values()].sort((a, b) =>
    compare(`${a.consumer}|${a.connection}`, `${b.consumer}|${b.connection}`),
  )) {
    const record =
      group.connection && Object.hasOwn(world.connections, group.connection)
        ? world.connections[group.connection]
        : undefined;
    const integration = record ? catalogue.get(record.integrationid) : undefined;
    const coverage = new Map((integration?.coverage ?? []).map((entry) => [entry.operation, entry.status]));
    const used = new Map<string, { calls: number; errors: number; call: Call }>();
    for (const call of group.calls) {
      const id = (call.operation as Operation).operationId;
      const entry = used.get(id) ?? { calls: 0, errors: 0, call };
      entry.calls += 1;
      if (call.record.status >= 400) entry.errors += 1;
      used.set(id, entry);
    }
    const operations = [...used.entries()]
      .sort(([a], [b]) => compare(a, b))
      .map(([operation_id, entry]) => {
        const status = coverage.get(operation_id);
        const supported = integration ? status === 'SUPPORTED' : null;
        if (integration && status !== undefined && status !== 'SUPPORTED') {
          findings.add(
            'unsupported_operation',
            { consumer: group.consumer, connection: group.connection, operation: operation_id },
            () =>
              `${operation_id} is ${status} for ${integration.name}; called ${plural(entry.calls, 'time')}.`,
            entry.call.id,
          );
        }
        return { operation_id, calls: entry.calls, errors: entry.errors, supported };
      });
    for (const rule of COMPANIONS) {
      const usedOne = rule.uses.find(
        (id) => used.get(id) && (used.get(id)?.errors ?? 0) < (used.get(id)?.calls ?? 0),
      );
      if (!usedOne) continue;
      const missing = rule.needs.filter(
        (id) => !used.has(id) && (!integration || coverage.get(id) === 'SUPPORTED'),
      );
      if (missing.length === 0) continue;
      findings.add(
        'coverage_gap',
        { consumer: group.consumer, connection: group.connection, operation: usedOne },
        () => `${usedOne} was called, never ${missing.join(' nor ')}: ${rule.why}.`,
        used.get(usedOne)?.call.id,
      );
    }
    out.push({
      consumer_id: group.consumer,
      connection_id: group.connection,
      integration_id: integration?.integrationid ?? null,
      integration: integration?.name ?? null,
      api: integration?.api ?? null,
      operations,
      supported: integration
        ? integration.coverage.filter((entry) => entry.status === 'SUPPORTED').length
        : 0,
    });
  }
  return out;
}

/** An attempt's answer the handler should have given 2xx to. */
const MISBEHAVIOURS = new Set([
  'duplicate',
  'reorder',
  'stale',
  'delay_seconds',
  'drop_then_redeliver_seconds',
]);

function webhooks(world: World, consumer: string | undefined, findings: Findings): void {
  for (const webhook of Object.values(world.webhooks)) {
    if (webhook.status !== 'active' || webhook.signingsecret) continue;
    findings.add(
      'webhook_without_secret',
      { key: webhook.webhookid },
      () => `The webhook ${webhook.webhookid} (${webhook.event} to ${webhook.url}) has no signing secret.`,
    );
  }
  const deliveries = world.webhook_deliveries;
  for (const log of Object.values(world.webhook_logs)) {
    const delivery =
      log.deliveryid && Object.hasOwn(deliveries, log.deliveryid) ? deliveries[log.deliveryid] : undefined;
    if (consumer && delivery && delivery.event_consumerid !== consumer) continue;
    const error = log.error ?? null;
    if (error === null) continue;
    const what = attemptErrorKind(error);
    if (what === 'lost by a fault') continue;
    const fault = (log as { fault?: { id: string; effect: string } }).fault;
    const id = log.deliveryid ?? log.webhooklogid;
    if (what === 'time-out') {
      findings.add(
        'webhook_slow',
        { key: log.webhookid },
        (count) => `${plural(count, 'attempt')} to ${log.url} (${log.event}) got no answer in time.`,
        undefined,
        id,
      );
      continue;
    }
    if (fault && MISBEHAVIOURS.has(fault.effect)) {
      findings.add(
        'webhook_misbehaviour_refused',
        { key: `${log.webhookid}|${fault.effect}` },
        (count) =>
          `${plural(count, 'delivery')} made to misbehave (${fault.effect}, fault ${fault.id}) got ${error} from ${log.url}.`,
        undefined,
        id,
      );
      continue;
    }
    findings.add(
      'webhook_delivery_failed',
      { key: log.webhookid },
      (count) => `${plural(count, 'attempt')} to ${log.url} (${log.event}) failed: last ${error}.`,
      undefined,
      id,
    );
  }
}
