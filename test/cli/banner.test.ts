import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { serveWithBanner, stop } from './helpers.js';

/** The banner `serve` prints: every url in it is the sandbox's own, and answers. */

const running: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => stop(child)));
});

describe('the banner', () => {
  it('prints urls that answer: the API, the docs, the guides, the console, MCP, the control endpoints', async () => {
    const { banner, url } = await serveWithBanner(running, 'bin/unified-api-sandbox.ts', ['--port', '0']);
    const urls = [...new Set([...banner.matchAll(/https?:\/\/[^\s,)]+/g)].map(([link]) => link))];
    expect(urls).toEqual(
      expect.arrayContaining([url, `${url}/docs`, `${url}/guides`, `${url}/console`, `${url}/mcp`]),
    );
    for (const link of urls) {
      expect(link.startsWith(url), link).toBe(true);
      const res = await fetch(link);
      await res.arrayBuffer();
      if (link === `${url}/mcp`) {
        // Not a page: the MCP server, which asks for a token and says where to get one.
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
      } else {
        // A page (the API's root is the home page), or a control endpoint's answer.
        expect(res.status, link).toBe(200);
      }
    }
    const guides = await (await fetch(`${url}/guides`)).text();
    expect(guides).toContain('href="/guides/readiness"');
    expect((await fetch(`${url}/guides/readiness`)).status).toBe(200);
  });
});
