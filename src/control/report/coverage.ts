import { attemptErrorKind } from '../../modules/webhooks/index.js';
import type { Catalogue } from '../../platform/catalogue.js';
import type { World } from '../../store/world.js';
import type { ControlCallNote } from '../requests/records.js';
import type { CoverageEntry } from './analyse.js';
import { type Call, PAGING, plural } from './calls.js';
import { compare, type Findings } from './findings.js';
import { COMPANIONS } from './kinds.js';
import type { Operation, OperationIndex } from './operations.js';

/** The readiness report's readings of what the client reached: routes, coverage, webhooks. */

export function routes(
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

export function coverageOf(
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

export function webhooks(world: World, consumer: string | undefined, findings: Findings): void {
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
