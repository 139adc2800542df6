import type { Finding as ClientFinding } from '../control/report/index.js';
import { DRIFT_KINDS, type DriftKind, type Severity } from '../lib/drift-kinds.js';

/**
 * The drift report: what the proxy found in the exchanges it forwarded, as findings with both sides,
 * the exchanges they were seen in and how often, and a summary by operation.
 *
 * Two questions, each a group of kinds:
 * - the service against its own document (`document`): a status it does not declare, a body outside
 *   its schema, a field it does not describe, a header it names and the answer lacks, a required
 *   request header the client did not send, a request no operation describes;
 * - the sandbox against the service (`sandbox`): the same request replayed at a sandbox world answered
 *   another status, another refusal, another shape, other pagination fields, another order.
 */

export { DRIFT_KINDS, type DriftKind, type Severity };

export interface DriftFinding {
  kind: DriftKind;
  group: 'document' | 'sandbox';
  severity: Severity;
  title: string;
  operation_id: string | null;
  method: string;
  /** The operation's path as published, or the request's path when it matched none. */
  path: string;
  /** Where in the answer: `status`, `$.items[].email`, a header's name. */
  at: string;
  /** What the document declares, for the document's findings. */
  document: string | null;
  /** What the service answered. */
  service: string;
  /** What the sandbox answered, for the sandbox's findings. */
  sandbox: string | null;
  count: number;
  /** The exchanges it was seen in (the first 20), as the console and the HAR number them. */
  exchanges: string[];
  /** Whether an entry of the drift file names it: known and accepted, it fails no run. */
  known: boolean;
}

export interface OperationSummary {
  operation_id: string;
  method: string;
  path: string;
  calls: number;
  /** Calls whose answer conforms to the document. */
  conforming: number;
  /** Calls replayed at the sandbox. */
  replayed: number;
  /** Replayed calls the sandbox answered alike. */
  agreeing: number;
}

export interface DriftReport {
  upstream: string;
  generated_at: string;
  exchanges: number;
  /** Exchanges the checks did not read whole (a body past the limit, a queue past its budget). */
  unchecked: number;
  summary: OperationSummary[];
  findings: DriftFinding[];
  /** The readiness report's findings about the client, from the sandbox world the traffic was replayed at. */
  client_findings: ClientFinding[];
}

const MAX_EXCHANGE_IDS = 20;

export interface FindingPlace {
  operation_id: string | null;
  method: string;
  path: string;
  at: string;
  document?: string | null;
  service: string;
  sandbox?: string | null;
}

/** The findings as they are seen, one per kind and place, counted. */
export class DriftFindings {
  readonly #found = new Map<string, DriftFinding>();
  readonly #summary = new Map<string, OperationSummary>();

  add(kind: DriftKind, place: FindingPlace, exchange: string): DriftFinding {
    const key = `${kind}|${place.method} ${place.path}|${place.at}|${place.document ?? ''}|${place.service}|${place.sandbox ?? ''}`;
    let finding = this.#found.get(key);
    if (!finding) {
      const definition = DRIFT_KINDS[kind];
      finding = {
        kind,
        group: definition.group,
        severity: definition.severity,
        title: definition.title,
        operation_id: place.operation_id,
        method: place.method,
        path: place.path,
        at: place.at,
        document: place.document ?? null,
        service: place.service,
        sandbox: place.sandbox ?? null,
        count: 0,
        exchanges: [],
        known: false,
      };
      this.#found.set(key, finding);
    }
    finding.count += 1;
    if (finding.exchanges.length < MAX_EXCHANGE_IDS) finding.exchanges.push(exchange);
    return finding;
  }

  /** Counts a call of an operation. */
  count(
    operation: { operation_id: string; method: string; path: string },
    outcome: { conforming: boolean; replayed: boolean; agreeing: boolean },
  ): void {
    let entry = this.#summary.get(operation.operation_id);
    if (!entry) {
      entry = { ...operation, calls: 0, conforming: 0, replayed: 0, agreeing: 0 };
      this.#summary.set(operation.operation_id, entry);
    }
    entry.calls += 1;
    if (outcome.conforming) entry.conforming += 1;
    if (outcome.replayed) entry.replayed += 1;
    if (outcome.agreeing) entry.agreeing += 1;
  }

  findings(): DriftFinding[] {
    const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    return [...this.#found.values()]
      .map((finding) => ({ ...finding, exchanges: [...finding.exchanges] }))
      .sort(
        (a, b) =>
          rank[a.severity] - rank[b.severity] ||
          a.kind.localeCompare(b.kind) ||
          a.path.localeCompare(b.path) ||
          a.at.localeCompare(b.at),
      );
  }

  summary(): OperationSummary[] {
    return [...this.#summary.values()]
      .map((entry) => ({ ...entry }))
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  }
}
