import type { Context } from 'hono';
import { html } from 'hono/html';
import { formatDotenv, sandboxEnv } from '../../control/env.js';
import { type ClockMove, moveClock, resetSandbox } from '../../control/sandbox.domain.js';
import { ClockChange } from '../../control/sandbox.schemas.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError, ValidationFailure } from '../../lib/errors.js';
import type { AppEnv } from '../../platform/context.js';
import { credentialsOf } from '../../platform/credentials.js';
import { publicOrigin } from '../../platform/urls.js';
import { consumersOfEnvironment } from '../../store/indexes.js';
import { code, copyButton, type Html, postButton } from './layout.js';
import { environmentLabel, formOf } from './scope.js';

/** The overview: the world, the clock and its controls, reset, counts and the seeded credentials. */
export function overviewBody(c: Context<AppEnv>): Html {
  const world = c.get('store').world;
  const clock = c.get('clock');
  const now = clock.now().toISOString();
  const creds = credentialsOf(world.meta);
  const origin = publicOrigin(c.get('config'), c.req.url);
  const drift = c.get('drift');
  // The .env lines walk every connection (a quarter of a second on the large world): inline on the
  // default world, a link of their own on the large one.
  const dotenv = world.meta.size === 'default' ? dotenvLines(c) : null;
  const envCounts = Object.values(world.environments).map(
    (env) => [env, consumersOfEnvironment(world, env.accountid, env.envid).length] as const,
  );
  const counts: [string, number, string | null][] = [
    ['Consumers', envCounts.reduce((sum, [, n]) => sum + n, 0), '/console/consumers'],
    ['Connections', Object.keys(world.connections).length, null],
    ['Open link pages', Object.values(world.links).filter((l) => l.completed_on === null).length, null],
    ['Webhook instances', Object.keys(world.webhooks).length, '/console/webhooks'],
    ['Webhook deliveries', Object.keys(world.webhook_deliveries).length, '/console/webhooks'],
    ['Syncs', Object.keys(world.syncs).length, '/console/automation'],
    ['Flows', Object.keys(world.flows).length, '/console/automation'],
    ['Executions', Object.keys(world.executions).length, '/console/automation'],
    ['Armed failures', Object.keys(world.failure_plans).length, '/console/automation'],
    ['Issues', Object.keys(world.issues).length, null],
    ['Recorded requests', c.get('requests').size, '/console/requests'],
    ['Armed faults', c.get('faults').list().length, '/console/requests'],
  ];
  const keys: [string, string, string][] = [
    ['Sandbox key', creds.sandbox.clientId, creds.sandbox.clientSecret],
    ['Production key', creds.production.clientId, creds.production.clientSecret],
    [
      `Restricted key (consumer ${creds.restricted.consumerId})`,
      creds.restricted.clientId,
      creds.restricted.clientSecret,
    ],
  ];
  return html`
  <section aria-labelledby="world">
    <h2 id="world">World</h2>
    <p>Seed <code>${String(world.meta.seed)}</code>, ${world.meta.size} size. API at <code>${origin}</code>.</p>
    ${drift ? html`<p>Drift file: the sandbox follows production in ${String(drift.followed)} of its entries; ${String(drift.leftToProxy.length)} are read by the proxy only (<a href="/guides/fidelity">fidelity</a>).</p>` : ''}
    <table>
      <caption>Accounts and environments</caption>
      <thead><tr><th scope="col">Environment</th><th scope="col">Account id</th><th scope="col">Environment id</th><th scope="col">Consumers</th></tr></thead>
      <tbody>
      ${envCounts.map(
        ([env, n]) => html`<tr>
          <td><a href="/console/consumers?env=${env.envid}">${environmentLabel(world, env)}</a></td>
          <td>${code(env.accountid)}</td><td>${code(env.envid)}</td>
          <td>${n.toLocaleString('en')}</td>
        </tr>`,
      )}
      </tbody>
    </table>
  </section>

  ${clockSection(clock, now)}

  <section aria-labelledby="reset">
    <h2 id="reset">Reset</h2>
    <p>Puts the seeded world back as at start (seed ${String(world.meta.seed)}), and empties the request journal and the armed faults.</p>
    ${postButton('/console/reset', 'Reset the world', { confirm: 'Put the seeded world back? Every change is lost.' })}
  </section>

  <section aria-labelledby="counts">
    <h2 id="counts">Counts</h2>
    <dl class="counts">
      ${counts.map(
        ([label, n, href]) =>
          html`<div><dt>${href ? html`<a href="${href}">${label}</a>` : label}</dt><dd>${n.toLocaleString('en')}</dd></div>`,
      )}
    </dl>
  </section>

  <section aria-labelledby="credentials">
    <h2 id="credentials">Credentials</h2>
    <p>Exchange a key for a token with <code>POST /token</code> (<code>accountId</code>, <code>clientId</code>, <code>clientSecret</code>).
    Account id: <code id="account-id">${creds.accountId}</code> ${copyButton('account-id', 'Copy the account id')}</p>
    <table>
      <thead><tr><th scope="col">Key</th><th scope="col">clientId</th><th scope="col">clientSecret</th></tr></thead>
      <tbody>
      ${keys.map(
        ([label, id, secret], i) => html`<tr>
          <th scope="row">${label}</th>
          <td><code id="client-id-${String(i)}">${id}</code> ${copyButton(`client-id-${i}`, `Copy the clientId of the ${label}`)}</td>
          <td><code id="client-secret-${String(i)}">${secret}</code> ${copyButton(`client-secret-${i}`, `Copy the clientSecret of the ${label}`)}</td>
        </tr>`,
      )}
      </tbody>
    </table>
    <h3 id="dotenv-title">.env</h3>
    ${
      dotenv === null
        ? html`<p>The lines <code>unified-api-sandbox env</code> prints for this world: <a href="/console/env">/console/env</a> (plain text).</p>`
        : html`<p>The lines <code>unified-api-sandbox env</code> prints for this world (also at <a href="/console/env">/console/env</a>). ${copyButton('dotenv', 'Copy the .env block')}</p>
    <pre id="dotenv" aria-labelledby="dotenv-title">${dotenv}</pre>`
    }
  </section>`;
}

/** The CLI's `env` lines, from the same function, for this world and the origin of the request. */
export function dotenvLines(c: Context<AppEnv>): string {
  const origin = publicOrigin(c.get('config'), c.req.url);
  return formatDotenv(sandboxEnv(c.get('store').world, origin, c.get('catalogue')));
}

/** The clock form: advance by seconds, set an instant, or go back to the machine's time. */
export async function changeClock(c: Context<AppEnv>): Promise<string> {
  const form = await formOf(c);
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  let change: unknown;
  if (text('system')) {
    // What POST /__sandbox/clock {"mode":"system"} does: the machine's time, followed from then on.
    change = { mode: 'system' };
  } else if (text('advance_seconds')) {
    change = { advance_seconds: Number(text('advance_seconds')) };
  } else {
    change = { now: text('now') };
  }
  // The control endpoint's own check of its body, then its domain function.
  const parsed = ClockChange.safeParse(change);
  if (!parsed.success) {
    return `error=${encodeURIComponent(parsed.error.issues.map((i) => i.message).join('; '))}`;
  }
  try {
    const now = await moveClock(
      { clock: c.get('clock'), ticker: c.get('ticker'), store: c.get('store') },
      parsed.data as ClockMove,
    );
    return `notice=${encodeURIComponent(`The clock now reads ${now.toISOString()}`)}`;
  } catch (error) {
    if (error instanceof ApiError) return `error=${encodeURIComponent(error.detail || error.message)}`;
    if (error instanceof ValidationFailure) {
      return `error=${encodeURIComponent(error.issues.map((issue) => issue.msg).join('; '))}`;
    }
    throw error;
  }
}

/** The reset form: what POST /__sandbox/reset does. */
export async function reset(c: Context<AppEnv>): Promise<string> {
  await resetSandbox({
    store: c.get('store'),
    config: c.get('config'),
    requests: c.get('requests'),
    faults: c.get('faults'),
    clock: c.get('clock'),
  });
  return `notice=${encodeURIComponent('The seeded world is back')}`;
}

/** The sandbox clock: what it says, and the forms that move it. */
function clockSection(clock: Clock, now: string): Html {
  return html`<section aria-labelledby="clock">
    <h2 id="clock">Sandbox clock</h2>
    <p>It is <time datetime="${now}" class="big">${now}</time> (${clock.mode} clock: ${
      clock.mode === 'manual' ? 'it stands still until moved' : "the machine's time plus the moves"
    }). Token expiry, scheduled runs and webhook retries follow it.</p>
    <div class="row">
      <form method="post" action="/console/clock" class="inline">
        <input type="hidden" name="advance_seconds" value="3600">
        <button type="submit">+1 hour</button>
      </form>
      <form method="post" action="/console/clock" class="inline">
        <input type="hidden" name="advance_seconds" value="86400">
        <button type="submit">+1 day</button>
      </form>
      <form method="post" action="/console/clock" class="inline">
        <input type="hidden" name="advance_seconds" value="604800">
        <button type="submit">+1 week</button>
      </form>
      <form method="post" action="/console/clock" class="inline">
        <input type="hidden" name="system" value="1">
        <button type="submit">Back to system time</button>
      </form>
    </div>
    <form method="post" action="/console/clock" class="row">
      <label for="clock-now">Set the clock to (ISO date-time with offset)</label>
      <input id="clock-now" name="now" type="text" value="${now}" size="28" spellcheck="false">
      <button type="submit">Set</button>
    </form>
  </section>`;
}
