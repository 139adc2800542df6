import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type CheckedLine, exchangeLine, type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { DEVIATIONS } from './deviations.js';
import { type EventStream, openStream } from './event-stream.js';
import { type ServiceDouble, serviceDouble } from './service-double.js';

/**
 * The drift console: a second listener of the proxy whose page shows the drift as it happens,
 * through Server-Sent Events. The service is the double with chosen deviations (its taxes paged at
 * 50 where the sandbox pages at 100); the client is fetch, the stream read with a reader.
 */

const SEED = 13;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;

let service: ServiceDouble;
let proxy: RunningProxy;
let lines: CheckedLine[];
const streams: EventStream[] = [];

beforeEach(async () => {
  lines = [];
  service = await serviceDouble(SEED, DEVIATIONS);
  proxy = await startProxy({
    upstream: service.origin,
    seed: SEED,
    console: { port: 0 },
    onChecked: (line) => lines.push(line),
  });
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await proxy.close();
  await service.close();
});

const consoleUrl = () => proxy.consoleUrl as string;

async function stream(): Promise<EventStream> {
  const opened = await openStream(`${consoleUrl()}/events`);
  streams.push(opened);
  return opened;
}

/** A client's token and a read of the taxes, through the proxy: the service pages them at 50. */
async function readTaxes(): Promise<void> {
  const token = (await (
    await fetch(`${proxy.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: ids.accountId, ...ids.sandbox }),
    })
  ).json()) as { access_token: string };
  const res = await fetch(`${proxy.url}/consumers/${INVOICING}/invoicing/taxes?page=1&size=100`, {
    headers: { authorization: `Bearer ${token.access_token}` },
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** A GET with the Host header a test chooses (fetch sets its own). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const withoutTime = ({ generated_at: _, ...rest }: Record<string, unknown>) => rest;

describe('the drift console', () => {
  it('is off unless asked, and listens apart from the forwarding listener, on loopback', async () => {
    const plain = await startProxy({ upstream: service.origin, seed: SEED });
    try {
      expect(plain.consoleUrl).toBeNull();
    } finally {
      await plain.close();
    }
    expect(consoleUrl()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(consoleUrl()).not.toBe(proxy.url);
    // The forwarding listener's paths all go to the upstream: its / is the service's.
    expect((await fetch(`${proxy.url}/events`)).headers.get('content-type')).not.toContain(
      'text/event-stream',
    );
  });

  it('serves its page with a policy that lets in its own inline script and style alone', async () => {
    const res = await fetch(`${consoleUrl()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    const html = await res.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(script).toContain('EventSource');
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    // One inline script, no asset from anywhere.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<(?:link|img|iframe)\b|\ssrc=/);
    // The report's three files.
    for (const file of ['/report.md', '/report.xml', '/report.json'])
      expect(html).toContain(`href="${file}"`);
    expect(html).toContain(service.origin);
  });

  it('streams each exchange once checked, with its findings and its terminal line, then the report', async () => {
    const live = await stream();
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await live.next('recent')).toEqual({ rows: expect.stringContaining('No exchange yet') });
    await readTaxes();
    const taxes = await live.next('exchange', (data) => data.path.endsWith('/invoicing/taxes'));
    expect(taxes).toMatchObject({ method: 'GET', status: 200, replayed: true, query: 'page=1&size=100' });
    expect(taxes.findings).toEqual([
      expect.objectContaining({
        kind: 'sandbox_pagination',
        severity: 'error',
        at: '$.size',
        service: '50',
        sandbox: '100',
        known: false,
      }),
    ]);
    // The same content as the terminal's line.
    const checked = lines.find((line) => line.exchange.id === taxes.id) as CheckedLine;
    expect(taxes.line).toBe(exchangeLine(checked));
    expect(taxes.row).toContain('sandbox_pagination');
    // The report follows: the summary by operation and the findings, rendered.
    const report = await live.next('report', (data) => data.findings.includes('sandbox_pagination'));
    expect(report.summary).toContain('invoicing_get_taxes');
    expect(report.exchanges).toBeGreaterThanOrEqual(2);
    // A page loaded now shows the same, and a new stream starts from the last exchanges.
    const page = await (await fetch(`${consoleUrl()}/`)).text();
    expect(page).toContain('sandbox_pagination');
    expect(page).toContain(`data-id="${taxes.id}"`);
    const later = await stream();
    expect((await later.next('recent')).rows).toContain(`data-id="${taxes.id}"`);
  });

  it('answers the report as JSON as proxy.report() gives it, and as Markdown and JUnit downloads', async () => {
    await readTaxes();
    const expected = await proxy.report();
    const res = await fetch(`${consoleUrl()}/report.json`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const json = (await res.json()) as Record<string, unknown>;
    expect(withoutTime(json)).toEqual(withoutTime(expected as unknown as Record<string, unknown>));
    expect(expected.findings.map((finding) => finding.kind)).toEqual(['sandbox_pagination']);
    const markdown = await fetch(`${consoleUrl()}/report.md`);
    expect(markdown.headers.get('content-disposition')).toBe('attachment; filename="drift.md"');
    expect(await markdown.text()).toContain('| error | sandbox_pagination |');
    const junit = await fetch(`${consoleUrl()}/report.xml`);
    expect(junit.headers.get('content-disposition')).toBe('attachment; filename="drift.xml"');
    expect(await junit.text()).toContain('<failure type="sandbox_pagination"');
  });

  it('serves 16 streams at once: the 17th is refused with 503 and says why, until one closes', async () => {
    const open: EventStream[] = [];
    for (let i = 0; i < 16; i += 1) {
      const live = await stream();
      expect(live.status).toBe(200);
      await live.next('recent');
      open.push(live);
    }
    const refused = await stream();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.text).toContain('serves 16 live streams at once');
    // One page closed: its place is free again (once the console has seen it go).
    open[0]?.close();
    let again = await stream();
    for (let tries = 0; again.status === 503 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await stream();
    }
    expect(again.status).toBe(200);
  });

  it('refuses a Host that is not a loopback name with 403, on every path (DNS rebinding)', async () => {
    for (const path of ['/', '/events', '/report.json', '/report.md']) {
      const foreign = await getWithHost(`${consoleUrl()}${path}`, 'attacker.example');
      expect(foreign.status).toBe(403);
      expect(foreign.body).toContain("not at 'attacker.example'");
    }
    const port = new URL(consoleUrl()).port;
    expect((await getWithHost(`${consoleUrl()}/report.json`, `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(`${consoleUrl()}/report.json`, `[::1]:${port}`)).status).toBe(200);
    expect(
      (await getWithHost(`${consoleUrl()}/report.json`, `127.0.0.1.attacker.example:${port}`)).status,
    ).toBe(403);
    // Nothing but GET.
    const post = await fetch(`${consoleUrl()}/report.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('closes its listener and ends its streams, saying so, when the proxy stops', async () => {
    const live = await stream();
    await live.next('recent');
    await proxy.close();
    expect(await live.next('end')).toEqual({});
    await live.ended;
    await expect(fetch(`${consoleUrl()}/`)).rejects.toThrow();
  });
});
