import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { launchForSuite, type SuiteBrowser, trackPage } from '../browser.js';
import { DEVIATIONS } from './deviations.js';
import { type ServiceDouble, serviceDouble } from './service-double.js';

/**
 * The drift console in Chromium: the page opens under its own Content-Security-Policy with no error,
 * and a finding appears on it, live, when the client reads through the proxy.
 */

const SEED = 13;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;

let suite: SuiteBrowser;
let service: ServiceDouble;
let proxy: RunningProxy;

beforeAll(async () => {
  suite = await launchForSuite();
});
afterAll(async () => {
  await suite.close();
});
beforeEach(async () => {
  service = await serviceDouble(SEED, DEVIATIONS);
  proxy = await startProxy({ upstream: service.origin, seed: SEED, console: { port: 0 } });
});
afterEach(async () => {
  await proxy.close();
  await service.close();
});

describe('the drift console in a browser', () => {
  it('shows a finding live, with no error under its policy, and says when the proxy stops', async () => {
    const page = await suite.browser().newPage();
    try {
      const track = trackPage(page);
      await page.goto(`${proxy.consoleUrl}/`);
      await expect.poll(() => page.textContent('#live-status')).toBe('Live');
      expect(await page.textContent('#findings')).toContain('No finding yet');

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
      await res.arrayBuffer();

      // The exchange's row, then the finding in the findings table, without a reload.
      await page.waitForSelector('#exchanges tr[data-id] >> text=sandbox_pagination', { timeout: 15_000 });
      await page.waitForSelector('#findings >> text=sandbox_pagination', { timeout: 15_000 });
      expect(await page.textContent('#summary')).toContain('invoicing_get_taxes');

      await proxy.close();
      await expect.poll(() => page.textContent('#live-status')).toContain('The proxy stopped');
      expect(track.consoleErrors).toEqual([]);
      expect(track.pageErrors).toEqual([]);
      expect(track.httpErrors.filter((line) => !line.includes('favicon'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
