// Run by worlds-memory.test.ts in a process of its own (node --expose-gc): creates and deletes worlds
// through the server's routing, and prints the resident memory before and after, in bytes, as JSON.
import { createApp } from '../../src/app.js';

const count = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc as () => void;
const app = createApp({ seed: 2 });
const origin = 'http://127.0.0.1:4010';

async function cycle(): Promise<void> {
  const created = await app.fetch(
    new Request(`${origin}/__sandbox/worlds`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clock: '2026-01-15T09:00:00Z' }),
    }),
  );
  const world = (await created.json()) as { id: string; control_token: string };
  const clock = await app.fetch(
    new Request(`${origin}/__sandbox/clock`, { headers: { authorization: `Bearer ${world.control_token}` } }),
  );
  if (clock.status !== 200) throw new Error(`clock answered ${clock.status}`);
  const gone = await app.fetch(new Request(`${origin}/__sandbox/worlds/${world.id}`, { method: 'DELETE' }));
  if (gone.status !== 204) throw new Error(`delete answered ${gone.status}`);
}

const settle = async () => {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return process.memoryUsage().rss;
};

for (let i = 0; i < 300; i++) await cycle();
const before = await settle();
const started = performance.now();
for (let i = 0; i < count; i++) await cycle();
const ms = performance.now() - started;
const after = await settle();
process.stdout.write(JSON.stringify({ before, after, ms, live: app.services.worlds?.list().total }));
