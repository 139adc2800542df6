import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallOptions, call, sandbox, tokenFor } from '../helpers.js';

/**
 * The readiness report on the webhook side: a handler that refuses a duplicated delivery, one that
 * fails, one too slow to answer, and instances without a signing secret; a handler that acknowledges
 * every delivery of an instance with a secret gets none of these.
 */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A receiver: /dedupe answers 409 to a body it has seen, /fail 500, /slow after a second, else 200. */
async function receiver(): Promise<string> {
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/fail') res.writeHead(500).end();
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 1000);
      else if (req.url === '/dedupe' && seen.has(body)) res.writeHead(409).end();
      else {
        seen.add(body);
        res.writeHead(200).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function world() {
  const s = sandbox({ webhookTimeoutMs: 300 });
  const token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  const api = (method: string, path: string, options: CallOptions = {}) =>
    call(s.app, method, path, { token, ...options });
  const consumer = await api('POST', '/consumers', { body: { name: 'Report webhooks' } });
  expect(consumer.status).toBe(200);
  return {
    s,
    api,
    async subscribe(url: string, extra: Record<string, unknown> = {}) {
      const res = await api('POST', '/webhooks', {
        body: { event: 'account.connection.created', url, ...extra },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.webhookid as string;
    },
    async connect() {
      const res = await api('POST', `/consumers/${consumer.body.consumerid}/connections`, {
        body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
      });
      expect(res.status, res.text).toBe(200);
      await s.app.services.ticker.idle();
    },
    async report() {
      const res = await call(s.app, 'GET', '/__sandbox/report');
      expect(res.status).toBe(200);
      return res.body as { findings: { kind: string; detail: string; deliveries: string[] }[] };
    },
  };
}

describe('the readiness report of webhook handlers', () => {
  it('names a refused duplicate, a failing and a slow handler, and instances without a secret', async () => {
    const w = await world();
    const origin = await receiver();
    const dedupe = await w.subscribe(`${origin}/dedupe`, { signingsecret: 's' });
    await w.subscribe(`${origin}/fail`, { signingsecret: 's' });
    await w.subscribe(`${origin}/slow`, { signingsecret: 's' });
    const open = await w.subscribe(`${origin}/open`);
    const fault = await call(w.s.app, 'POST', '/__sandbox/faults', {
      body: { match: { webhook: { webhook_id: dedupe } }, effect: { duplicate: 1 }, times: 1 },
    });
    expect(fault.status, fault.text).toBe(200);
    await w.connect();
    const report = await w.report();
    const byKind = (kind: string) => report.findings.filter((f) => f.kind === kind);
    expect(byKind('webhook_misbehaviour_refused')).toHaveLength(1);
    expect(byKind('webhook_misbehaviour_refused')[0]?.detail).toContain('duplicate');
    expect(byKind('webhook_misbehaviour_refused')[0]?.detail).toContain('HTTP 409');
    expect(byKind('webhook_delivery_failed')).toHaveLength(1);
    expect(byKind('webhook_delivery_failed')[0]?.detail).toContain('/fail');
    expect(byKind('webhook_slow')).toHaveLength(1);
    expect(byKind('webhook_slow')[0]?.detail).toContain('/slow');
    expect(byKind('webhook_without_secret').map((f) => f.detail)).toEqual([expect.stringContaining(open)]);
    for (const finding of [...byKind('webhook_delivery_failed'), ...byKind('webhook_slow')]) {
      expect(finding.deliveries.length).toBeGreaterThan(0);
    }
  });

  it('has none of them for a handler that acknowledges every delivery, duplicates included', async () => {
    const w = await world();
    const origin = await receiver();
    const ok = await w.subscribe(`${origin}/ok`, { signingsecret: 's' });
    const fault = await call(w.s.app, 'POST', '/__sandbox/faults', {
      body: { match: { webhook: { webhook_id: ok } }, effect: { duplicate: 2 }, times: 1 },
    });
    expect(fault.status, fault.text).toBe(200);
    await w.connect();
    const report = await w.report();
    expect(report.findings.filter((f) => f.kind.startsWith('webhook_'))).toEqual([]);
  });
});
