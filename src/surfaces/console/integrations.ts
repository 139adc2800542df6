import type { Context } from 'hono';
import { html } from 'hono/html';
import { listIntegrations } from '../../modules/integrations/index.js';
import { API_NAMES } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import { badge, type Html, logo } from './layout.js';

/** GET /console/integrations: the catalogue, as GET /integrations lists it, with the coverage. */
export function integrationsBody(c: Context<AppEnv>): Html {
  const status = c.req.query('status');
  const api = c.req.query('api');
  const integrations = listIntegrations(c.get('catalogue'), {
    status: status === 'active' || status === 'inactive' ? status : undefined,
  }).filter((i) => !api || i.api === api);
  return html`
  <form method="get" action="/console/integrations" class="filters">
    <div><label for="api">Vertical</label>
    <select id="api" name="api"><option value="">All</option>${API_NAMES.map(
      (name) => html`<option${name === api ? html` selected` : ''}>${name}</option>`,
    )}</select></div>
    <div><label for="status">Status</label>
    <select id="status" name="status"><option value="">All</option>${['active', 'inactive'].map(
      (s) => html`<option${s === status ? html` selected` : ''}>${s}</option>`,
    )}</select></div>
    <button type="submit">Filter</button>
  </form>
  <p>${String(integrations.length)} integrations, as <code>GET /integrations?include_coverage=true</code> lists them.</p>
  <table>
    <thead><tr><th scope="col">Integration</th><th scope="col">Id</th><th scope="col">Vertical</th><th scope="col">Countries</th>
    <th scope="col">Status</th><th scope="col">Operation coverage</th></tr></thead>
    <tbody>${integrations.map((integration) => {
      const supported = integration.coverage.filter((entry) => entry.status === 'SUPPORTED').length;
      return html`<tr>
        <td>${logo(integration)} ${integration.name}${
          integration.local_agent ? html` <span class="badge warn">local agent</span>` : ''
        }</td>
        <td><code>${String(integration.integrationid)}</code></td>
        <td>${integration.api}</td>
        <td>${integration.supported_countries ? integration.supported_countries.join(', ') : html`<span class="muted">all</span>`}</td>
        <td>${badge(integration.status)}</td>
        <td><details><summary>${String(supported)} of ${String(integration.coverage.length)} supported</summary>
          <ul class="plain coverage">${integration.coverage.map(
            (entry) => html`<li><code>${entry.operation}</code> ${badge(entry.status)}</li>`,
          )}</ul></details></td>
      </tr>`;
    })}</tbody>
  </table>`;
}
