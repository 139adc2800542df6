import { html } from 'hono/html';
import { GUIDES_PATH } from '../../lib/guides.js';
import { own } from '../../lib/own.js';
import type { Integration } from '../../platform/catalogue.js';

/**
 * The page shell of the console and the small pieces every page uses. Everything goes through
 * hono's `html` tagged template, which escapes each interpolated value (names, payloads, headers
 * are user-controlled); a nested `html` fragment is inserted as it is.
 */

export type Html = ReturnType<typeof html>;

/** A page of the console's navigation. */
export interface NavEntry {
  path: string;
  title: string;
}

export const NAV: readonly NavEntry[] = [
  { path: '/console', title: 'Overview' },
  { path: '/console/consumers', title: 'Consumers' },
  { path: '/console/integrations', title: 'Integrations' },
  { path: '/console/webhooks', title: 'Webhooks' },
  { path: '/console/requests', title: 'Requests' },
  { path: '/console/report', title: 'Report' },
  { path: '/console/automation', title: 'Automation' },
  { path: '/console/timeline', title: 'Timeline' },
];

export interface PageOptions {
  title: string;
  /** The nav entry shown as the current page. */
  current?: string;
  /** Extra nav entries (sections registered by other parts of the sandbox, e.g. MCP sessions). */
  extraNav?: readonly NavEntry[];
  /** A message after a change (`?notice=`) or a refusal (`?error=`), shown once at the top. */
  notice?: string | undefined;
  error?: string | undefined;
  /** Whether to show the log-out button (only when an admin token guards the console). */
  loggedIn?: boolean;
}

export function page(options: PageOptions, body: Html): Html {
  const nav = [...NAV, ...(options.extraNav ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${options.title} · sandbox console</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/console/assets/console.css">
  <script src="/console/assets/console.js" defer></script>
</head>
<body>
  <a class="skip" href="#main">Skip to content</a>
  <header class="top">
    <span class="brand">unified-api-sandbox <span class="muted">console</span></span>
    <nav aria-label="Console">
      <ul>
        ${nav.map(
          (entry) =>
            html`<li><a href="${entry.path}"${entry.path === options.current ? html` aria-current="page"` : ''}>${entry.title}</a></li>`,
        )}
        <li><a href="/docs">API docs</a></li>
        <li><a href="${GUIDES_PATH}">Guides</a></li>
      </ul>
    </nav>
    ${
      options.loggedIn
        ? html`<form method="post" action="/console/logout" class="inline"><button type="submit">Log out</button></form>`
        : ''
    }
  </header>
  <main id="main">
    <h1>${options.title}</h1>
    ${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
    ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
    ${body}
  </main>
</body>
</html>`;
}

/** A value as code, or a dash when there is none. */
export const code = (value: unknown): Html =>
  value === null || value === undefined || value === ''
    ? html`<span class="muted">–</span>`
    : html`<code>${String(value)}</code>`;

/** A status word as a badge whose class says its tone. */
export function badge(word: string | null | undefined): Html {
  if (!word) return html`<span class="muted">–</span>`;
  const tone = /^(active|success|delivered|SUPPORTED|settled|resolved|2\d\d)$/.test(word)
    ? 'ok'
    : /^(error|failed|inactive|[45]\d\d|0|NOT_SUPPORTED)$/.test(word)
      ? 'bad'
      : 'warn';
  return html`<span class="badge ${tone}">${word}</span>`;
}

/** JSON shown as indented text (escaped by the template). */
export function pretty(value: unknown): Html {
  if (value === null || value === undefined) return html`<p class="muted">No body</p>`;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return html`<pre>${text}</pre>`;
}

/** The query string of `params` (empty values left out), with a leading `?` when not empty. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface Pager {
  page: number;
  pages: number;
  total: number;
}

/** Previous / next links of a paged list, keeping the other query parameters. */
export function pager(path: string, params: Record<string, string | undefined>, p: Pager): Html {
  const link = (n: number, label: string, rel: string) =>
    html`<a href="${path}${query({ ...params, page: n })}" rel="${rel}">${label}</a>`;
  return html`<nav class="pager" aria-label="Pages">
    ${p.page > 1 ? link(p.page - 1, '← Previous', 'prev') : html`<span class="muted">← Previous</span>`}
    <span>Page ${p.page} of ${Math.max(p.pages, 1)} (${p.total.toLocaleString('en')} in all)</span>
    ${p.page < p.pages ? link(p.page + 1, 'Next →', 'next') : html`<span class="muted">Next →</span>`}
  </nav>`;
}

/** A positive page number from a query parameter (1 when absent or not a number). */
export function pageNumber(value: string | undefined): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** The slice of `items` for a page, with the page counts (the page clamped to the last one). */
export function slice<T>(items: readonly T[], pageAsked: number, size: number): Pager & { items: T[] } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(pageAsked, pages);
  return {
    page: current,
    pages,
    total: items.length,
    items: items.slice((current - 1) * size, current * size),
  };
}

/**
 * The logo of an integration, served by the console (the API's own image, see index.ts); nothing for
 * an integration without one (the catalogue draws images lazily: `in` asks without drawing).
 */
export const logo = (integration: Integration | undefined): Html =>
  integration && 'logo' in integration.images
    ? html`<img class="logo" src="/console/assets/logos/${String(integration.integrationid)}.png" alt="" width="24" height="24">`
    : html`<span class="logo-none" aria-hidden="true"></span>`;

/** A small form whose only control is one button: a change through POST, then 303 back. */
export function postButton(
  action: string,
  label: string,
  options: { confirm?: string; name?: string } = {},
): Html {
  return html`<form method="post" action="${action}" class="inline"${options.confirm ? html` data-confirm="${options.confirm}"` : ''}>
    <button type="submit"${options.name ? html` aria-label="${options.name}"` : ''}>${label}</button>
  </form>`;
}

/** A copy button for the text of the element `target` (shown once the script runs). */
export const copyButton = (target: string, label: string): Html =>
  html`<button type="button" class="copy" data-copy="${target}" aria-label="${label}" hidden>Copy</button>`;

/**
 * A consumer a request or a finding names: a link to its page when the world holds it, else its id
 * as text (a path may name a consumer that never existed, or one deleted since: no dead link).
 */
export const consumerRef = (consumers: Readonly<Record<string, unknown>>, id: string): Html =>
  own(consumers, id)
    ? html`<a href="/console/consumers/${id}">${id.slice(0, 8)}…</a>`
    : html`<code>${id.slice(0, 8)}…</code>`;
