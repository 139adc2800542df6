import { readFileSync } from 'node:fs';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import { GUIDES_PATH, guidePath } from '../../lib/guides.js';
import { escapeHtml, htmlDocument } from '../../lib/html.js';
import type { AppEnv } from '../../platform/context.js';
import { findGuides, type GuideLibrary, servedPathOf } from './source.js';

/**
 * The guides at /guides: the package's docs/*.md, README.md and CHANGELOG.md rendered to HTML in the
 * sandbox's page shell (lib/html.ts), and the pictures they show; an index at /guides. Every link the
 * sandbox prints (report findings, console pages, the banner, the home page) points here, so it
 * resolves for whoever installed the package, with no network.
 *
 * Who may reach it: anyone who reaches the server, as /docs (a page: no CORS, no framing, never in
 * the request journal). What a request costs: one lookup in a table of the docs' files; each page is
 * rendered once per process, its first time, so the work is bounded by the docs' size. The pages
 * are a function of the package's files alone: the same for every world and app of the process.
 */

/** The guides of this process, found at their first request. */
let library: GuideLibrary | undefined;
const guides = (): GuideLibrary => (library ??= findGuides());

/** Pages rendered in this process, by guide name ('' for the index), and the pictures read. */
const pages = new Map<string, string>();
const pictures = new Map<string, Buffer>();

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;color:#1f2328;margin:0}
header{border-bottom:1px solid #d0d7de;padding:.6rem 1rem;font-size:.95rem}
header a{margin-right:1rem}
main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem 4rem}
a{color:#0969da}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.6em 0 .6em}
h1,h2{border-bottom:1px solid #d8dee4;padding-bottom:.3em}
.anchor{visibility:hidden;text-decoration:none;color:#8c959f;font-weight:normal}
h1:hover .anchor,h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,h5:hover .anchor,h6:hover .anchor{visibility:visible}
code{font:.875em ui-monospace,SFMono-Regular,Menlo,monospace;background:#eff1f3;padding:.15em .3em;border-radius:4px}
pre{background:#f6f8fa;padding:1rem;overflow:auto;border-radius:6px}
pre code{background:none;padding:0;font-size:.85em}
table{border-collapse:collapse;display:block;overflow:auto;margin:1em 0}
th,td{border:1px solid #d0d7de;padding:.35em .7em;text-align:left;vertical-align:top}
img{max-width:100%;border:1px solid #d0d7de}
blockquote{margin:0;padding:0 1em;color:#59636e;border-left:.25em solid #d0d7de}`;

function shell(title: string, body: string): string {
  const header = `<header><a href="/">unified-api-sandbox</a><a href="${GUIDES_PATH}">Guides</a><a href="/docs">API reference</a><a href="/console">Console</a></header>`;
  return htmlDocument(`${title}: unified-api-sandbox`, STYLE, `${header}\n<main>\n${body}\n</main>`);
}

/**
 * The renderer (marked and its rules), loaded with the first page rendered, by dynamic import: a
 * process that serves no guide does not evaluate it at its start (docs/benchmarks.md, the fresh
 * process).
 */
let renderer: Promise<typeof import('./render.js')> | undefined;

/** The HTML of a guide of `library`, rendered with its links made the server's. */
async function rendered(library: GuideLibrary, markdown: string, from: string) {
  renderer ??= import('./render.js');
  const { renderGuide } = await renderer;
  return renderGuide(markdown, from, (path) => servedPathOf(library, path));
}

/** The README's list of guides: its "Guides" section, up to the next section. */
function readmeGuides(readme: string): string {
  const start = /^## Guides\s*$/m.exec(readme);
  if (!start) return '';
  const rest = readme.slice(start.index + start[0].length);
  const end = /^## /m.exec(rest);
  return end ? rest.slice(0, end.index) : rest;
}

/** The first heading of a guide's Markdown, as its title in a list. */
const titleOf = (markdown: string, name: string): string =>
  /^# (.+)$/m.exec(markdown)?.[1]?.replaceAll('`', '') ?? name;

/** The index: the README's list of guides, then any guide it does not name. */
async function indexPage(library: GuideLibrary): Promise<string> {
  const readme = library.guides.get('readme');
  const listed = readme
    ? (await rendered(library, readmeGuides(readFileSync(readme.file, 'utf8')), readme.path)).html
    : '';
  const others = [...library.guides.values()]
    .filter((guide) => {
      const path = guidePath(guide.name);
      return (
        guide.name !== 'readme' && !listed.includes(`href="${path}"`) && !listed.includes(`href="${path}#`)
      );
    })
    .map((guide) => {
      const title = titleOf(readFileSync(guide.file, 'utf8'), guide.name);
      return `<li><a href="${guidePath(guide.name)}">${escapeHtml(title)}</a></li>`;
    });
  const intro = readme
    ? `<p>The guides this package holds (its <code>docs/</code> folder), served by the sandbox itself: they need no network. Start with the <a href="${guidePath('readme')}">README</a>.</p>`
    : '<p>The guides this package holds (its <code>docs/</code> folder), served by the sandbox itself.</p>';
  const more = others.length > 0 ? `<h2 id="more">More</h2>\n<ul>\n${others.join('\n')}\n</ul>` : '';
  return shell('Guides', `<h1 id="guides">Guides</h1>\n${intro}\n${listed}\n${more}`);
}

/** The page of the guide `name`, or undefined when the package holds no such guide. */
async function guidePage(library: GuideLibrary, name: string): Promise<string | undefined> {
  const guide = library.guides.get(name);
  if (!guide) return undefined;
  const { title, html } = await rendered(library, readFileSync(guide.file, 'utf8'), guide.path);
  return shell(title ?? guide.name, html);
}

/** The file a guide is read from (the CLI links it when no server runs), if the package holds it. */
export const guideFile = (name: string): string | undefined => guides().guides.get(name)?.file;

export function registerGuides(app: OpenAPIHono<AppEnv>): void {
  app.get(GUIDES_PATH, async (c) => {
    let page = pages.get('');
    if (page === undefined) {
      page = await indexPage(guides());
      pages.set('', page);
    }
    return c.html(page);
  });
  app.get(`${GUIDES_PATH}/:name`, async (c) => {
    const name = c.req.param('name');
    let page = pages.get(name);
    if (page === undefined) {
      page = await guidePage(guides(), name);
      if (page === undefined) return c.json(errors.notFound().toBody(), 404);
      pages.set(name, page);
    }
    return c.html(page);
  });
  app.get(`${GUIDES_PATH}/:folder/:file`, (c) => {
    const asset = guides().assets.get(`${c.req.param('folder')}/${c.req.param('file')}`);
    if (!asset) return c.json(errors.notFound().toBody(), 404);
    let bytes = pictures.get(asset.path);
    if (bytes === undefined) {
      bytes = readFileSync(asset.file);
      pictures.set(asset.path, bytes);
    }
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': asset.type,
      'cache-control': 'public, max-age=3600',
    });
  });
}
