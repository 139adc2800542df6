import type { Integration } from '../../seed/catalogue.js';
import type { ConnectionRecord, ConsumerRecord, LinkRecord } from '../../store/world.js';
import { connectionCredentials } from './connections.domain.js';

/**
 * The pages the end user sees on a connection link: self-contained HTML (inline style and script,
 * no external asset), so that they work offline and in a headless browser.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/** Name of the form field of one credential of one integration. */
export const credentialField = (integrationid: number, name: string) => `credential:${integrationid}:${name}`;

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input,select{width:100%;padding:.4rem;box-sizing:border-box}
fieldset{border:1px solid #ccd;border-radius:6px;margin:1rem 0}button{margin-top:1.2rem;padding:.5rem 1.2rem}
.note{color:#667;font-size:.9rem}`;

const SECRET = /secret|password|token|key/i;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>`;
}

function credentialInputs(integration: Integration, required: boolean): string {
  const definitions = connectionCredentials(integration);
  if (definitions.length === 0) return '<p class="note">This integration needs no credentials.</p>';
  return definitions
    .map((d) => {
      const field = escapeHtml(credentialField(integration.integrationid, d.name));
      const type = SECRET.test(d.name) ? 'password' : 'text';
      const mark = d.optional ? ' <span class="note">(optional)</span>' : '';
      const attrs = required && !d.optional ? ' required' : '';
      return `<label for="${field}">${escapeHtml(d.name)}${mark}</label>
<input id="${field}" name="${field}" type="${type}" autocomplete="off"${attrs}>`;
    })
    .join('\n');
}

// Shows the fields of the chosen integration only; disabled fieldsets are not submitted.
const CHOOSER_SCRIPT = `<script>
(function(){var s=document.getElementById('integrationid');function show(){
document.querySelectorAll('fieldset[data-integration]').forEach(function(f){var on=f.getAttribute('data-integration')===s.value;
f.hidden=!on;f.disabled=!on;});}s.addEventListener('change',show);show();})();
</script>`;

export function renderLinkPage(
  link: LinkRecord,
  consumer: ConsumerRecord,
  integrations: Integration[],
  connection: ConnectionRecord | null,
): string {
  const action = `/link/${encodeURIComponent(link.linkid)}`;
  const who = `<p>For <strong>${escapeHtml(consumer.name)}</strong></p>`;
  const fixed = link.integrationid !== null ? integrations[0] : undefined;
  if (fixed) {
    const verb = connection?.status === 'active' ? 'Update' : 'Connect';
    return page(
      `${verb} ${fixed.name}`,
      `<h1>${verb} ${escapeHtml(fixed.name)}</h1>
${who}
<p class="note">${escapeHtml(fixed.api)}${connection ? ` &middot; connection ${escapeHtml(connection.name)}` : ''}</p>
<form method="post" action="${action}">
<input type="hidden" name="integrationid" value="${fixed.integrationid}">
${credentialInputs(fixed, true)}
<button type="submit">${verb}</button>
</form>`,
    );
  }
  if (integrations.length === 0) {
    return page('No integration available', `<h1>No integration available</h1>\n${who}`);
  }
  const options = integrations
    .map((i) => `<option value="${i.integrationid}">${escapeHtml(i.name)} (${escapeHtml(i.api)})</option>`)
    .join('\n');
  const fieldsets = integrations
    .map(
      (i) => `<fieldset data-integration="${i.integrationid}">
<legend>${escapeHtml(i.name)}</legend>
${credentialInputs(i, false)}
</fieldset>`,
    )
    .join('\n');
  return page(
    'Connect an integration',
    `<h1>Connect an integration</h1>
${who}
<form method="post" action="${action}">
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
