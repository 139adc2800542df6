import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { surfaceOf } from '../../../src/platform/request-policy.js';
import { Anchors } from '../../../src/surfaces/guides/anchors.js';
import { renderGuide, servedHref } from '../../../src/surfaces/guides/render.js';
import { call, expectError, sandbox } from '../../helpers.js';
import { LinkWalker, linksOf } from './links.js';

/**
 * /guides: the package's docs/*.md, README.md and CHANGELOG.md rendered as pages of the sandbox,
 * linked to one another as on GitHub, so that every link the sandbox prints resolves offline.
 */

const DOCS = new URL('../../../docs/', import.meta.url);
const GUIDE_NAMES = readdirSync(DOCS)
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.slice(0, -3));

describe('the guides served', () => {
  it('lists every guide of docs/, the README and the changelog on the index', async () => {
    const s = sandbox();
    const index = await s.app.request('/guides');
    expect(index.status).toBe(200);
    const linked = new Set(
      linksOf(await index.text()).flatMap((href) => /^\/guides\/([a-z0-9-]+)$/.exec(href)?.[1] ?? []),
    );
    expect([...linked].sort()).toEqual([...GUIDE_NAMES, 'changelog', 'readme'].sort());
  });

  it('resolves every link and anchor of every guide: other guides, sections, pictures, the sandbox’s pages', async () => {
    const s = sandbox();
    const walker = new LinkWalker(s.app);
    const problems: string[] = [];
    let links = 0;
    for (const page of [
      '/guides',
      ...[...GUIDE_NAMES, 'readme', 'changelog'].map((name) => `/guides/${name}`),
    ]) {
      problems.push(...(await walker.problemsOf(page)));
      links += linksOf((await walker.page(page)).text).length;
    }
    expect(problems).toEqual([]);
    // Not a walk that passes by finding nothing.
    expect(links).toBeGreaterThan(500);
  }, 60_000);

  it('writes the links between guides as paths of the server, with their anchors', async () => {
    const s = sandbox();
    const control = await (await s.app.request('/guides/control')).text();
    // docs/control.md links [beyond loopback](../README.md#security) and the security guide.
    expect(control).toContain('href="/guides/readme#security"');
    expect(control).toMatch(/href="\/guides\/security(#[a-z0-9-]+)?"/);
    const readme = await (await s.app.request('/guides/readme')).text();
    expect(readme).toContain('href="/guides/control#worlds-over-http"');
    expect(readme).toContain('href="/guides/changelog"');
    const readiness = await (await s.app.request('/guides/readiness')).text();
    expect(readiness).toContain('id="token_not_reused"');
    const console = await (await s.app.request('/guides/console')).text();
    expect(console).toContain('src="/guides/console/overview.png"');
    const picture = await s.app.request('/guides/console/overview.png');
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await picture.arrayBuffer()).subarray(1, 4)).toEqual(
      new TextEncoder().encode('PNG'),
    );
  });

  it('answers 404 for what the package does not hold, as for any unknown path', async () => {
    const s = sandbox();
    for (const path of [
      '/guides/nothing',
      '/guides/readiness.md',
      '/guides/..%2Fpackage.json',
      '/guides/console/nothing.png',
      '/guides/console/..%2F..%2Fpackage.json',
      '/guides/fixtures.md/x',
      '/guides/a/b/c',
    ]) {
      const res = await call(s.app, 'GET', path);
      expectError(res, errors.notFound());
    }
  });

  it('is a page: anyone reaches it, no other site reads it, no page frames it, the journal keeps none of it', async () => {
    const s = sandbox({ adminToken: 'guides-admin' });
    expect(surfaceOf('/guides')).toBe('pages');
    expect(surfaceOf('/guides/readiness')).toBe('pages');
    const res = await s.app.request('/guides/readiness', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    const journal = await call(s.app, 'GET', '/__sandbox/requests', {
      headers: { authorization: 'Bearer guides-admin' },
    });
    expect(journal.status).toBe(200);
    expect(journal.body.items ?? journal.body).toEqual([]);
  });
});

describe('rendering a guide', () => {
  const served = (path: string) =>
    ({ 'docs/control.md': '/guides/control', 'README.md': '/guides/readme' })[path];

  it.each([
    ['control.md#worlds-over-http', 'docs/readiness.md', '/guides/control#worlds-over-http'],
    ['../README.md#security', 'docs/control.md', '/guides/readme#security'],
    ['docs/control.md', 'README.md', '/guides/control'],
    ['./control.md', 'docs/x.md', '/guides/control'],
    ['#a-section', 'docs/x.md', '#a-section'],
    ['https://example.com/x.md', 'docs/x.md', 'https://example.com/x.md'],
    ['/docs', 'docs/x.md', '/docs'],
    ['missing.md', 'docs/x.md', 'missing.md'],
  ])('links %s of %s to %s', (href, from, expected) => {
    expect(servedHref(href, from, served)).toBe(expected);
  });

  it('shows raw HTML as text, never as markup, and no link of a scheme a page should not follow', () => {
    const { html } = renderGuide(
      '# Title\n\n<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and [a link](javascript:alert(1)).\n',
      'docs/x.md',
      () => undefined,
    );
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('a link');
  });

  it('takes its title from its first heading', () => {
    expect(renderGuide('Intro\n\n# The `env` command\n\n# Second', 'docs/x.md', () => undefined).title).toBe(
      'The env command',
    );
  });
});

describe('the anchors of headings, as GitHub gives them', () => {
  it.each([
    ['Worlds over HTTP', 'worlds-over-http'],
    ['token_not_reused', 'token_not_reused'],
    ['What moves: the Point of Sale', 'what-moves-the-point-of-sale'],
    ['Overview (/console)', 'overview-console'],
    ['A consumer (/console/consumers/{consumer_id})', 'a-consumer-consoleconsumersconsumer_id'],
    ["What's new? It's 2.0!", 'whats-new-its-20'],
    ['Déjà vu', 'déjà-vu'],
    ['warning: A (`accepted_only_here`)', 'warning-a-accepted_only_here'],
  ])('%s: #%s', (text, anchor) => {
    expect(new Anchors().next(text.replaceAll('`', ''))).toBe(anchor);
  });

  it('numbers a repeated heading', () => {
    const anchors = new Anchors();
    expect(['Example', 'Example', 'Example-1', 'Example'].map((text) => anchors.next(text))).toEqual([
      'example',
      'example-1',
      'example-1-1',
      'example-2',
    ]);
  });
});
