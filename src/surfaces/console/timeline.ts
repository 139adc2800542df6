import type { Context } from 'hono';
import { html } from 'hono/html';
import { paceState, setPace } from '../../control/sandbox.domain.js';
import { PaceSet } from '../../control/sandbox.schemas.js';
import { blocksOf, timelineOf } from '../../control/timeline.js';
import { own } from '../../lib/own.js';
import type { AppEnv } from '../../platform/context.js';
import type { World } from '../../store/world.js';
import { code, type Html } from './layout.js';
import { formOf } from './scope.js';

/** The most rows the page shows, newest first. */
export const TIMELINE_ROWS = 200;

interface Row {
  at: string;
  consumerid: string | null;
  connectionid: string | null;
  what: string;
  status: string;
}

/**
 * What happened on each connection, newest first: the timeline's events (declared, applied or
 * refused), what the life of connections did (issues opened, outages), and the events sent to
 * webhooks (orders completed or created, connections updated...). `?consumer=` keeps one consumer's.
 */
export function timelineRows(world: World, consumer: string | null): Row[] {
  const rows: Row[] = [];
  for (const event of timelineOf(world)) {
    const what = event.event
      ? `Scripted: ${event.event.replaceAll('_', ' ')}${event.until ? ` until ${event.until}` : ''}`
      : `Scripted records: ${Object.entries(event.records ?? blocksOf(world, event) ?? {})
          .map(
            ([vertical, kinds]) =>
              `${vertical} ${Object.entries((kinds ?? {}) as Record<string, unknown[]>)
                .map(([kind, list]) => `${Array.isArray(list) ? list.length : 0} ${kind}`)
                .join(', ')}`,
          )
          .join('; ')}`;
    const status = event.status === 'failed' ? `failed: ${event.error ?? ''}` : event.status;
    rows.push({ at: event.at, consumerid: event.consumerid, connectionid: event.connectionid, what, status });
  }
  for (const issue of Object.values(world.issues)) {
    rows.push({
      at: issue.created_on,
      consumerid: issue.consumerid,
      connectionid: issue.connection_id,
      what: `Issue: ${issue.error_title} (${issue.error_code})`,
      status: issue.status,
    });
  }
  for (const connection of Object.values(world.connections)) {
    if (!connection.outage) continue;
    rows.push({
      at: connection.outage.since,
      consumerid: connection.consumerid,
      connectionid: connection.connectionid,
      what: `${connection.outage.kind === 'agent_down' ? 'Local agent down' : 'Unreachable'}${
        connection.outage.until ? ` until ${connection.outage.until}` : ''
      }`,
      status: 'outage',
    });
  }
  for (const delivery of Object.values(world.webhook_deliveries)) {
    rows.push({
      at: delivery.created_on,
      consumerid: delivery.event_consumerid,
      connectionid: null,
      what: `Event ${delivery.event}`,
      status: `delivery ${delivery.state}`,
    });
  }
  return rows
    .filter((row) => consumer === null || row.consumerid === consumer)
    .sort((a, b) => b.at.localeCompare(a.at) || a.what.localeCompare(b.what))
    .slice(0, TIMELINE_ROWS);
}

/** GET /console/timeline: the pace, and what happened on each connection. */
export function timelineBody(c: Context<AppEnv>): Html {
  const store = c.get('store');
  const world = store.world;
  const consumer = c.req.query('consumer') ?? null;
  const rows = timelineRows(world, consumer);
  const pace = paceState(world, store.today());
  const nameOf = (id: string | null) => (id ? (own(world.consumers, id)?.name ?? id) : '');
  return html`
  <section aria-labelledby="pace">
    <h2 id="pace">Pace of the business</h2>
    <p>Today's pace: <strong>${pace.pace}</strong>. Each day's sales, invoices, bank lines and stays
    are drawn at this pace from the day it is set on; the days before keep theirs
    (<code>POST /__sandbox/pace</code>).</p>
    <div class="row">
      ${(['quiet', 'normal', 'busy'] as const).map(
        (value) => html`<form method="post" action="/console/pace" class="inline">
        <input type="hidden" name="pace" value="${value}">
        <button type="submit"${value === pace.pace ? html` aria-pressed="true"` : ''}>${value}</button>
      </form>`,
      )}
    </div>
  </section>
  <section aria-labelledby="timeline">
    <h2 id="timeline">What happened</h2>
    <p>Newest first, at most ${String(TIMELINE_ROWS)} rows${
      consumer ? html` for the consumer ${code(consumer)} (<a href="/console/timeline">all</a>)` : ''
    }: the events of <code>POST /__sandbox/timeline</code>, the life of connections (issues, outages) and the
    events sent to webhooks. Move the clock from the <a href="/console">overview</a> (+1 day, +1 week) to see more.</p>
    <table>
      <thead><tr><th scope="col">When</th><th scope="col">Consumer</th><th scope="col">Connection</th><th scope="col">What</th><th scope="col">Status</th></tr></thead>
      <tbody>
      ${rows.map(
        (row) => html`<tr>
          <td><time datetime="${row.at}">${row.at}</time></td>
          <td>${row.consumerid ? html`<a href="/console/timeline?consumer=${row.consumerid}">${nameOf(row.consumerid)}</a>` : ''}</td>
          <td>${row.connectionid ? code(row.connectionid) : ''}</td>
          <td>${row.what}</td>
          <td>${row.status}</td>
        </tr>`,
      )}
      </tbody>
    </table>
  </section>`;
}

/** The pace form: what POST /__sandbox/pace does, from the clock's day. */
export async function changePace(c: Context<AppEnv>): Promise<string> {
  const form = await formOf(c);
  const parsed = PaceSet.safeParse({ pace: form.pace });
  if (!parsed.success) return `error=${encodeURIComponent('The pace is quiet, normal or busy')}`;
  const state = await setPace(c.get('store'), parsed.data.pace);
  return `notice=${encodeURIComponent(`The pace is ${state.pace} from ${c.get('store').today()} on`)}`;
}
