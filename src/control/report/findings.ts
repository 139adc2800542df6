import type { z } from '@hono/zod-openapi';
import type { Scrubber } from '../../platform/scrub.js';
import { docsOf, FINDING_KINDS, type FindingKindName, type Severity } from './kinds.js';
import type { FindingSchema } from './schemas.js';

/** The findings of a report as they are added, one per kind and place, and listed in their order. */

export type Finding = z.infer<typeof FindingSchema>;

const MAX_REQUEST_IDS = 20;

export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class Findings {
  readonly #out = new Map<string, Finding>();

  add(
    kind: FindingKindName,
    at: { consumer?: string | null; connection?: string | null; operation?: string | null; key?: string },
    detail: (count: number) => string,
    request?: string,
    delivery?: string,
  ): void {
    const key = `${kind}|${at.consumer ?? ''}|${at.connection ?? ''}|${at.operation ?? ''}|${at.key ?? ''}`;
    let finding = this.#out.get(key);
    if (!finding) {
      const definition = FINDING_KINDS[kind];
      finding = {
        kind,
        severity: definition.severity,
        title: definition.title,
        detail: '',
        advice: definition.advice,
        docs: docsOf(kind),
        consumer_id: at.consumer ?? null,
        connection_id: at.connection ?? null,
        operation_id: at.operation ?? null,
        count: 0,
        requests: [],
        deliveries: [],
      };
      this.#out.set(key, finding);
    }
    finding.count += 1;
    finding.detail = detail(finding.count);
    if (request && finding.requests.length < MAX_REQUEST_IDS) finding.requests.push(request);
    if (delivery && finding.deliveries.length < MAX_REQUEST_IDS) finding.deliveries.push(delivery);
  }

  list(scrubber: Scrubber): Finding[] {
    const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    const out = [...this.#out.values()].map((finding) => ({
      ...finding,
      detail: scrubber.prose(finding.detail),
    }));
    return out.sort(
      (a, b) =>
        rank[a.severity] - rank[b.severity] ||
        compare(a.kind, b.kind) ||
        compare(a.consumer_id ?? '', b.consumer_id ?? '') ||
        compare(a.connection_id ?? '', b.connection_id ?? '') ||
        compare(a.operation_id ?? '', b.operation_id ?? '') ||
        compare(a.requests[0] ?? '', b.requests[0] ?? ''),
    );
  }
}
