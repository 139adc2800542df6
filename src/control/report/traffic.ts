import { CLIENT_REQUEST_ID_HEADER } from '../../platform/transactions.js';
import { recordHeader } from '../requests/records.js';
import type { ReadinessReport } from './analyse.js';
import { type Call, errorOf, INCREMENTAL, plural, signature, WRITES } from './calls.js';
import type { Findings } from './findings.js';
import { invalidValues, type OperationIndex, unknownFields } from './operations.js';

/** The readiness report's readings of the calls: errors and what followed them, paging, writes. */

/** The same whole list pulled this many times without a filter of what changed. */
const FULL_PULLS_FLAGGED = 3;

export function errorsAndReactions(calls: Call[], findings: Findings): void {
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

export function pagination(calls: Call[], findings: Findings): void {
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

export function writes(
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
