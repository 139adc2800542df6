import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';

/**
 * The sandbox's own pages and endpoints outside the OpenAPI document (the console, the link pages,
 * the MCP server and its OAuth endpoints, the docs' prefill, the guides): the fuzz suite walks the documented
 * operations only, so these get malformed queries, paths and bodies here. None may answer a 5xx.
 */

const JUNK = ['', '%', '..', 'a'.repeat(3000), '<script>', '-1', '1e309', '\u0000'];

const PAGES = [
  '/console',
  '/console/consumers',
  '/console/consumers/JUNK',
  '/console/requests',
  '/console/requests/rows',
  '/console/webhooks',
  '/console/automation',
  '/console/integrations',
  '/console/mcp-sessions',
  '/console/login',
  '/console/assets/logos/JUNK',
  '/oauth/authorize',
  '/link/JUNK',
  '/.well-known/oauth-protected-resource/mcp',
  '/docs/prefill.json',
  '/guides',
  '/guides/JUNK',
  '/guides/console/JUNK',
];
const PARAMS = ['page', 'search', 'after', 'status', 'path', 'next', 'client_id', 'redirect_uri'];

const FORMS = [
  '/console/clock',
  '/console/reset',
  '/console/login',
  '/console/requests/clear',
  '/console/webhooks/deliveries/JUNK/redeliver',
  '/oauth/register',
  '/oauth/authorize',
  '/oauth/token',
  '/mcp',
  '/link/JUNK',
];
const BODIES: [type: string, body: string][] = [
  ['application/json', '{'],
  ['application/json', 'null'],
  ['application/json', '{"redirect_uris":[{}],"grant_type":[]}'],
  ['application/x-www-form-urlencoded', 'a=%&advance_seconds=1e400&now=%00'],
  ['multipart/form-data; boundary=x', '--x\r\nbroken'],
  ['text/plain', 'x'],
  ['application/json', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize' })],
];

describe('the pages beyond the document under malformed input', () => {
  it('answer every query and path below 500', async () => {
    const app = createApp();
    const failures: string[] = [];
    for (const page of PAGES) {
      for (const junk of JUNK) {
        const path = page.replace('JUNK', encodeURIComponent(junk));
        for (const param of PARAMS) {
          const value = encodeURIComponent(junk);
          const res = await app.request(`${path}?${param}=${value}&${param}=${value}`);
          if (res.status >= 500) failures.push(`GET ${path}?${param}=… ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answer every malformed body below 500, and the world is the same after', async () => {
    const app = createApp();
    const before = JSON.stringify(app.services.store.world.consumers);
    const failures: string[] = [];
    for (const form of FORMS) {
      for (const junk of JUNK.slice(0, 4)) {
        const path = form.replace('JUNK', encodeURIComponent(junk));
        for (const [type, body] of BODIES) {
          const res = await app.request(path, { method: 'POST', headers: { 'content-type': type }, body });
          if (res.status >= 500) failures.push(`POST ${path} ${type} ${body.slice(0, 20)}: ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The console's reset did run (a form without fields is a valid reset): the world is the seeded one.
    expect(JSON.stringify(app.services.store.world.consumers)).toBe(before);
  }, 120_000);
});
