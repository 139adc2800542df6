import type { MiddlewareHandler } from 'hono';
import { escapeHtml, htmlDocument } from '../../lib/html.js';
import type { Integration, PostConnectionDefinition } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { PostConnectionChoice } from '../../platform/vertical-module.js';
import type { ConnectionRecord, ConsumerRecord, LinkRecord } from '../../store/world.js';
import { connectionCredentials } from './connections.domain.js';

/**
 * The pages the end user sees on a connection link: HTML with inline style and script whose only
 * other assets are the integrations' logos, served by the sandbox itself (GET
 * /integrations/{id}/logo.png), so that they work offline and in a headless browser.
 */

/** Name of the form field of one credential of one integration. */
export const credentialField = (integrationid: number, name: string) => `credential:${integrationid}:${name}`;

/** Name of the form field of one post connection of one integration. */
export const postConnectionField = (integrationid: number, id: string) =>
  `post_connection:${integrationid}:${id}`;

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input,select{width:100%;padding:.4rem;box-sizing:border-box}
fieldset{border:1px solid #ccd;border-radius:6px;margin:1rem 0}button{margin-top:1.2rem;padding:.5rem 1.2rem}
.note{color:#667;font-size:.9rem}.logo{display:block;margin:0 0 .6rem;border-radius:8px}
.error{color:#a01b1b;background:#fdeeee;border:1px solid #f3c4c4;border-radius:6px;padding:.6rem .8rem}`;

const SECRET = /secret|password|token|key/i;

const page = (title: string, body: string): string => htmlDocument(title, STYLE, body);

/** A mandatory post connection of an offered integration, with the values the sandbox can list. */
export interface PostConnectionField {
  definition: PostConnectionDefinition;
  /** null: the sandbox cannot list the values, the end user types one. */
  choices: PostConnectionChoice[] | null;
}

/** An integration the page offers, as the page shows it. */
export interface OfferedIntegration {
  integration: Integration;
  /** Its logo_url as GET /integrations gives it; null when it has no logo. */
  logoUrl: string | null;
  postConnections: PostConnectionField[];
}

export interface LinkPageInput {
  link: LinkRecord;
  consumer: ConsumerRecord;
  connection: ConnectionRecord | null;
  offered: OfferedIntegration[];
  /** Values of the fields by field name: the connection's post connections, or what was submitted. */
  values?: Record<string, string>;
  /** The refusal of the submission the page is shown again after: the service's message. */
  error?: { message: string; detail: string };
}

const logo = (offered: OfferedIntegration, lazy: boolean) =>
  offered.logoUrl === null
    ? ''
    : `<img class="logo" src="${escapeHtml(offered.logoUrl)}" alt="${escapeHtml(offered.integration.name)} logo" width="64" height="64"${lazy ? ' loading="lazy"' : ''}>\n`;

function credentialInputs(
  integration: Integration,
  required: boolean,
  values: Record<string, string>,
): string {
  const definitions = connectionCredentials(integration);
  if (definitions.length === 0) return '<p class="note">This integration needs no credentials.</p>';
  return definitions
    .map((d) => {
      const name = credentialField(integration.integrationid, d.name);
      const field = escapeHtml(name);
      const secret = SECRET.test(d.name);
      const mark = d.optional ? ' <span class="note">(optional)</span>' : '';
      const attrs = required && !d.optional ? ' required' : '';
      // A secret typed before a refusal is never sent back to the browser.
      const value = !secret && values[name] ? ` value="${escapeHtml(values[name])}"` : '';
      return `<label for="${field}">${escapeHtml(d.name)}${mark}</label>
<input id="${field}" name="${field}" type="${secret ? 'password' : 'text'}" autocomplete="off"${value}${attrs}>`;
    })
    .join('\n');
}

function postConnectionInputs(
  offered: OfferedIntegration,
  required: boolean,
  values: Record<string, string>,
): string {
  return offered.postConnections
    .map(({ definition, choices }) => {
      const name = postConnectionField(offered.integration.integrationid, definition.id);
      const field = escapeHtml(name);
      const current = values[name] ?? '';
      const attrs = required ? ' required' : '';
      const label = `<label for="${field}">${escapeHtml(definition.title)} <span class="note">(${escapeHtml(definition.resource)})</span></label>`;
      if (choices === null) {
        const value = current ? ` value="${escapeHtml(current)}"` : '';
        return `${label}
<input id="${field}" name="${field}" type="text" autocomplete="off"${value}${attrs}>`;
      }
      // A value the connection holds that is not among the choices stays selectable.
      const listed =
        current && !choices.some((choice) => choice.value === current)
          ? [...choices, { value: current, label: current }]
          : choices;
      const options = listed
        .map(
          (choice) =>
            `<option value="${escapeHtml(choice.value)}"${choice.value === current ? ' selected' : ''}>${escapeHtml(choice.label)}</option>`,
        )
        .join('\n');
      return `${label}
<select id="${field}" name="${field}"${attrs}>
<option value="">Choose...</option>
${options}
</select>`;
    })
    .join('\n');
}

const errorBlock = (error: LinkPageInput['error']) =>
  error
    ? `<div class="error" role="alert"><p>${escapeHtml(error.message)}</p>${
        error.detail ? `<p class="note">${escapeHtml(error.detail)}</p>` : ''
      }</div>\n`
    : '';

// Shows the fields of the chosen integration only; disabled fieldsets are not submitted.
const CHOOSER_SCRIPT = `<script>
(function(){var s=document.getElementById('integrationid');function show(){
document.querySelectorAll('fieldset[data-integration]').forEach(function(f){var on=f.getAttribute('data-integration')===s.value;
f.hidden=!on;f.disabled=!on;});}s.addEventListener('change',show);show();})();
</script>`;

export function renderLinkPage(input: LinkPageInput): string {
  const { link, consumer, connection, offered } = input;
  const values = input.values ?? {};
  // Relative to the page's own url (.../link/<id>), so that the form posts back through whatever path
  // prefix the page was reached by (a router's /p1/, a world's /__worlds/<id>/), not past it.
  const action = `./${encodeURIComponent(link.linkid)}`;
  const who = `<p>For <strong>${escapeHtml(consumer.name)}</strong></p>`;
  const error = errorBlock(input.error);
  const fixed = link.integrationid !== null ? offered[0] : undefined;
  if (fixed) {
    const { integration } = fixed;
    const verb = connection?.status === 'active' ? 'Update' : 'Connect';
    return page(
      `${verb} ${integration.name}`,
      `${logo(fixed, false)}<h1>${verb} ${escapeHtml(integration.name)}</h1>
${who}
<p class="note">${escapeHtml(integration.api)}${connection ? ` &middot; connection ${escapeHtml(connection.name)}` : ''}</p>
${error}<form method="post" action="${action}">
<input type="hidden" name="integrationid" value="${integration.integrationid}">
${credentialInputs(integration, true, values)}
${postConnectionInputs(fixed, true, values)}
<button type="submit">${verb}</button>
</form>`,
    );
  }
  if (offered.length === 0) {
    return page('No integration available', `<h1>No integration available</h1>\n${who}`);
  }
  const chosen = values.integrationid;
  const options = offered
    .map(
      ({ integration: i }) =>
        `<option value="${i.integrationid}"${String(i.integrationid) === chosen ? ' selected' : ''}>${escapeHtml(i.name)} (${escapeHtml(i.api)})</option>`,
    )
    .join('\n');
  const fieldsets = offered
    .map(
      (o) => `<fieldset data-integration="${o.integration.integrationid}">
<legend>${escapeHtml(o.integration.name)}</legend>
${logo(o, true)}${credentialInputs(o.integration, false, values)}
${postConnectionInputs(o, false, values)}
</fieldset>`,
    )
    .join('\n');
  return page(
    'Connect an integration',
    `<h1>Connect an integration</h1>
${who}
${error}<form method="post" action="${action}">
<label for="integrationid">Integration</label>
<select id="integrationid" name="integrationid">
${options}
</select>
${fieldsets}
<button type="submit">Connect</button>
</form>
${CHOOSER_SCRIPT}`,
  );
}

export function renderConnectedPage(consumer: ConsumerRecord, integration: Integration | undefined): string {
  const name = integration?.name ?? 'The integration';
  return page(
    'Connected',
    `<h1>Connected</h1>
<p>${escapeHtml(name)} is now active for <strong>${escapeHtml(consumer.name)}</strong>. You can close this page.</p>`,
  );
}

/** The page of a refused request: the service's message and detail, as its JSON answer carries them. */
export function renderRefusalPage(message: string, detail: string): string {
  return page(
    'Connection link',
    `<h1>Connection link</h1>
${errorBlock({ message, detail })}`,
  );
}

/**
 * Whether the client asks for HTML by name (a browser's `Accept: text/html,...`); `*\/*` and no
 * Accept at all are API clients, which keep the JSON answers.
 */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === 'text/html' && !params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
  });
}

/**
 * The refusals of the link routes, for a browser: the JSON answer of the one error mapper turned
 * into a page carrying the same message and status. API clients get the JSON unchanged.
 */
export const refusalPageForBrowsers: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status < 400 || !acceptsHtml(c.req.header('accept'))) return;
  if (!(c.res.headers.get('content-type') ?? '').includes('json')) return;
  const body = (await c.res.clone().json()) as { message?: unknown; detail?: unknown };
  const message = typeof body.message === 'string' ? body.message : '';
  // A validation failure's detail is a list of issues: the page shows each one's message.
  const detail =
    typeof body.detail === 'string'
      ? body.detail
      : Array.isArray(body.detail)
        ? body.detail.map((issue: { msg?: unknown }) => String(issue?.msg ?? '')).join('; ')
        : '';
  c.res = new Response(renderRefusalPage(message, detail), {
    status: c.res.status,
    headers: { 'content-type': 'text/html; charset=UTF-8' },
  });
};
