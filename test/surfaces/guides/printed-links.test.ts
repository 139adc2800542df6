import { describe, expect, it } from 'vitest';
import { docsOf, FINDING_KIND_NAMES } from '../../../src/control/report/index.js';
import { startSandbox } from '../../../src/server.js';
import { call, sandbox, sandboxToken, type TestSandbox, tokenFor } from '../../helpers.js';
import { LinkWalker, linksOf } from './links.js';

/**
 * Every link the sandbox prints resolves on the server that printed it, with no network: the
 * readiness report's (JSON, Markdown, JUnit), every console page's, the home page's and those of the
 * sandbox's own OpenAPI document. (The banner's: test/cli/banner.test.ts.)
 */

/** A client that gives the report much to say: a token per call, a write sent twice, an expired token used. */
async function sloppyClient(s: TestSandbox): Promise<void> {
  const invoicing = s.ids.verticalConsumers.INVOICING as string;
  for (const path of [
    `/consumers/${invoicing}/invoicing/invoices?page=1&size=10`,
    `/consumers/${s.ids.verticalConsumers.ACCOUNTING}/accounting/miscellaneous-operation`,
    '/consumers/not-a-path/of-the-api/at-all',
  ]) {
    await call(s.app, 'GET', path, { token: await sandboxToken(s) });
  }
  const token = await sandboxToken(s);
  for (let i = 0; i < 2; i += 1) {
    const res = await call(s.app, 'POST', `/consumers/${invoicing}/invoicing/contacts`, {
      token,
      body: { company_name: 'Twice SA', colour: 'blue' },
    });
    expect(res.status, res.text).toBeLessThan(300);
  }
  await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } });
  for (let i = 0; i < 2; i += 1)
    await call(s.app, 'GET', `/consumers/${invoicing}/invoicing/taxes`, { token });
}

/** A console path's shape: ids and numbers left out, and the names of its query. */
const shapeOf = (link: string): string => {
  const [path = '', query = ''] = link.split('#')[0]?.split('?') ?? [];
  const names = [...new URLSearchParams(query).keys()].sort().join('&');
  return `${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id').replace(/\d+/g, ':n')}?${names}`;
};

describe('the links the sandbox prints', () => {
  it('in the readiness report, JSON, Markdown and JUnit: each finding’s section of the readiness guide', async () => {
    const s = sandbox();
    await sloppyClient(s);
    const walker = new LinkWalker(s.app);
    const json = await call(s.app, 'GET', '/__sandbox/report');
    const findings = json.body.findings as { kind: string; docs: string }[];
    expect(new Set(findings.map((finding) => finding.kind)).size).toBeGreaterThanOrEqual(6);
    for (const finding of findings) {
      // Absolute: the report is read away from the server (a CI log, a file).
      expect(finding.docs).toBe(`http://localhost/guides/readiness#${finding.kind}`);
    }
    const markdown = (await call(s.app, 'GET', '/__sandbox/report?format=markdown')).text;
    const markdownLinks = [...markdown.matchAll(/\]\(<?([^)>]+)>?\)/g)].map(([, link]) => link as string);
    const junit = (await call(s.app, 'GET', '/__sandbox/report?format=junit&fail_on=warning')).text;
    const junitLinks = [...junit.matchAll(/See (\S+)/g)].map(([, link]) => link as string);
    expect(markdownLinks).toEqual(findings.map((finding) => finding.docs));
    expect(junitLinks).toEqual(findings.map((finding) => finding.docs));
    const problems = await Promise.all(
      [...findings.map((finding) => finding.docs), ...markdownLinks, ...junitLinks].map((link) =>
        walker.problem(link, '/__sandbox/report'),
      ),
    );
    // And the section of every kind, whether this client earned it or not.
    for (const kind of FINDING_KIND_NAMES) problems.push(await walker.problem(docsOf(kind), 'docsOf'));
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('in the report of startSandbox’s helper: the guide on the server it started', async () => {
    const running = await startSandbox({ port: 0 });
    try {
      const token = await tokenFor(running.app, {
        accountId: running.credentials.accountId,
        ...running.credentials.sandbox,
      });
      await call(running.app, 'GET', '/consumers/not-a-path/of-the-api/at-all', { token });
      const findings = (await running.report()).findings;
      const docs = findings.find((finding) => finding.kind === 'unknown_route')?.docs;
      expect(docs).toBe(`${running.url}/guides/readiness#unknown_route`);
      const page = await fetch(docs as string);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="unknown_route"');
    } finally {
      await running.close();
    }
  });

  it('on every console page, the home page and the API reference pages', async () => {
    const s = sandbox();
    await sloppyClient(s);
    const walker = new LinkWalker(s.app);
    // Every page of the console, one of each shape (a consumer, a request, a page of a list...).
    const shapes = new Set<string>();
    const queue = ['/', '/docs', '/docs/sandbox', '/console'];
    const problems: string[] = [];
    let pages = 0;
    while (queue.length > 0) {
      const page = queue.shift() as string;
      if (shapes.has(shapeOf(page))) continue;
      shapes.add(shapeOf(page));
      pages += 1;
      problems.push(...(await walker.problemsOf(page)));
      const { text, type } = await walker.page(page);
      if (!type.startsWith('text/html')) continue;
      for (const link of linksOf(text))
        if (link.startsWith('/console') && !link.includes('/assets/')) queue.push(link);
    }
    expect(problems).toEqual([]);
    // The walk met the console's pages (and what they link: consumers, requests, the report).
    expect(pages).toBeGreaterThan(12);
    for (const shape of [
      '/console/report?',
      '/console/consumers/:id?',
      '/console/requests/req_:n?',
      '/console/mcp-sessions?',
    ]) {
      expect(shapes).toContain(shape);
    }
    const report = (await walker.page('/console/report')).text;
    expect(report).toContain('href="/guides/readiness#token_not_reused"');
    expect((await walker.page('/')).text).toContain('href="/guides"');
  }, 120_000);

  it('in the descriptions of the sandbox’s own OpenAPI document, which /docs/sandbox shows', async () => {
    const s = sandbox();
    const walker = new LinkWalker(s.app);
    const document = (await walker.page('/__sandbox/openapi.json')).text;
    const links = [...document.matchAll(/\]\((\/[^)\s]+)\)/g)].map(([, link]) => link as string);
    expect(links.filter((link) => link.startsWith('/guides/')).length).toBeGreaterThanOrEqual(3);
    const problems = await Promise.all(links.map((link) => walker.problem(link, '/__sandbox/openapi.json')));
    expect(problems.filter(Boolean)).toEqual([]);
    // No path of the repository's files is left to read as a link.
    expect(document).not.toMatch(/docs\/[a-z-]+\.md/);
  });
});
