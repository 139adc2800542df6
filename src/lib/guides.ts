import { trimTrailing } from './text-checks.js';

/**
 * Where the sandbox's guides are linked from what it prints (report findings, console pages, the
 * banner, the home page): the page the server serves for each (surfaces/guides), so that a link
 * resolves for whoever installed the package, with no network.
 */

/** The path under which every server serves the guides. */
export const GUIDES_PATH = '/guides';

/** The link to a guide (`readiness`, `control`, `readme`...), or to a section of it (its heading's anchor). */
export type GuideLink = (guide: string, anchor?: string) => string;

/** The guide's path on the server that prints it: `/guides/readiness#token_not_reused`. */
export const guidePath: GuideLink = (guide, anchor) => `${GUIDES_PATH}/${guide}${anchor ? `#${anchor}` : ''}`;

/** The guide's absolute url on the server whose base url is `base` (its origin, or its public url). */
export const guideUrlAt =
  (base: string): GuideLink =>
  (guide, anchor) =>
    `${trimTrailing(base, '/')}${guidePath(guide, anchor)}`;
