import { posix } from 'node:path';
import { Marked, type MarkedExtension, type Tokens } from 'marked';
import { escapeHtml } from '../../lib/html.js';
import { Anchors } from './anchors.js';

/**
 * A guide's Markdown as HTML, with marked: headings carry the anchors GitHub gives them (anchors.ts),
 * relative links to another guide or a picture point at the page that serves it, and raw HTML in the
 * Markdown is shown as text, never passed through (the guides are ours, but the page stays safe
 * whatever they hold), as is a link of a scheme a page has no business following.
 */

/** A scheme: what makes a link absolute (`https:`, `mailto:`). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The schemes a guide may link to; a link of any other is shown as its text. */
const FOLLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * Where a link of the guide at `from` (its path in the package, `docs/control.md`) points on the
 * server: `served` maps a file of the package to its page (`docs/control.md` to `/guides/control`),
 * and the anchor follows. A link to the same page, an absolute path or url, or a file that is not
 * served is left as it is.
 */
export function servedHref(href: string, from: string, served: (path: string) => string | undefined): string {
  if (href === '' || href.startsWith('#') || href.startsWith('/') || SCHEME.test(href)) return href;
  const hash = href.indexOf('#');
  const target = hash === -1 ? href : href.slice(0, hash);
  const anchor = hash === -1 ? '' : href.slice(hash);
  const path = posix.normalize(posix.join(posix.dirname(from), target));
  const page = served(path);
  return page === undefined ? href : `${page}${anchor}`;
}

export interface RenderedGuide {
  /** The text of its first level-1 heading (null without one). */
  title: string | null;
  html: string;
}

/** The guide `markdown`, whose path in the package is `from`, as HTML. */
export function renderGuide(
  markdown: string,
  from: string,
  served: (path: string) => string | undefined,
): RenderedGuide {
  const anchors = new Anchors();
  let title: string | null = null;
  const extension: MarkedExtension = {
    gfm: true,
    walkTokens(token) {
      if (token.type === 'link' || token.type === 'image') token.href = servedHref(token.href, from, served);
    },
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const text = this.parser.parseInline(tokens, this.parser.textRenderer);
        if (depth === 1 && title === null) title = text;
        const id = escapeHtml(anchors.next(text));
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)} <a class="anchor" href="#${id}" aria-label="Link to this section">#</a></h${depth}>\n`;
      },
      html({ text, block }: Tokens.HTML | Tokens.Tag) {
        return block ? `<p>${escapeHtml(text)}</p>\n` : escapeHtml(text);
      },
      link({ href, tokens }: Tokens.Link) {
        const scheme = SCHEME.exec(href)?.[0].toLowerCase();
        if (scheme !== undefined && !FOLLOWED_SCHEMES.has(scheme)) return this.parser.parseInline(tokens);
        return false;
      },
    },
  };
  const html = new Marked(extension).parse(markdown, { async: false });
  return { title, html };
}
