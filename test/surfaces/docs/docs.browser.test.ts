import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../../src/app.js';
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
 * /docs in a real browser: Swagger UI must render the operations from the sandbox's own assets and
 * /openapi.json, with no request leaving the sandbox (it has to work with no network at all).
 */
const SCREENSHOT = '/tmp/docs.png';

describe('/docs in a browser', () => {
  let launched: SuiteBrowser;
  let server: Listening | undefined;
  let origin: string;
  let page: Page;
  let track: PageTrack;

  beforeAll(async () => {
    launched = await launchForSuite();
    if (!launched.started) return;
    server = await listenOn(createApp());
    origin = server.origin;
    page = await launched.started.newPage({ viewport: { width: 1280, height: 1000 } });
    track = trackPage(page);
  }, 120_000); // the first run unpacks the packaged browser (some 200 MB)

  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  it('renders the operations from the sandbox alone', async () => {
    launched.browser(); // throws why the browser did not start
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
    await expect(page.locator('.info .title').textContent()).resolves.toContain('Unified Integration API');

    await page.screenshot({ path: SCREENSHOT });

    // The page itself, its assets and the OpenAPI document, all from the sandbox.
    const { requests } = track;
    expect(requests).toContain(`${origin}/docs`);
    expect(requests).toContain(`${origin}/openapi.json`);
    expect(requests.some((url) => url.startsWith(`${origin}/docs/assets/swagger-ui-bundle.js`))).toBe(true);
    expectOnlyOrigin(track, origin, { elsewhere: ['data:'] });
  }, 200_000);
});

/**
 * "Try it out" without typing: the page exchanged the seeded key for a token and set a seeded
 * consumer as the example of consumer_id; the token is renewed once the sandbox clock has moved
 * past its expiry.
 */
describe('/docs in a browser: Try it out works at once', () => {
  let launched: SuiteBrowser;
  let server: Listening | undefined;
  let app: SandboxApp;
  let origin: string;

  beforeAll(async () => {
    launched = await launchForSuite();
    if (!launched.started) return;
    app = createApp();
    server = await listenOn(app);
    origin = server.origin;
  }, 120_000);

  afterAll(async () => {
    await launched?.close();
    await server?.close();
  });

  it('GET /consumers/{consumer_id}: Try it out, Execute, 200; again after the token expired', async () => {
    const page = await launched.browser().newPage({ viewport: { width: 1280, height: 1000 } });
    const track = trackPage(page);

    const consumer = seedDirectory(1).verticalConsumers.ACCOUNTING;
    expect((await page.goto(`${origin}/docs`))?.status()).toBe(200);
    await expect(page.locator('#sandbox-note').textContent()).resolves.toContain('seeded sandbox key');
    const tag = page.locator('.opblock-tag', { hasText: 'Consumers' }).first();
    await tag.waitFor({ state: 'visible', timeout: 80_000 });
    await tag.click();
    const operation = page.locator('#operations-Consumers-consumers_get_consumer');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const input = operation.locator('input[placeholder="consumer_id"]');
    await expect(input.inputValue()).resolves.toBe(consumer);

    const execute = async () => {
      await operation.locator('.execute').click();
      const status = operation.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ state: 'visible', timeout: 30_000 });
      const text = (await status.textContent())?.trim();
      // Clear the answer, so that the next Execute is waited for afresh.
      await operation.locator('.btn-clear').click();
      return text;
    };
    expect(await execute()).toBe('200');
    // "Authorize" shows the bearer scheme as authorized.
    await expect(page.locator('.auth-wrapper .authorize.locked').count()).resolves.toBe(1);

    // 31 minutes of the sandbox clock: the page's token has expired; the request is answered 401,
    // renewed, and sent again.
    app.services.clock.advance(31 * 60);
    expect(await execute()).toBe('200');

    const tokens = track.calls.filter((r) => r === `POST ${origin}/token`);
    expect(tokens).toHaveLength(2);
    const reads = track.calls.filter((r) => r === `GET ${origin}/consumers/${consumer}`);
    expect(reads).toHaveLength(3);
    // The one answer >= 400 is the 401 of the expired token, and the console errors allowed are
    // Chromium's own line for it.
    expectOnlyOrigin(track, origin, {
      httpErrors: [`${origin}/consumers/${consumer}: HTTP 401`],
      consoleErrors: /status of 401/,
    });
    await page.screenshot({ path: '/tmp/docs-try-it-out.png' });
    await page.close();
  }, 200_000);
});
