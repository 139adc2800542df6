import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../../src/lib/errors.js';
import { ConnectionItem, LinkItem } from '../../../src/modules/connections/connections.schemas.js';
import {
  expectOnlyOrigin,
  launchForSuite,
  type PageTrack,
  type SuiteBrowser,
  trackPage,
} from '../../browser.js';
import { type Listening, listenOn, sandbox, type TestSandbox } from '../../helpers.js';

/**
 * The page of a connection link in a real browser: the end user sees the integration's logo, fills
 * the credentials and the mandatory post connection, and the connection is active with them; the
 * used link then shows the service's message as a page. Nothing leaves the sandbox.
 */
const SCREENSHOT = '/tmp/link.png';

describe('a connection link in a browser', () => {
  let launched: SuiteBrowser;
  let server: Listening | undefined;
  let s: TestSandbox;
  let page: Page;
  let track: PageTrack;
  let origin: string;

  beforeAll(async () => {
    launched = await launchForSuite();
    if (!launched.started) return;
    s = sandbox();
    server = await listenOn(s.app);
    origin = server.origin;
    page = await launched.started.newPage();
    track = trackPage(page);
  }, 120_000);

  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  /** One call of the API over the socket, as a client of the sandbox makes it. */
  async function api(method: string, path: string, token?: string, body?: unknown) {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBe(200);
    return JSON.parse(text);
  }

  it('fills the credentials and the journal, connects, then shows the used link as a page', async () => {
    launched.browser(); // throws why the browser did not start
    const { access_token: token } = await api('POST', '/token', undefined, {
      accountId: s.ids.accountId,
      ...s.ids.sandbox,
    });
    const { consumerid } = await api('POST', '/consumers', token, { name: 'Brasserie du Port' });
    const { url } = LinkItem.parse(
      await api('POST', `/consumers/${consumerid}/connections`, token, { integrationid: 1000 }),
    );
    expect(url.startsWith(`${origin}/link/`)).toBe(true);

    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connect Odoo');
    // The logo loaded: an image the browser decoded, from the sandbox.
    const logo = page.locator('img.logo');
    await expect(logo.getAttribute('src')).resolves.toBe(`${origin}/integrations/1000/logo.png`);
    // (Code run in the page is a string: the project's TypeScript has no DOM types.)
    await page.waitForFunction(
      "(() => { const img = document.querySelector('img.logo'); return !!img && img.complete && img.naturalWidth > 0; })()",
    );
    await expect(logo.evaluate((img: { naturalWidth: number }) => img.naturalWidth)).resolves.toBe(64);

    await page.locator('[name="credential:1000:api_key"]').fill('browser-key');
    await page.locator('[name="credential:1000:company_code"]').fill('BRP');
    const journal = page.locator('[name="post_connection:1000:default_journal"]');
    await expect(journal.locator('option', { hasText: 'VEN Sales' }).count()).resolves.toBe(1);
    await journal.selectOption({ label: 'VEN Sales' });
    const chosen = await journal.inputValue();
    expect(chosen).toMatch(/^[0-9a-f-]{36}$/);
    await page.screenshot({ path: SCREENSHOT });

    const [submitted] = await Promise.all([
      page.waitForNavigation(),
      page.getByRole('button', { name: 'Connect' }).click(),
    ]);
    expect(submitted?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connected');

    // Through the API: the connection is active. GET connections does not carry post connection
    // values (ConnectionItem has no such field): the world holds them.
    const listed = (await api('GET', `/consumers/${consumerid}/connections`, token)) as unknown[];
    const connections = listed.map((item) => ConnectionItem.parse(item));
    expect(connections).toMatchObject([{ integrationid: 1000, status: 'active' }]);
    const stored = s.app.services.store.world.connections[connections[0]?.connectionid ?? ''];
    expect(stored?.post_connections).toEqual({ default_journal: chosen });
    expect(stored?.credentials).toMatchObject({ api_key: 'browser-key', company_code: 'BRP' });
    // The journal chosen is one the accounting API lists for the connection.
    const journals = await api('GET', `/consumers/${consumerid}/accounting/journals`, token);
    expect((journals.items as { id: string; name: string }[]).find((j) => j.id === chosen)?.name).toBe(
      'Sales',
    );

    // The used link, opened again: a page with the service's message and status.
    const used = await page.goto(url);
    expect(used?.status()).toBe(404);
    expect(used?.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(messages.linkNotFound);

    expect(track.requests).toContain(`${origin}/integrations/1000/logo.png`);
    // The one answer >= 400 is the used link's 404, and the console errors allowed are Chromium's own
    // line for it.
    expectOnlyOrigin(track, origin, { httpErrors: [`${url}: HTTP 404`], consoleErrors: /status of 404/ });
  }, 200_000);
});
