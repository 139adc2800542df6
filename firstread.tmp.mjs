const m = await import('./dist/index.mjs');
const creds = m.seedCredentials(1);
const dir = m.seedDirectory(1);
async function once() {
  const app = m.createApp({ seed: 1 });
  const t = await app.request('/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }) });
  const auth = { authorization: `Bearer ${(await t.json()).access_token}` };
  const s = performance.now();
  const r = await app.request(`/consumers/${dir.verticalConsumers.POS}/pos/orders`, { headers: auth });
  await r.text();
  return performance.now() - s;
}
const times = [];
for (let i = 0; i < Number(process.argv[2] ?? 15); i++) times.push(await once());
console.log(times.map((t) => t.toFixed(1)).join(' '));
