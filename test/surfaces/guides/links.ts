import { expect } from 'vitest';
import type { SandboxApp } from '../../../src/app.js';

/**
 * Following links as a reader of the sandbox's pages does: a link resolves when its page answers
 * 200 and, when it names an anchor, the page holds an element of that id. A link into Swagger UI
 * (`/docs#/Tag/operation_id`) is a route of the page's script: it resolves when the document the page
 * shows has that operation under that tag.
 */

/** The links of an HTML page: every href and src, entities decoded. */
export const linksOf = (html: string): string[] =>
  [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map(([, href]) =>
    (href as string).replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"'),
  );

/** Reads pages of one app, each once. */
export class LinkWalker {
  readonly #pages = new Map<string, Promise<{ status: number; type: string; text: string }>>();

  constructor(
    readonly app: Pick<SandboxApp, 'request'>,
    /** The origin absolute links of this server start with. */
    readonly origin = 'http://localhost',
  ) {}

  page(path: string): Promise<{ status: number; type: string; text: string }> {
    let page = this.#pages.get(path);
    if (!page) {
      page = Promise.resolve(this.app.request(path)).then(async (res) => ({
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        text: await res.text(),
      }));
      this.#pages.set(path, page);
    }
    return page;
  }

  /**
   * Why `href`, found on the page at `from`, does not resolve (null when it does); a relative link is
   * read as a browser reads it. A link to another site is out of scope (null).
   */
  async problem(href: string, from: string): Promise<string | null> {
    const url = new URL(href, `${this.origin}${from}`);
    if (url.origin !== this.origin) return null;
    const link = `${url.pathname}${url.search}${url.hash}`;
    const hash = link.indexOf('#');
    const path = hash === -1 ? link : link.slice(0, hash);
    const anchor = hash === -1 ? '' : decodeURIComponent(link.slice(hash + 1));
    const target = await this.page(path);
    if (target.status !== 200) return `${from}: ${href} answers ${target.status}`;
    if (anchor === '') return null;
    if (anchor.startsWith('/')) return this.#swaggerRoute(path, anchor, href, from);
    return target.text.includes(`id="${anchor}"`) ? null : `${from}: ${href} has no anchor ${anchor}`;
  }

  async #swaggerRoute(path: string, route: string, href: string, from: string): Promise<string | null> {
    const document = { '/docs': '/openapi.json', '/docs/sandbox': '/__sandbox/openapi.json' }[path];
    if (!document) return `${from}: ${href} is no page with routes`;
    const [, tag, operationId] = route.split('/');
    const spec = JSON.parse((await this.page(document)).text) as {
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const found = Object.values(spec.paths)
      .flatMap((item) => Object.values(item))
      .some((operation) => operation.operationId === operationId && operation.tags?.includes(tag as string));
    return found ? null : `${from}: ${href} names no operation of ${document}`;
  }

  /** Every problem of the links of the page at `from` (which must answer 200 itself). */
  async problemsOf(from: string): Promise<string[]> {
    const page = await this.page(from);
    expect(page.status, from).toBe(200);
    const problems = await Promise.all(linksOf(page.text).map((href) => this.problem(href, from)));
    return problems.filter((problem): problem is string => problem !== null);
  }
}
