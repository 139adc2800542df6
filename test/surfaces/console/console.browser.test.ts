import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { seedDirectory } from '../../../src/control/seeded-world.js';
import {
  expectOnlyOrigin,
  launchForSuite,
  type PageTrack,
  type SuiteBrowser,
  trackPage,
} from '../../browser.js';
import { type Listening, listenOn } from '../../helpers.js';

/**
 * The console in a real browser, against a real port: every page loads from the sandbox alone with
 * no error, the buttons change what the API answers, the Requests page shows new requests without a
 * reload, a redeliver reaches a local receiver, and the controls are reachable with the keyboard.
 * The screenshots of docs/console.md are taken here: into docs/console/ by `npm run screenshots`
 * (UPDATE_SCREENSHOTS=1), else into the temporary folder, so that a test run changes no file of the
 * repository.
 */

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? fileURLToPath(new URL('../../../docs/console/', import.meta.url))
  : join(tmpdir(), 'unified-api-sandbox-console-screenshots/');
const ids = seedDirectory(1);

/** A local webhook receiver that keeps the bodies it gets. */
class Receiver {
  readonly bodies: string[] = [];
  #waiters: (() => void)[] = [];
  readonly #server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.bodies.push(Buffer.concat(chunks).toString('utf8'));
      for (const waiter of this.#waiters.splice(0)) waiter();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.bodies.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver got ${this.bodies.length} of ${count} bodies`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

describe('/console in a browser', () => {
  let launched: SuiteBrowser;
  let server: Listening | undefined;
  let origin: string;
  let page: Page;
  let track: PageTrack;
  const receiver = new Receiver();

  /** The API as the code under test calls it: over HTTP, with a token of POST /token. */
  async function api(method: string, path: string, body?: unknown) {
    const tokenRes = await fetch(`${origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountId: ids.accountId, ...ids.sandbox }),
    });
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${access_token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  }

  async function clockNow(): Promise<number> {
    const res = await fetch(`${origin}/__sandbox/clock`);
    return Date.parse(((await res.json()) as { now: string }).now);
  }

  /** A consumer with an active invoicing connection, whose creation the webhook instance hears of. */
  async function deliveryToReceiver(): Promise<void> {
    const seen = receiver.bodies.length;
    const existing = await api('GET', '/webhooks');
    const subscribed = (existing.body as unknown as { url: string }[]).some((w) => w.url === receiver.url);
    if (!subscribed) {
      const hook = await api('POST', '/webhooks', { event: 'account.connection.created', url: receiver.url });
      expect(hook.status).toBe(200);
    }
    const consumer = await api('POST', '/consumers', { name: 'Console webhook demo' });
    expect(consumer.status).toBe(200);
    const connection = await api('POST', `/consumers/${consumer.body?.consumerid}/connections`, {
      integrationid: 7010,
      credentials: [{ key: 'api_token', value: 't-1' }],
    });
    expect(connection.status).toBe(200);
    await receiver.waitFor(seen + 1);
  }

  async function open(path: string): Promise<void> {
    const res = await page.goto(`${origin}${path}`);
    expect(res?.status(), path).toBe(200);
  }

  function expectClean(): void {
    // A navigation started while the live script's request was in flight cancels it: not a failure.
    expectOnlyOrigin(track, origin, { elsewhere: ['data:'], failedWith: ['net::ERR_ABORTED'] });
  }

  beforeAll(async () => {
    launched = await launchForSuite();
    if (!launched.started) return;
    await receiver.start();
    server = await listenOn(createApp());
    origin = server.origin;
    page = await launched.started.newPage({ viewport: { width: 1280, height: 900 } });
    track = trackPage(page);
    page.on('dialog', (dialog) => void dialog.accept());
  }, 120_000);

  beforeEach(() => {
    launched.browser(); // throws why the browser did not start
    track.clear();
  });

  afterAll(async () => {
    await launched?.close();
    await receiver.close();
    await server?.close();
  });

  it('loads every page from the sandbox alone, without an error, and takes the screenshots', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await deliveryToReceiver();
    await api('GET', '/consumers?search=demo');
    // An agent's MCP session, for the MCP sessions page: an MCP token, then initialize.
    const consumer = ids.verticalConsumers.ACCOUNTING as string;
    const minted = await api('POST', '/mcp-token', {
      accountId: ids.accountId,
      ...ids.sandbox,
      consumerId: consumer,
      scopes: ['accounting.read'],
    });
    const opened = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${minted.body?.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'demo-agent', version: '1' },
        },
      }),
    });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') as string;
    const shots: [string, string, string][] = [
      ['overview', '/console', 'Sandbox clock'],
      ['consumers', '/console/consumers', 'Internal reference'],
      ['consumer', `/console/consumers/${ids.verticalConsumers.INVOICING}`, 'Vertical data'],
      ['integrations', '/console/integrations', 'Operation coverage'],
      ['webhooks', '/console/webhooks', 'account.connection.created'],
      ['requests', '/console/requests', '/consumers'],
      ['automation', '/console/automation', 'Executions'],
      ['mcp-sessions', '/console/mcp-sessions', sessionId],
    ];
    for (const [name, path, text] of shots) {
      await open(path);
      await expect(page.locator('main').textContent()).resolves.toContain(text);
      await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
    }
    // The script ran: the copy buttons it shows are visible.
    await open('/console');
    await expect(page.getByRole('button', { name: 'Copy the .env block' }).isVisible()).resolves.toBe(true);
    expect(track.requests).toContain(`${origin}/console/assets/console.js`);
    expect(track.requests).toContain(`${origin}/console/assets/console.css`);
    expectClean();
  }, 120_000);

  it('moves the clock and resets the world with its buttons, as the API then answers', async () => {
    await open('/console');
    const before = await clockNow();
    await Promise.all([page.waitForURL(/notice=/), page.getByRole('button', { name: '+1 hour' }).click()]);
    expect(await clockNow()).toBe(before + 3600_000);
    await expect(page.locator('[role=status]').first().textContent()).resolves.toContain(
      'The clock now reads',
    );

    const id = ids.verticalConsumers.ACCOUNTING as string;
    expect((await api('DELETE', `/consumers/${id}`)).status).toBe(204);
    expect((await api('GET', `/consumers/${id}`)).status).toBe(404);
    await Promise.all([
      page.waitForURL(/notice=/),
      page.getByRole('button', { name: 'Reset the world' }).click(),
    ]);
    expect((await api('GET', `/consumers/${id}`)).status).toBe(200);
    expectClean();
  }, 60_000);

  it('shows a request the API answers on the Requests page without a reload', async () => {
    await open('/console/requests');
    await page.evaluate('window.stayed = true');
    const marker = `live-${Date.now()}`;
    expect((await api('GET', `/consumers?search=${marker}`)).status).toBe(200);
    await page.locator('#requests tbody code', { hasText: marker }).waitFor({ timeout: 10_000 });
    // Still the same document: the row came in through the script.
    expect(await page.evaluate('window.stayed')).toBe(true);
    // Its bodies open from the row.
    const row = page.locator('#requests tbody tr', { hasText: marker });
    await row.locator('summary').click();
    await expect(row.locator('details').textContent()).resolves.toContain('Response body');
    expectClean();
  }, 60_000);

  it('redelivers a delivery to a local receiver', async () => {
    await deliveryToReceiver();
    const received = receiver.bodies.length;
    const original = receiver.bodies.at(-1) as string;
    await open('/console/webhooks');
    const redeliver = page.getByRole('button', { name: /^Redeliver account\.connection\.created/ }).first();
    await Promise.all([page.waitForURL(/notice=/), redeliver.click()]);
    await receiver.waitFor(received + 1);
    expect(receiver.bodies.at(-1)).toBe(original);
    await expect(page.locator('[role=status]').first().textContent()).resolves.toContain('answered 200');
    expectClean();
  }, 60_000);

  it('reaches the main controls with Tab, each with an accessible name', async () => {
    await open('/console');
    const reached = new Set<string>();
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press('Tab');
      // The focused control's name (aria-label, its label, or its text); null past the last one.
      const name = await page.evaluate<string | null>(`(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const label = el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent ?? '';
        return label.trim().replace(/\\s+/g, ' ');
      })()`);
      if (name === null) break; // past the last control of the page
      expect(name, `focus stop ${i}`).not.toBe('');
      reached.add(name);
    }
    for (const control of [
      'Consumers',
      'Requests',
      '+1 hour',
      '+1 day',
      'Back to system time',
      'Set',
      'Reset the world',
    ]) {
      expect([...reached], control).toContain(control);
    }
    expect([...reached]).toContain('Set the clock to (ISO date-time with offset)');
    // The same names as the accessibility tree computes them.
    await expect(page.getByRole('textbox', { name: 'Set the clock to' }).count()).resolves.toBe(1);
    await expect(page.getByRole('navigation', { name: 'Console' }).count()).resolves.toBe(1);

    await open('/console/consumers');
    await expect(
      page.getByRole('searchbox', { name: /Name, e-mail or internal reference/ }).count(),
    ).resolves.toBe(1);
    await expect(page.getByRole('combobox', { name: 'Environment' }).count()).resolves.toBe(1);
    expectClean();
  }, 60_000);
});
