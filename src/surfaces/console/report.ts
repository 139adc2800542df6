import type { Context } from 'hono';
import { html } from 'hono/html';
import { type Finding, type ReadinessReport, reportOf } from '../../control/report/index.js';
import { guidePath } from '../../lib/guides.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { badge, consumerRef, type Html } from './layout.js';
import { requestRow } from './requests.js';

/**
 * GET /console/report: the integration readiness report (what GET /__sandbox/report answers), each
 * finding linking the journal entries behind it (GET /console/requests/{id}).
 */

const SEVERITY_BADGE: Record<Finding['severity'], string> = { error: 'bad', warning: 'warn', info: 'ok' };

function findingBlock(finding: Finding, consumers: Readonly<Record<string, unknown>>): Html {
  const place = [
    finding.consumer_id ? html`consumer ${consumerRef(consumers, finding.consumer_id)}` : '',
    finding.connection_id ? html` · connection <code>${finding.connection_id.slice(0, 8)}…</code>` : '',
    finding.operation_id ? html` · <code>${finding.operation_id}</code>` : '',
  ];
  return html`<section class="finding" id="finding-${finding.kind}">
    <h3><span class="badge ${SEVERITY_BADGE[finding.severity]}">${finding.severity}</span> ${finding.title} <small><code>${finding.kind}</code></small></h3>
    <p>${place}</p>
    <p>${finding.detail}</p>
    <p><strong>What to change:</strong> ${finding.advice} <small class="muted">(<a href="${finding.docs}">the guide</a>)</small></p>
    ${
      finding.requests.length > 0
        ? html`<p>Requests: ${finding.requests.map((id) => html`<a href="/console/requests/${id}">${id}</a> `)}</p>`
        : ''
    }
    ${finding.deliveries.length > 0 ? html`<p>Deliveries: ${finding.deliveries.map((id) => html`<code>${id}</code> `)}</p>` : ''}
  </section>`;
}

function reportHtml(report: ReadinessReport, consumers: Readonly<Record<string, unknown>>): Html {
  const { summary, requests, tokens } = report;
  return html`<p>What the client did to this world, and what it will meet in production
    (<code>GET /__sandbox/report</code>, <code>unified-api-sandbox report</code>; <a href="${guidePath('readiness')}">the readiness guide</a>
    explains every kind of finding): ${String(requests.api_calls)} API calls and
    ${String(requests.token_requests)} token requests recorded${requests.first ? ` from ${requests.first} to ${requests.last}` : ''}.</p>
  <p>${badge(`${summary.errors} errors`)} ${badge(`${summary.warnings} warnings`)} ${badge(`${summary.infos} notes`)}
    Tokens: ${String(tokens.requested)} requested (at most ${String(tokens.most_in_one_hour)} in one hour),
    ${String(tokens.distinct_used)} used, ${String(tokens.expired_uses)} requests with an expired one.</p>
  ${report.findings.length === 0 ? html`<p class="muted" id="report-empty">No findings.</p>` : report.findings.map((finding) => findingBlock(finding, consumers))}
  ${
    report.coverage.length > 0
      ? html`<h2>Coverage</h2>
  <table id="coverage">
    <thead><tr><th scope="col">Consumer</th><th scope="col">Integration</th><th scope="col">Operation</th>
    <th scope="col">Calls</th><th scope="col">Errors</th><th scope="col">Supported</th></tr></thead>
    <tbody>${report.coverage.flatMap((entry) =>
      entry.operations.map(
        (operation) => html`<tr><td>${entry.consumer_id.slice(0, 8)}…</td><td>${entry.integration ?? '–'}</td>
        <td><code>${operation.operation_id}</code></td><td>${String(operation.calls)}</td><td>${String(operation.errors)}</td>
        <td>${operation.supported === null ? '–' : operation.supported ? 'yes' : 'no'}</td></tr>`,
      ),
    )}</tbody>
  </table>`
      : ''
  }`;
}

export async function reportBody(c: Context<AppEnv>, services: Services): Promise<Html> {
  if (!c.get('requests').keeps) {
    return html`<p>The report reads the request journal, and this sandbox keeps none (<code>--request-journal 0</code>).</p>`;
  }
  const report = await reportOf(services, c.req.query('consumer_id') || undefined);
  return reportHtml(report, c.get('store').world.consumers);
}

/** GET /console/requests/{id}: one entry of the journal, opened. */
export function requestEntryBody(c: Context<AppEnv>, id: string): Html | null {
  const entry = c.get('requests').get(id);
  if (!entry) return null;
  return html`<table id="requests">
    <thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th>
    <th scope="col">Duration</th><th scope="col">Fault</th><th scope="col">Consumer</th></tr></thead>
    <tbody>${requestRow(entry, c.get('store').world.consumers)}</tbody>
  </table>`;
}
