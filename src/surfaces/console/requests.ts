import type { Context } from 'hono';
import { html } from 'hono/html';
import { listRequests, type RequestEntry, type RequestFilter } from '../../control/requests/index.js';
import type { AppEnv } from '../../platform/context.js';
import { badge, consumerRef, type Html, pageNumber, pager, postButton, pretty, query } from './layout.js';

/**
 * GET /console/requests: the request journal (what GET /__sandbox/requests answers), filtered as it
 * filters, each row opening the request and the response. The page's script asks
 * /console/requests/rows for the rows newer than the newest it shows, once a second (see docs/architecture.md:
 * why polling), and puts them on top. Console requests are not in the journal (isRecordedPath).
 */

export const REQUESTS_PER_PAGE = 50;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** The sequence number of a journal id (`req_12` is 12). */
const seqOf = (id: string) => Number(id.slice(4)) || 0;

interface Filters {
  filter: RequestFilter;
  params: Record<string, string | undefined>;
  error: string | undefined;
}

/** The page's filters, checked with the control endpoint's own query schema. */
function filtersOf(c: Context<AppEnv>): Filters {
  const raw = {
    method: c.req.query('method') || undefined,
    path: c.req.query('path')?.trim() || undefined,
    status: c.req.query('status')?.trim() || undefined,
  };
  const parsed = listRequests.request.query.safeParse(raw);
  if (!parsed.success) {
    return {
      filter: {},
      params: raw,
      error: `Filter ignored: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  }
  const { method, path, status } = parsed.data;
  return { filter: { method, path, status }, params: raw, error: undefined };
}

function headerText(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/**
 * One row of the journal, with its bodies behind a disclosure; its consumer linked when `consumers`
 * (the world's) holds it.
 */
export function requestRow(entry: RequestEntry, consumers: Readonly<Record<string, unknown>>): Html {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(entry.query)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  }
  const target = search.size > 0 ? `${entry.path}?${search}` : entry.path;
  return html`<tr data-seq="${String(seqOf(entry.id))}"${entry.fault ? html` class="faulted"` : ''}>
    <td><time datetime="${entry.time}">${entry.time.slice(11, 23)}</time><br><small>${entry.id}</small></td>
    <td><code>${entry.method}</code></td>
    <td class="path"><code>${target}</code>
      <details><summary>Request and response</summary>
        <h4>Request headers</h4><pre>${headerText(entry.request.headers)}</pre>
        <h4>Request body${entry.request.truncated ? ' (truncated)' : ''}</h4>${pretty(entry.request.body)}
        <h4>Response body${entry.response.truncated ? ' (truncated)' : ''}</h4>${pretty(entry.response.body)}
      </details>
    </td>
    <td>${entry.status === 0 ? html`<span class="badge bad">no answer</span>` : badge(String(entry.status))}</td>
    <td>${String(entry.duration_ms)} ms</td>
    <td>${entry.fault ? html`<span class="badge bad" title="A fault fired on this request">fault ${entry.fault}</span>` : html`<span class="muted">–</span>`}</td>
    <td>${entry.consumer_id ? consumerRef(consumers, entry.consumer_id) : html`<span class="muted">–</span>`}</td>
  </tr>`;
}

export function requestsBody(c: Context<AppEnv>): Html {
  const journal = c.get('requests');
  const { filter, params, error } = filtersOf(c);
  const pageAsked = pageNumber(c.req.query('page'));
  const result = journal.page(filter, pageAsked, REQUESTS_PER_PAGE);
  const pages = Math.max(1, Math.ceil(result.total / REQUESTS_PER_PAGE));
  const newest = result.items[0] ? seqOf(result.items[0].id) : 0;
  const faults = c.get('faults').list();
  const consumers = c.get('store').world.consumers;
  // Live rows only on the first page: later pages are a fixed window of older requests.
  const live = pageAsked === 1;
  return html`
  <form method="get" action="/console/requests" class="filters">
    <div><label for="method">Method</label>
    <select id="method" name="method"><option value="">Any</option>${METHODS.map(
      (m) => html`<option${m === params.method ? html` selected` : ''}>${m}</option>`,
    )}</select></div>
    <div><label for="path">Path pattern</label>
    <input id="path" name="path" type="text" value="${params.path ?? ''}" placeholder="/consumers/{id}/*" spellcheck="false"></div>
    <div><label for="status">Status</label>
    <input id="status" name="status" type="text" value="${params.status ?? ''}" placeholder="201 or 4xx" size="6"></div>
    <button type="submit">Filter</button>
  </form>
  ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
  <p>${
    journal.keeps
      ? html`The journal keeps the latest ${journal.capacity.toLocaleString('en')} requests, newest first (<code>GET /__sandbox/requests${query(params)}</code>).`
      : html`The journal keeps no request (<code>--request-journal 0</code>).`
  }
  ${
    live
      ? html`<button type="button" id="live-toggle" aria-pressed="true" hidden>Live updates: on</button>
    <span id="live-status" role="status" class="muted"></span>`
      : ''
  }</p>
  ${faults.length > 0 ? html`<p>Armed faults: ${faults.map((f) => html`<span class="badge warn">${f.id} ${f.match.webhook ? `webhook ${f.match.webhook.event ?? '*'}${f.match.webhook.webhook_id ? ` to ${f.match.webhook.webhook_id}` : ''}` : `${f.match.method ?? '*'} ${f.match.path}`} (fired ${String(f.fired)})</span> `)}</p>` : ''}
  ${pager('/console/requests', params, { page: result.page, pages, total: result.total })}
  <table id="requests"${live ? html` data-live="/console/requests/rows${query(params)}" data-after="${String(newest)}"` : ''}>
    <thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th>
    <th scope="col">Duration</th><th scope="col">Fault</th><th scope="col">Consumer</th></tr></thead>
    <tbody>${result.items.map((entry) => requestRow(entry, consumers))}</tbody>
  </table>
  ${result.total === 0 ? html`<p class="muted" id="requests-empty">No request recorded yet: call the API and it shows here.</p>` : ''}
  ${pager('/console/requests', params, { page: result.page, pages, total: result.total })}
  ${postButton('/console/requests/clear', 'Clear the journal', { confirm: 'Forget every recorded request?' })}`;
}

/** GET /console/requests/rows?after=N: the rows of the requests newer than N that pass the filters. */
export function newRequestRows(c: Context<AppEnv>): { rows: Html; newest: number } {
  const after = Number(c.req.query('after')) || 0;
  const { filter } = filtersOf(c);
  const entries = c
    .get('requests')
    .page(filter, 1, REQUESTS_PER_PAGE)
    .items.filter((entry) => seqOf(entry.id) > after);
  const newest = entries[0] ? seqOf(entries[0].id) : after;
  const consumers = c.get('store').world.consumers;
  return { rows: html`${entries.map((entry) => requestRow(entry, consumers))}`, newest };
}

/** The clear button: what DELETE /__sandbox/requests does. */
export function clearJournal(c: Context<AppEnv>): string {
  c.get('requests').clear();
  return `notice=${encodeURIComponent('The journal is empty')}`;
}
