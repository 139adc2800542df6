import type { Context } from 'hono';
import { html } from 'hono/html';
import { ApiError } from '../../lib/errors.js';
import { searchConsumers } from '../../modules/consumers/index.js';
import { listIssues, toIssueItem } from '../../modules/issues/index.js';
import { newestFirst, statusOf } from '../../modules/syncs/index.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { publicOrigin } from '../../platform/urls.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type { ConsumerRecord, ExecutionRecord, LinkRecord, World } from '../../store/world.js';
import { badge, code, type Html, logo, pageNumber, pager, slice } from './layout.js';
import { chosenEnvironment, environmentLabel, environmentPrincipal } from './scope.js';
import { verticalSamples } from './vertical-samples.js';

export const CONSUMERS_PER_PAGE = 25;

/** What the consumer pages show besides the consumer: counted once per request, by consumer. */
function byConsumer<T extends { consumerid: string }>(records: Iterable<T>, keep: (r: T) => boolean) {
  const out = new Map<string, T[]>();
  for (const record of records) {
    if (!keep(record)) continue;
    const list = out.get(record.consumerid);
    if (list) list.push(record);
    else out.set(record.consumerid, [record]);
  }
  return out;
}

const openLinks = (world: World) =>
  byConsumer<LinkRecord>(Object.values(world.links), (l) => l.completed_on === null);

function connectionList(c: Context<AppEnv>, consumer: ConsumerRecord): Html {
  const catalogue = c.get('catalogue');
  const connections = connectionsOfConsumer(c.get('store').world, consumer.consumerid);
  if (connections.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="plain">${connections.map((connection) => {
    const integration = catalogue.get(connection.integrationid);
    const name = integration?.name ?? String(connection.integrationid);
    return html`<li>${logo(integration)} ${name} <span class="muted">${integration?.api ?? ''}</span> ${badge(connection.status)}</li>`;
  })}</ul>`;
}

/** GET /console/consumers: search (as GET /consumers searches) and server-side pages. */
export function consumersBody(c: Context<AppEnv>): Html {
  const world = c.get('store').world;
  const env = chosenEnvironment(world, c.req.query('env'));
  const principal = environmentPrincipal(env.accountid, env.envid);
  const search = c.req.query('search')?.trim() || undefined;
  const reference = c.req.query('internal_reference')?.trim() || undefined;
  const matching = searchConsumers(world, principal, { search, internal_reference: reference });
  const shown = slice(matching, pageNumber(c.req.query('page')), CONSUMERS_PER_PAGE);
  const links = openLinks(world);
  const issues = byConsumer(Object.values(world.issues), (i) => i.status === 'open');
  const executions = byConsumer(Object.values(world.executions), () => true);
  const params = { env: env.envid, search, internal_reference: reference };
  return html`
  <form method="get" action="/console/consumers" class="filters" role="search">
    <div><label for="env">Environment</label>
    <select id="env" name="env">${Object.values(world.environments).map(
      (e) =>
        html`<option value="${e.envid}"${e.envid === env.envid ? html` selected` : ''}>${environmentLabel(world, e)}</option>`,
    )}</select></div>
    <div><label for="search">Name, e-mail or internal reference contains</label>
    <input id="search" name="search" type="search" value="${search ?? ''}"></div>
    <div><label for="internal_reference">Internal reference is</label>
    <input id="internal_reference" name="internal_reference" type="text" value="${reference ?? ''}"></div>
    <button type="submit">Search</button>
  </form>
  <p>The consumers an unrestricted key of ${environmentLabel(world, env)} sees through <code>GET /consumers${
    search ? `?search=${encodeURIComponent(search)}` : ''
  }</code>, in creation order.</p>
  ${pager('/console/consumers', params, shown)}
  <table>
    <thead><tr><th scope="col">Name</th><th scope="col">Internal reference</th><th scope="col">Connections</th>
    <th scope="col">Open link pages</th><th scope="col">Open issues</th><th scope="col">Executions</th></tr></thead>
    <tbody>
    ${shown.items.map(
      (consumer) => html`<tr>
        <td><a href="/console/consumers/${consumer.consumerid}">${consumer.name}</a><br><small>${code(consumer.consumerid)}</small></td>
        <td>${code(consumer.internal_reference)}</td>
        <td>${connectionList(c, consumer)}</td>
        <td>${String(links.get(consumer.consumerid)?.length ?? 0)}</td>
        <td>${String(issues.get(consumer.consumerid)?.length ?? 0)}</td>
        <td>${String(executions.get(consumer.consumerid)?.length ?? 0)}</td>
      </tr>`,
    )}
    </tbody>
  </table>
  ${shown.total === 0 ? html`<p>No consumer matches.</p>` : ''}
  ${pager('/console/consumers', params, shown)}`;
}

function executionRows(world: World, executions: ExecutionRecord[], now: Date): Html {
  if (executions.length === 0) return html`<p class="muted">No execution.</p>`;
  return html`<table>
    <thead><tr><th scope="col">Execution</th><th scope="col">Kind</th><th scope="col">Flow</th><th scope="col">Trigger</th>
    <th scope="col">Status</th><th scope="col">Start</th><th scope="col">End</th><th scope="col">Error code</th></tr></thead>
    <tbody>${executions.map(
      (e) => html`<tr>
        <td>${code(e.executionid)}</td><td>${e.kind}</td>
        <td>${e.flowid ? (world.flows[e.flowid]?.name ?? e.flowid) : html`<span class="muted">–</span>`}</td>
        <td>${e.trigger}</td><td>${badge(statusOf(e, now))}</td>
        <td>${code(e.start)}</td><td>${code(e.end)}</td><td>${code(e.failure?.error_code)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
}

/** GET /console/consumers/{consumer_id}: the consumer, its connections, links, issues, executions, data. */
export async function consumerBody(c: Context<AppEnv>): Promise<{ title: string; body: Html } | null> {
  const world = c.get('store').world;
  const id = c.req.param('consumer_id') ?? '';
  const found = world.consumers[id.toLowerCase()];
  if (!found) return null;
  // The vertical checks read the caller from the context: the consumer's own environment.
  const principal = environmentPrincipal(found.accountid, found.envid);
  c.set('principal', principal);
  let consumer: ConsumerRecord;
  try {
    consumer = requireConsumer(world, principal, id);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
  const catalogue = c.get('catalogue');
  const origin = publicOrigin(c.get('config'), c.req.url);
  const connections = connectionsOfConsumer(world, consumer.consumerid);
  const links = openLinks(world).get(consumer.consumerid) ?? [];
  const issues = listIssues(world, principal, {} as Parameters<typeof listIssues>[2], consumer.consumerid);
  const executions = Object.values(world.executions)
    .filter((e) => e.consumerid === consumer.consumerid)
    .sort(newestFirst)
    .slice(0, 50);
  const apis = new Set<string>();
  for (const connection of connections) {
    const api = catalogue.get(connection.integrationid)?.api;
    if (api && connection.status === 'active') apis.add(api);
  }
  const env = world.environments[consumer.envid];
  const samples = await verticalSamples(c, consumer.consumerid, apis);
  const base = `/consumers/${consumer.consumerid}`;
  const body = html`
  <dl class="facts">
    <div><dt>Consumer id</dt><dd>${code(consumer.consumerid)}</dd></div>
    <div><dt>Environment</dt><dd>${env ? environmentLabel(world, env) : consumer.envid}</dd></div>
    <div><dt>E-mail</dt><dd>${code(consumer.email)}</dd></div>
    <div><dt>Internal reference</dt><dd>${code(consumer.internal_reference)}</dd></div>
    <div><dt>Redirect url</dt><dd>${code(consumer.redirect_url)}</dd></div>
    <div><dt>Created</dt><dd>${code(consumer.created_on)}</dd></div>
    <div><dt>API</dt><dd><code>GET ${base}</code></dd></div>
  </dl>

  <section aria-labelledby="connections">
    <h2 id="connections">Connections</h2>
    <p><code>GET ${base}/connections</code></p>
    ${
      connections.length === 0
        ? html`<p class="muted">No connection.</p>`
        : html`<table>
      <thead><tr><th scope="col">Integration</th><th scope="col">Vertical</th><th scope="col">Name</th><th scope="col">Status</th>
      <th scope="col">Connection id</th><th scope="col">Updated</th></tr></thead>
      <tbody>${connections.map((connection) => {
        const integration = catalogue.get(connection.integrationid);
        const name = integration?.name ?? String(connection.integrationid);
        return html`<tr>
          <td>${logo(integration)} ${name}</td><td>${integration?.api ?? ''}</td>
          <td>${connection.name}</td><td>${badge(connection.status)}</td>
          <td>${code(connection.connectionid)}</td><td>${code(connection.updated_on)}</td>
        </tr>`;
      })}</tbody>
    </table>`
    }
  </section>

  <section aria-labelledby="links">
    <h2 id="links">Open link pages</h2>
    ${
      links.length === 0
        ? html`<p class="muted">None: <code>POST ${base}/connections</code> hands one out.</p>`
        : html`<ul>${links.map(
            (link) =>
              html`<li><a href="${origin}/link/${link.linkid}">${origin}/link/${link.linkid}</a> (created ${link.created_on}${
                link.integrationid !== null
                  ? `, ${catalogue.get(link.integrationid)?.name ?? link.integrationid}`
                  : ''
              })</li>`,
          )}</ul>`
    }
  </section>

  <section aria-labelledby="issues">
    <h2 id="issues">Issues</h2>
    <p><code>GET /issues/consumers/${consumer.consumerid}</code></p>
    ${
      issues.length === 0
        ? html`<p class="muted">No issue.</p>`
        : html`<table>
      <thead><tr><th scope="col">Issue</th><th scope="col">Error code</th><th scope="col">Level</th><th scope="col">Status</th>
      <th scope="col">Occurrences</th><th scope="col">Last seen</th></tr></thead>
      <tbody>${issues.map(toIssueItem).map(
        (issue) => html`<tr>
          <td>${code(issue.id)}</td><td>${code(issue.error.error_code)}</td><td>${badge(issue.level)}</td>
          <td>${badge(issue.status)}</td><td>${String(issue.occurrences)}</td><td>${code(issue.last_seen)}</td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>

  <section aria-labelledby="executions">
    <h2 id="executions">Executions</h2>
    ${executionRows(world, executions, c.get('clock').now())}
  </section>

  <section aria-labelledby="data">
    <h2 id="data">Vertical data</h2>
    ${samples.length === 0 ? html`<p class="muted">No active connection to a vertical.</p>` : samples}
  </section>`;
  return { title: consumer.name, body };
}

export { executionRows };
