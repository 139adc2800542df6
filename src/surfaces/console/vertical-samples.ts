import type { Context } from 'hono';
import { html } from 'hono/html';
import { ApiError } from '../../lib/errors.js';
import type { ConsoleSample } from '../../platform/console-sample.js';
import type { AppEnv } from '../../platform/context.js';
import { requireVerticalConnection } from '../../platform/vertical-connection.js';
import { publishedTags } from '../docs/published.js';
import { code, type Html } from './layout.js';

/**
 * Samples of a consumer's vertical data, a handful of rows each, read as the API reads them: the same
 * checks (requireVerticalConnection: the active connection, the integration's coverage of the
 * operation), the same opening of the data (the vertical's own dataset function, or its `open`), the
 * same list and wire-shape functions. A refusal shows as the API would answer it. Each vertical
 * declares its samples in its module (`samples`, see src/platform/console-sample.ts); this file only
 * renders them, so it names no vertical.
 */

function cell(value: unknown): Html {
  if (value === null || value === undefined || value === '') return html`<span class="muted">–</span>`;
  if (typeof value === 'object') return html`<code>${JSON.stringify(value).slice(0, 80)}</code>`;
  return html`${String(value)}`;
}

async function sampleSection(c: Context<AppEnv>, consumerid: string, sample: ConsoleSample): Promise<Html> {
  const { operationId, path, tags } = sample.route;
  const apiPath = path.replace('{consumer_id}', consumerid);
  // Swagger UI's deep link to the operation (deepLinking is on): #/<tag>/<operationId>, under the
  // tag the served document gives it (the published one), on the page of the document it is in.
  const published = publishedTags(operationId);
  const tag = published?.[0] ?? tags?.[0] ?? 'default';
  const docsLink = `${published ? '/docs' : '/docs/sandbox'}#/${tag.replace(/\s/g, '%20')}/${operationId}`;
  let content: Html;
  try {
    const scope = requireVerticalConnection(c, sample.api, operationId);
    const rows = await sample.rows(c, scope);
    content =
      rows.length === 0
        ? html`<p class="muted">No rows.</p>`
        : html`<table>
          <thead><tr>${sample.columns.map((col) => html`<th scope="col">${col}</th>`)}</tr></thead>
          <tbody>${rows.map((row) => html`<tr>${sample.columns.map((col) => html`<td>${cell(row[col])}</td>`)}</tr>`)}</tbody>
        </table>`;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    content = html`<p class="error">The API answers ${String(error.status)}: ${error.detail || error.message}</p>`;
  }
  return html`<section class="sample">
    <h3>${sample.api}: ${sample.title}</h3>
    <p>The first rows of <code>GET ${apiPath}</code> (<a href="${docsLink}">operation <code>${operationId}</code> in the docs</a>).</p>
    ${content}
  </section>`;
}

/**
 * A sample whose rows are the values of a query parameter (the accounting folders, for folder_id):
 * links that set it on this page, the current one marked. Nothing when the API refuses: the samples
 * that need the value show the refusal.
 */
async function choiceSection(
  c: Context<AppEnv>,
  consumerid: string,
  sample: ConsoleSample,
  choice: NonNullable<ConsoleSample['choice']>,
): Promise<Html> {
  try {
    const scope = requireVerticalConnection(c, sample.api, sample.route.operationId);
    const rows = await sample.rows(c, scope);
    const [valueColumn = 'id', labelColumn = 'name'] = sample.columns;
    const current = c.req.query(choice.param);
    const note = choice.note?.(scope);
    return html`<section class="sample">
      <h3>${sample.api}: ${sample.title}</h3>
      <p><code>GET ${sample.route.path.replace('{consumer_id}', consumerid)}</code>${note ? html`: ${note}` : ''}</p>
      <ul>${rows.map((row) => {
        const value = String(row[valueColumn]);
        return html`<li><a href="?${choice.param}=${encodeURIComponent(value)}"${value === current ? html` aria-current="true"` : ''}>${row[labelColumn]}</a> ${code(value)}</li>`;
      })}</ul>
    </section>`;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return html``;
  }
}

/**
 * The samples of every vertical in which the consumer has an active connection, in the order of the
 * app's verticals and of each vertical's samples.
 */
export async function verticalSamples(c: Context<AppEnv>, consumerid: string, apis: ReadonlySet<string>) {
  const sections: Html[] = [];
  for (const sample of c.get('verticals').flatMap((m) => m.samples ?? [])) {
    if (!apis.has(sample.api)) continue;
    sections.push(
      await (sample.choice
        ? choiceSection(c, consumerid, sample, sample.choice)
        : sampleSection(c, consumerid, sample)),
    );
  }
  return sections;
}
