import type { Context } from 'hono';
import { html } from 'hono/html';
import { ApiError } from '../../lib/errors.js';
import {
  deliveryHeaders,
  deliveryWorkKey,
  queueRedelivery,
  requireDelivery,
  signingSecretAt,
  toDelivery,
  toWebhookInstance,
} from '../../modules/webhooks/index.js';
import type { AppEnv } from '../../platform/context.js';
import { badge, code, type Html, pageNumber, pager, postButton, pretty, slice } from './layout.js';

export const DELIVERIES_PER_PAGE = 20;

/**
 * GET /console/webhooks: every instance (as GET /webhooks lists them, secrets left out) and every
 * delivery of the outbox, newest first (as GET /__sandbox/webhook-deliveries shows them), with the
 * exact body, the headers it is sent with, the attempts, what a fault made it do (POST
 * /__sandbox/faults with a webhook match), and a redeliver button.
 */
export function webhooksBody(c: Context<AppEnv>): Html {
  const world = c.get('store').world;
  const now = c.get('clock').now();
  const state = c.req.query('state');
  const instances = Object.values(world.webhooks);
  const deliveries = Object.values(world.webhook_deliveries)
    .filter((d) => !state || d.state === state)
    .reverse();
  const shown = slice(deliveries, pageNumber(c.req.query('page')), DELIVERIES_PER_PAGE);
  return html`
  <section aria-labelledby="instances">
    <h2 id="instances">Instances</h2>
    ${
      instances.length === 0
        ? html`<p class="muted">No webhook instance: <code>POST /webhooks</code> creates one.</p>`
        : html`<table>
      <thead><tr><th scope="col">Event</th><th scope="col">Url</th><th scope="col">Status</th><th scope="col">Signed</th>
      <th scope="col">Integration</th><th scope="col">Webhook id</th><th scope="col">Created</th></tr></thead>
      <tbody>${instances.map((record) => {
        const instance = toWebhookInstance(record);
        return html`<tr>
          <td><code>${instance.event}</code></td><td>${code(instance.url)}</td><td>${badge(instance.status)}</td>
          <td>${record.signingsecret ? 'yes' : 'no'}${overlap(record.signingsecret_previous, now)}</td><td>${code(instance.integrationid)}</td>
          <td>${code(instance.webhookid)}</td><td>${code(instance.createdon)}</td>
        </tr>`;
      })}</tbody>
    </table>`
    }
  </section>
  <section aria-labelledby="deliveries">
    <h2 id="deliveries">Deliveries</h2>
    <form method="get" action="/console/webhooks" class="filters">
      <div><label for="state">State</label>
      <select id="state" name="state"><option value="">All</option>${['pending', 'delivered', 'failed'].map(
        (s) => html`<option${s === state ? html` selected` : ''}>${s}</option>`,
      )}</select></div>
      <button type="submit">Filter</button>
    </form>
    ${pager('/console/webhooks', { state }, shown)}
    ${shown.total === 0 ? html`<p class="muted">No delivery yet.</p>` : ''}
    ${shown.items.map((record) => {
      const delivery = toDelivery(world, record);
      const webhook = world.webhooks[delivery.webhookid];
      // The secret that signs it now: the previous one while a rotation's overlap lasts.
      const headers = deliveryHeaders(delivery.body, webhook ? signingSecretAt(webhook, now) : null);
      const fault = delivery.fault;
      return html`<article class="delivery" aria-labelledby="d-${delivery.deliveryid}">
        <h3 id="d-${delivery.deliveryid}"><code>${delivery.event}</code> ${badge(delivery.state)} <small>${delivery.created_on}</small></h3>
        <dl class="facts">
          <div><dt>Delivery</dt><dd>${code(delivery.deliveryid)}</dd></div>
          <div><dt>Url</dt><dd>${code(delivery.url)}</dd></div>
          <div><dt>Attempts</dt><dd>${String(delivery.attempts)}</dd></div>
          <div><dt>Last answer</dt><dd>${delivery.last_httpstatus === null ? html`<span class="muted">–</span>` : badge(String(delivery.last_httpstatus))} ${delivery.last_error ?? ''}</dd></div>
          <div><dt>Next attempt</dt><dd>${code(delivery.next_attempt_at)}</dd></div>
          <div><dt>Consumer</dt><dd>${delivery.consumerid ? html`<a href="/console/consumers/${delivery.consumerid}">${delivery.consumerid}</a>` : html`<span class="muted">–</span>`}</dd></div>
          ${delivery.redelivery_of ? html`<div><dt>Sends again</dt><dd>${code(delivery.redelivery_of)}</dd></div>` : ''}
          ${fault ? html`<div><dt>Fault</dt><dd><span class="badge warn">${fault.id} ${fault.effect}${fault.held ? ' (held)' : ''}</span> ${fault.detail}${fault.signingsecret ? html` <code>${fault.signingsecret}</code>` : ''}</dd></div>` : ''}
        </dl>
        <details><summary>Payload and headers</summary>
          <h4>Headers</h4>
          <pre>${Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n')}</pre>
          <h4>Body</h4>
          ${pretty(delivery.payload)}
        </details>
        <details><summary>Attempts (${String(delivery.log.length)})</summary>
          ${
            delivery.log.length === 0
              ? html`<p class="muted">No attempt yet.</p>`
              : html`<table><thead><tr><th scope="col">When</th><th scope="col">HTTP status</th><th scope="col">Error</th><th scope="col">Fault</th><th scope="col">Log id</th></tr></thead>
            <tbody>${delivery.log.map(
              (a) =>
                html`<tr><td>${code(a.createdon)}</td><td>${badge(String(a.httpstatus))}</td><td>${a.error ?? ''}</td><td>${a.fault ? `${a.fault.id} ${a.fault.effect}` : ''}</td><td>${code(a.webhooklogid)}</td></tr>`,
            )}</tbody></table>`
          }
        </details>
        ${postButton(`/console/webhooks/deliveries/${delivery.deliveryid}/redeliver`, 'Redeliver', {
          name: `Redeliver ${delivery.event} ${delivery.deliveryid}`,
        })}
      </article>`;
    })}
    ${pager('/console/webhooks', { state }, shown)}
  </section>`;
}

/** After a rotation with an overlap: until when the previous secret still signs, while it does. */
function overlap(previous: { until: string } | undefined, now: Date): Html | string {
  if (!previous || Date.parse(previous.until) <= now.getTime()) return '';
  return html` <small class="muted">(the previous secret signs until ${previous.until})</small>`;
}

/**
 * The redeliver button: what POST /__sandbox/webhook-deliveries/{id}/redeliver does, with the same
 * functions, waiting as it does for the first attempt of the new delivery.
 */
export async function redeliver(c: Context<AppEnv>): Promise<string> {
  const store = c.get('store');
  const ticker = c.get('ticker');
  try {
    const deps = { ids: c.get('ids'), now: c.get('clock').now() };
    const deliveryid = c.req.param('deliveryid') ?? '';
    const record = await store.transact((write) =>
      queueRedelivery(write.world, deps, requireDelivery(write.world, deliveryid)),
    );
    await ticker.run();
    await ticker.settled(deliveryWorkKey(record.deliveryid));
    const current = store.world.webhook_deliveries[record.deliveryid] ?? record;
    const outcome =
      current.last_httpstatus !== null ? `answered ${current.last_httpstatus}` : `is ${current.state}`;
    return `notice=${encodeURIComponent(`Delivery ${current.deliveryid} sent again: it ${outcome}`)}`;
  } catch (error) {
    if (error instanceof ApiError) return `error=${encodeURIComponent(error.detail || error.message)}`;
    throw error;
  }
}
