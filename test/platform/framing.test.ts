import { inspectRoutes } from 'hono/dev';
import { describe, expect, it } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { sandbox, sandboxToken } from '../helpers.js';

/**
 * No page of the sandbox can be framed by another site (clickjacking of the console's buttons, the
 * OAuth consent, a link page's form): every HTML answer, whatever route made it, says so with both
 * headers a browser reads. The routes are read from the app itself, so a page added later is walked
 * too.
 */

const BROWSER = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function expectNotFramable(res: Response, what: string): void {
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  const policy = res.headers.get('content-security-policy') ?? '';
  expect(policy, what).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
}

/** A link of a new connection: its page is a form. */
async function linkId(app: SandboxApp, token: string): Promise<string> {
  const consumer = await app.request('/consumers', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Framed' }),
  });
  const { consumerid } = (await consumer.json()) as { consumerid: string };
  const res = await app.request(`/consumers/${consumerid}/connections`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ integrationid: 9012 }),
  });
  return new URL(((await res.json()) as { url: string }).url).pathname.split('/')[2] as string;
}

/** A GET path of a route pattern, its parameters filled (with a real link id where one is named). */
function pathOf(pattern: string, values: Record<string, string>): string {
  return pattern
    .replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, (_m, name: string) => values[name] ?? 'x')
    .replace(/\*/g, 'x');
}

describe('no page can be framed', () => {
  it('every HTML answer of every GET route says so', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const values = { linkid: await linkId(s.app, token), file: '1000.png' };
    const patterns = [
      ...new Set(
        inspectRoutes(s.app)
          .filter((route) => !route.isMiddleware && (route.method === 'GET' || route.method === 'ALL'))
          .map((route) => route.path),
      ),
    ];
    const html: string[] = [];
    for (const pattern of patterns) {
      const path = pathOf(pattern, values);
      const res = await s.app.request(path, { headers: BROWSER });
      await res.arrayBuffer();
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) continue;
      html.push(pattern);
      expectNotFramable(res, `GET ${path} (${res.status})`);
    }
    // The walk met the pages a browser shows: not a test that passes by finding none.
    expect(html).toEqual(
      expect.arrayContaining([
        '/',
        '/docs',
        '/docs/sandbox',
        '/guides',
        '/console',
        '/console/consumers',
        '/oauth/authorize',
        '/link/:linkid',
      ]),
    );
  });

  it('nor can the pages answered to a form, an error, or a world of the server', async () => {
    const s = sandbox();
    const answers: [string, Response][] = [
      ['a console POST without its form token', await s.app.request('/console/reset', { method: 'POST' })],
      [
        'the sign-in of an unknown OAuth client',
        await s.app.request('/oauth/authorize', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'client_id=nobody',
        }),
      ],
      [
        'a link page that does not exist',
        await s.app.request('/link/00000000-0000-4000-8000-000000000000', { headers: BROWSER }),
      ],
    ];
    const guarded = sandbox({ adminToken: 'framing-admin' });
    answers.push(['the console login', await guarded.app.request('/console')]);
    const created = await s.app.request('/__sandbox/worlds', { method: 'POST' });
    const world = (await created.json()) as { id: string };
    answers.push(['the console of a world', await s.app.request(`/console?world=${world.id}`)]);
    for (const [what, res] of answers) {
      expect(res.headers.get('content-type') ?? '', what).toMatch(/^text\/html/);
      expectNotFramable(res, what);
    }
  });

  it('leaves the API alone: a JSON answer carries neither header', async () => {
    const s = sandbox();
    const res = await s.app.request('/consumers', {
      headers: { authorization: `Bearer ${await sandboxToken(s)}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});
