import { createHash } from 'node:crypto';
import { escapeHtml, htmlDocument } from '../lib/html.js';
import type { CheckedLine } from './checks.js';
import type { DriftFinding, DriftReport } from './drift.js';

/**
 * The drift console's one page: the summary by operation, the findings and the last exchanges,
 * rendered here and nowhere else (the live stream carries the same fragments, so the page's script
 * only puts them in place). Every value goes through escapeHtml; the style and the script are inline,
 * and the page's Content-Security-Policy allows those two by their hash and nothing else.
 */

const CSS = `:root{--fg:#1a1a1a;--muted:#595959;--line:#d0d0d0;--accent:#0b57d0;--ok:#0f6a2f;--ok-bg:#e3f4e8;--bad:#a3161a;--bad-bg:#fbe5e5;--warn:#7a4d00;--warn-bg:#fdf0d5;--code-bg:#f3f4f6}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:#fff}
a{color:var(--accent)}
a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.5rem 1.25rem;background:#15202b;color:#fff}
.top .muted{color:#c9d1d9}
.brand{font-weight:700}
.top a{color:#fff}
.top code{background:#2b3845;color:#fff}
main{padding:1rem 1.25rem 3rem;max-width:1400px}
h1{margin:.25rem 0 1rem;font-size:1.6rem}
h2{margin:1.75rem 0 .5rem;font-size:1.25rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}
thead th{background:#f6f7f9;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
code{background:var(--code-bg);padding:0 .25em;border-radius:3px;font-size:.9em;word-break:break-all}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45em;border-radius:999px;font-size:.82em;font-weight:600;border:1px solid currentColor}
.badge.ok{color:var(--ok);background:var(--ok-bg)}.badge.bad{color:var(--bad);background:var(--bad-bg)}.badge.warn{color:var(--warn);background:var(--warn-bg)}
.counts{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.5rem;margin:0}
.counts div{border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}
.counts dt{font-size:.85em;color:var(--muted)}.counts dd{margin:0;font-size:1.4rem;font-weight:600}
.plain{list-style:none;margin:0;padding:0}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;margin:.5rem 0}
#live-status{font-weight:600}
tr.fresh{animation:fresh 2s ease-out}
@keyframes fresh{from{background:#fff3bf}to{background:transparent}}
@media (prefers-reduced-motion:reduce){tr.fresh{animation:none}}
`;

/**
 * The page's script: the live stream's fragments (rendered and escaped by the proxy) put in place.
 * `recent` replaces the last exchanges (on every connection, so a reconnection misses nothing),
 * `exchange` adds one, `report` replaces the counts, the summary and the findings, `end` says the
 * proxy stopped.
 */
const JS = `(() => {
  'use strict';
  const status = document.getElementById('live-status');
  const rows = document.getElementById('exchanges');
  const max = Number(rows.dataset.max) || 100;
  const say = (text) => { status.textContent = text; };
  if (!window.EventSource) { say('No live updates in this browser: reload the page to see new exchanges.'); return; }
  const source = new EventSource('/events');
  let ended = false;
  source.addEventListener('open', () => say('Live'));
  source.addEventListener('recent', (event) => { rows.innerHTML = JSON.parse(event.data).rows; });
  source.addEventListener('exchange', (event) => {
    rows.insertAdjacentHTML('afterbegin', JSON.parse(event.data).row);
    const empty = document.getElementById('exchanges-empty');
    if (empty) empty.remove();
    if (rows.firstElementChild) rows.firstElementChild.classList.add('fresh');
    while (rows.rows.length > max) rows.deleteRow(-1);
  });
  source.addEventListener('report', (event) => {
    const data = JSON.parse(event.data);
    for (const name of ['totals', 'summary', 'findings']) document.getElementById(name).innerHTML = data[name];
  });
  source.addEventListener('end', () => {
    ended = true;
    source.close();
    say('The proxy stopped: this is its last state.');
  });
  source.addEventListener('error', () => {
    if (ended) return;
    say(source.readyState === EventSource.CLOSED
      ? 'Live updates stopped: the console refused the stream (too many pages open?) or the proxy stopped. Reload to try again.'
      : 'Live updates interrupted: reconnecting...');
  });
})();`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's policy: its own inline style and script (by hash), the live stream and the JSON of its
 * own origin, no other source, no form, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  `script-src ${hash(JS)}`,
  `style-src ${hash(CSS)}`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const e = escapeHtml;

const statusTone = (status: number): string => (status < 300 ? 'ok' : status < 400 ? 'warn' : 'bad');
const severityTone = { error: 'bad', warning: 'warn', info: 'ok' } as const;

/** A finding as one exchange's cell lists it: kind, place, and its two sides. */
function findingItem(finding: DriftFinding): string {
  const [first, second] =
    finding.group === 'document' ? [finding.document, finding.service] : [finding.service, finding.sandbox];
  return `<li><span class="badge ${severityTone[finding.severity]}">${e(finding.kind)}</span>${finding.known ? ' <span class="muted">(known)</span>' : ''} <code>${e(finding.at)}</code> ${e(first ?? '')} / ${e(second ?? '')}</li>`;
}

const findingList = (findings: readonly DriftFinding[]): string =>
  findings.length === 0
    ? '<span class="badge ok">ok</span>'
    : `<ul class="plain">${findings.map(findingItem).join('')}</ul>`;

/** One row of the last exchanges: what the terminal's live line says, as cells. */
export function exchangeRow({ exchange, findings, replayed }: CheckedLine): string {
  const target = `${exchange.method} ${exchange.path}${exchange.query ? `?${exchange.query}` : ''}`;
  const head = `<tr data-id="${e(exchange.id)}"><td><code>${e(exchange.id)}</code></td><td><code>${e(target)}</code></td><td><span class="badge ${statusTone(exchange.status)}">${exchange.status}</span></td><td class="n">${Math.round(exchange.durationMs)} ms</td>`;
  if (exchange.upstreamError !== null)
    return `${head}<td colspan="2">upstream error: ${e(exchange.upstreamError)}</td></tr>`;
  const document = findingList(findings.filter((finding) => finding.group === 'document'));
  const sandbox = replayed
    ? findingList(findings.filter((finding) => finding.group === 'sandbox'))
    : '<span class="muted">not replayed</span>';
  return `${head}<td>${document}</td><td>${sandbox}</td></tr>`;
}

const EMPTY_EXCHANGES =
  '<tr id="exchanges-empty"><td colspan="6" class="muted">No exchange yet: point the client at the proxy.</td></tr>';

/** The rows of the last exchanges, newest first. */
export const exchangeRows = (rows: readonly string[]): string =>
  rows.length === 0 ? EMPTY_EXCHANGES : [...rows].reverse().join('');

/** The report's counts. */
export function totalsHtml(report: DriftReport): string {
  const count = (severity: string) =>
    report.findings.filter((finding) => finding.severity === severity && !finding.known).length;
  const known = report.findings.filter((finding) => finding.known).length;
  const cells: [string, number][] = [
    ['exchanges', report.exchanges],
    ['not checked', report.unchecked],
    ['errors', count('error')],
    ['warnings', count('warning')],
    ['infos', count('info')],
    ['known', known],
  ];
  return cells.map(([label, value]) => `<div><dt>${e(label)}</dt><dd>${value}</dd></div>`).join('');
}

/** The summary by operation. */
export function summaryHtml(report: DriftReport): string {
  if (report.summary.length === 0) return '<p class="muted">No call of a published operation yet.</p>';
  const rows = report.summary.map(
    (entry) =>
      `<tr><td><code>${e(`${entry.method} ${entry.path}`)}</code> <span class="muted">${e(entry.operation_id)}</span></td><td class="n">${entry.calls}</td><td class="n">${entry.conforming}</td><td class="n">${entry.replayed}</td><td class="n">${entry.agreeing}</td></tr>`,
  );
  return `<table><thead><tr><th scope="col">operation</th><th scope="col">calls</th><th scope="col">conforming to the document</th><th scope="col">replayed</th><th scope="col">agreeing with the sandbox</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The findings (both sides, how often, the exchanges they were seen in) and the client's. */
export function findingsHtml(report: DriftReport): string {
  const out: string[] = [];
  if (report.findings.length === 0) out.push('<p class="muted">No finding yet.</p>');
  else {
    const rows = report.findings.map(
      (f) =>
        `<tr><td><span class="badge ${severityTone[f.severity]}">${e(f.severity)}</span>${f.known ? ' <span class="muted">known</span>' : ''}</td><td><code>${e(f.kind)}</code></td><td><code>${e(`${f.method} ${f.path}`)}</code></td><td><code>${e(f.at)}</code></td><td>${e(f.document ?? '')}</td><td>${e(f.service)}</td><td>${e(f.sandbox ?? '')}</td><td class="n">${f.count}</td><td>${e(f.exchanges.join(', '))}</td></tr>`,
    );
    out.push(
      `<table><thead><tr><th scope="col">severity</th><th scope="col">kind</th><th scope="col">operation</th><th scope="col">at</th><th scope="col">document</th><th scope="col">service</th><th scope="col">sandbox</th><th scope="col">seen</th><th scope="col">exchanges</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  if (report.client_findings.length > 0)
    out.push(
      '<h3>The client (readiness findings)</h3><ul>',
      ...report.client_findings.map(
        (f) =>
          `<li><span class="badge ${severityTone[f.severity]}">${e(f.severity)}</span> <code>${e(f.kind)}</code>: ${e(f.title)}. ${e(f.detail)} <span class="muted">(${e(f.docs)})</span></li>`,
      ),
      '</ul>',
    );
  return out.join('');
}

/** The whole page: the report as it is now and the last exchanges, which the stream then keeps current. */
export function consolePage(report: DriftReport, rows: readonly string[], maxRows: number): string {
  const body = `<header class="top"><span class="brand">unified-api-sandbox <span class="muted">proxy</span></span><span>Upstream <code>${e(report.upstream)}</code></span></header>
<main>
<h1>Drift, live</h1>
<div class="row"><span id="live-status" role="status">Not live: this page shows the state when it was loaded.</span>
<span>Download the report: <a href="/report.md" download="drift.md">Markdown</a> · <a href="/report.xml" download="drift.xml">JUnit</a> · <a href="/report.json" download="drift.json">JSON</a></span></div>
<dl class="counts" id="totals">${totalsHtml(report)}</dl>
<h2>By operation</h2>
<div id="summary">${summaryHtml(report)}</div>
<h2>Findings</h2>
<div id="findings">${findingsHtml(report)}</div>
<h2>Last exchanges</h2>
<table><thead><tr><th scope="col">id</th><th scope="col">request</th><th scope="col">status</th><th scope="col">time</th><th scope="col">document</th><th scope="col">sandbox</th></tr></thead>
<tbody id="exchanges" data-max="${maxRows}">${exchangeRows(rows)}</tbody></table>
</main>
<script>${JS}</script>`;
  return htmlDocument('Drift · unified-api-sandbox proxy', CSS, body);
}
