import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { launchBrowser } from './browser.js';

/**
 * /docs in a real browser: Swagger UI must render the operations from the sandbox's own assets and
 * /openapi.json, with no request leaving the sandbox (it has to work with no network at all).
 */
const SCREENSHOT = '/tmp/docs.png';

describe('/docs in a browser', () => {
  let server: ServerType | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;
  const requests: string[] = [];
  const failures: string[] = [];
  const pageErrors: string[] = [];

  let launchError: unknown;

  beforeAll(async () => {
    // A browser that cannot start fails the test below with the reason (a failure in a hook would
    // only show the test as skipped).
    try {
      ({ browser } = await launchBrowser());
    } catch (error) {
      launchError = error;
      return;
    }
    const app = createApp();
    origin = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('request', (request) => requests.push(request.url()));
    page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.url()}: HTTP ${response.status()}`);
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 120_000); // the first run unpacks the packaged browser (some 200 MB)

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  });

  it('renders the operations from the sandbox alone', async () => {
    if (!browser) throw new Error(`The browser did not start: ${launchError}`);
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);

    // Tags start collapsed (the document has some two hundred operations): open one.
    const tag = page.locator('.opblock-tag', { hasText: 'Consumers' }).first();
    await tag.waitFor({ state: 'visible', timeout: 80_000 });
    await tag.click();
    const consumers = page.locator('.opblock', { hasText: '/consumers' }).first();
    await consumers.waitFor({ state: 'visible', timeout: 30_000 });
    // A later tag, opened the same way.
    const webhooks = page.locator('.opblock-tag', { hasText: /^Webhooks/ }).first();
    await webhooks.scrollIntoViewIfNeeded({ timeout: 30_000 });
    await webhooks.click();
    await page
      .locator('.opblock', { hasText: '/webhooks/list' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(3);
    await expect(page.locator('.info .title').textContent()).resolves.toContain('sandbox');

    await page.screenshot({ path: SCREENSHOT });

    // The page itself, its assets and the OpenAPI document, all from the sandbox.
    expect(requests).toContain(`${origin}/docs`);
    expect(requests).toContain(`${origin}/openapi.json`);
    expect(requests.some((url) => url.startsWith(`${origin}/docs/assets/swagger-ui-bundle.js`))).toBe(true);
    const elsewhere = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'));
    expect(elsewhere).toEqual([]);
    expect(failures).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 200_000);
});
