import type { Context } from 'hono';
import { html } from 'hono/html';
import { ApiError, ValidationFailure } from '../../lib/errors.js';
import {
  apisOf,
  armFailurePlan,
  clearFailurePlans,
  FailurePlanInput,
  flowsOf,
  statusOf,
} from '../../modules/syncs/index.js';
import type { AppEnv } from '../../platform/context.js';
import type { ExecutionRecord } from '../../store/world.js';
import { badge, code, type Html, pageNumber, pager, postButton, slice } from './layout.js';
import { formOf } from './scope.js';

export const EXECUTIONS_PER_PAGE = 50;

/** Most recent first, as GET /__sandbox/executions orders them. */
const recentFirst = (a: ExecutionRecord, b: ExecutionRecord) =>
  b.queued_at.localeCompare(a.queued_at) || b.executionid.localeCompare(a.executionid);

/**
 * A bar from the execution's start to its end on a shared time axis, so that runs read as a
 * timeline (the table beside it says the same in text).
 */
function bar(e: ExecutionRecord, from: number, span: number): Html {
  const start = Date.parse(e.start);
  const end = e.end ? Date.parse(e.end) : start;
  const left = ((start - from) / span) * 100;
  const width = Math.max(((end - start) / span) * 100, 0.8);
  return html`<div class="track" aria-hidden="true"><span class="bar ${e.outcome ?? 'open'}" style="margin-left:${left.toFixed(2)}%;width:${width.toFixed(2)}%"></span></div>`;
}

/** GET /console/automation: syncs and their flows, the executions timeline, the armed failures. */
export function automationBody(c: Context<AppEnv>): Html {
  const world = c.get('store').world;
  const now = c.get('clock').now();
  const syncs = Object.values(world.syncs);
  const executions = Object.values(world.executions).sort(recentFirst);
  const shown = slice(executions, pageNumber(c.req.query('page')), EXECUTIONS_PER_PAGE);
  const times = shown.items.flatMap((e) => [Date.parse(e.start), Date.parse(e.end ?? e.start)]);
  const from = times.length ? Math.min(...times) : 0;
  const span = Math.max((times.length ? Math.max(...times) : 0) - from, 1);
  const failures = Object.values(world.failure_plans);
  const consumersOf = (syncid: string) =>
    Object.values(world.consumer_syncs).filter((r) => r.syncid === syncid).length;
  return html`
  <section aria-labelledby="syncs">
    <h2 id="syncs">Syncs and flows</h2>
    ${
      syncs.length === 0
        ? html`<p class="muted">No sync.</p>`
        : html`<table>
      <thead><tr><th scope="col">Sync</th><th scope="col">One APIs</th><th scope="col">Consumers</th><th scope="col">Flows (triggers)</th></tr></thead>
      <tbody>${syncs.map(
        (sync) => html`<tr>
          <td>${sync.name}<br><small>${code(sync.syncid)}</small></td>
          <td>${apisOf(sync).join(', ')}</td>
          <td>${String(consumersOf(sync.syncid))}</td>
          <td><ul class="plain">${flowsOf(world, sync.syncid).map(
            (flow) =>
              html`<li>${flow.name} ${code(flow.flowid)} <span class="muted">${flow.triggers
                .map((t) => (t.type === 'timer' ? `timer ${t.cronschedules?.join(' | ') ?? ''}` : t.type))
                .join(', ')}</span></li>`,
          )}</ul></td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>

  <section aria-labelledby="failures">
    <h2 id="failures">Armed failures</h2>
    <p>The next executions of a flow or of a consumer fail with an error code: <code>POST /__sandbox/failures</code> arms one, as this form does.</p>
    <form method="post" action="/console/automation/failures" class="stack">
      <label for="failure-flow">Flow</label>
      <select id="failure-flow" name="flowid">
        <option value="">Any flow (give a consumer)</option>
        ${Object.values(world.flows).map((flow) => html`<option value="${flow.flowid}">${flow.name} (${world.syncs[flow.syncid]?.name ?? flow.syncid})</option>`)}
      </select>
      <label for="failure-consumer">Consumer id</label>
      <input id="failure-consumer" name="consumerid" placeholder="any consumer (give a flow)" autocomplete="off">
      <label for="failure-count">Executions to fail</label>
      <input id="failure-count" name="count" type="number" min="1" max="1000" value="1">
      <label for="failure-code">Error code</label>
      <input id="failure-code" name="error_code" value="ERROR_AUTHENTICATION_FAILED" required>
      <label for="failure-level">Level</label>
      <select id="failure-level" name="level"><option>error</option><option>warning</option></select>
      <label for="failure-message">Message (optional)</label>
      <input id="failure-message" name="message">
      <button type="submit">Arm the failure</button>
    </form>
    ${failures.length > 0 ? postButton('/console/automation/failures/clear', 'Disarm every failure', { confirm: 'Disarm every armed failure?' }) : ''}
    ${
      failures.length === 0
        ? html`<p class="muted">None armed.</p>`
        : html`<table>
      <thead><tr><th scope="col">Failure</th><th scope="col">Flow</th><th scope="col">Consumer</th><th scope="col">Remaining</th>
      <th scope="col">Error code</th><th scope="col">Level</th><th scope="col">Message</th></tr></thead>
      <tbody>${failures.map(
        (f) => html`<tr>
          <td>${code(f.failureid)}</td><td>${f.flowid ? (world.flows[f.flowid]?.name ?? f.flowid) : html`<span class="muted">any</span>`}</td>
          <td>${f.consumerid ? html`<a href="/console/consumers/${f.consumerid}">${world.consumers[f.consumerid]?.name ?? f.consumerid}</a>` : html`<span class="muted">any</span>`}</td>
          <td>${String(f.remaining)}</td><td>${code(f.error_code)}</td><td>${badge(f.level)}</td><td>${f.message ?? ''}</td>
        </tr>`,
      )}</tbody>
    </table>`
    }
  </section>

  <section aria-labelledby="executions">
    <h2 id="executions">Executions</h2>
    <p>Most recent first, with their planned timeline at the sandbox time ${now.toISOString()} (<code>GET /__sandbox/executions</code>); move the clock to see them run.</p>
    ${pager('/console/automation', {}, shown)}
    <table class="timeline">
      <thead><tr><th scope="col">Queued</th><th scope="col">Consumer</th><th scope="col">Flow</th><th scope="col">Kind / trigger</th>
      <th scope="col">Status</th><th scope="col">Start → end</th><th scope="col">Error code</th><th scope="col">Timeline</th></tr></thead>
      <tbody>${shown.items.map(
        (e) => html`<tr>
          <td>${code(e.queued_at)}</td>
          <td><a href="/console/consumers/${e.consumerid}">${world.consumers[e.consumerid]?.name ?? e.consumerid}</a></td>
          <td>${e.flowid ? (world.flows[e.flowid]?.name ?? e.flowid) : html`<span class="muted">–</span>`}</td>
          <td>${e.kind} / ${e.trigger}</td>
          <td>${badge(statusOf(e, now))}${e.settled ? '' : html` <span class="muted">(not settled)</span>`}</td>
          <td><small>${e.start.slice(0, 19)} → ${e.end?.slice(0, 19) ?? 'open'}</small></td>
          <td>${code(e.failure?.error_code)}</td>
          <td>${bar(e, from, span)}</td>
        </tr>`,
      )}</tbody>
    </table>
    ${shown.total === 0 ? html`<p class="muted">No execution.</p>` : ''}
  </section>`;
}

/** The failure form: what POST /__sandbox/failures does, its body checked by the same schema. */
export async function armFailureForm(c: Context<AppEnv>): Promise<string> {
  const form = await formOf(c);
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const count = text('count');
  const parsed = FailurePlanInput.safeParse({
    flowid: text('flowid') || undefined,
    consumerid: text('consumerid') || undefined,
    count: count ? Number(count) : undefined,
    error_code: text('error_code'),
    level: text('level') || undefined,
    message: text('message') || undefined,
  });
  if (!parsed.success) {
    return `error=${encodeURIComponent(parsed.error.issues.map((i) => i.message).join('; '))}`;
  }
  try {
    const deps = { ids: c.get('ids'), clock: c.get('clock') };
    const plan = await c.get('store').transact((write) => armFailurePlan(write.world, deps, parsed.data));
    return `notice=${encodeURIComponent(`Armed ${plan.failureid}: the next ${plan.remaining} execution(s) fail with ${plan.error_code}`)}`;
  } catch (error) {
    if (error instanceof ApiError) return `error=${encodeURIComponent(error.detail || error.message)}`;
    if (error instanceof ValidationFailure) {
      return `error=${encodeURIComponent(error.issues.map((i) => i.msg).join('; '))}`;
    }
    throw error;
  }
}

/** The disarm button: what DELETE /__sandbox/failures does. */
export async function disarmFailures(c: Context<AppEnv>): Promise<string> {
  const removed = await c.get('store').transact((write) => clearFailurePlans(write.world));
  return `notice=${encodeURIComponent(`Disarmed ${removed} failure(s)`)}`;
}
