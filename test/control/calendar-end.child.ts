// Run by calendar.test.ts in a process of its own (a read that never returned would hold a test
// process forever): tries to take a world past the calendar's end by each way the control surface
// offers, then reads the lists whose day loops never ended there, and prints every status as JSON.
import { createApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';

const PAST_THE_END = '9999-12-31T00:00:00Z';
// Made near the end: a clock moves at most the span of living days after the world's origin.
const app = createApp({ seed: 7, clock: new Date('9999-12-01T00:00:00Z') });
const ids = seedDirectory(7);

const send = async (method: string, path: string, body?: unknown, token?: string): Promise<Response> => {
  const headers = new Headers();
  if (body !== undefined) headers.set('content-type', 'application/json');
  if (token) headers.set('authorization', `Bearer ${token}`);
  const init = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
  return app.fetch(new Request(`http://127.0.0.1:4010${path}`, init));
};

const out: Record<string, number> = {};
out.set = (await send('POST', '/__sandbox/clock', { now: PAST_THE_END })).status;
out.world = (await send('POST', '/__sandbox/worlds', { clock: PAST_THE_END })).status;
await send('POST', '/__sandbox/clock', { now: '9999-12-30T00:00:00Z' });
out.advance = (await send('POST', '/__sandbox/clock', { advance_seconds: 86_400 })).status;
const token = await send('POST', '/token', {
  accountId: ids.accountId,
  clientId: ids.sandbox.clientId,
  clientSecret: ids.sandbox.clientSecret,
});
const bearer = ((await token.json()) as { access_token: string }).access_token;
for (const [segment, env, list] of [
  ['pos', 'POS', '/orders'],
  ['commerce', 'ECOMMERCE', '/orders'],
  ['banking', 'BANKING', '/accounts'],
] as const) {
  const consumer = ids.verticalConsumers[env] as string;
  out[segment] = (await send('GET', `/consumers/${consumer}/${segment}${list}`, undefined, bearer)).status;
}
console.log(JSON.stringify(out));
