import { createHash } from 'node:crypto';
import { unverifiedClaims } from './tokens.js';

/**
 * The one scrubber of everything the sandbox records: the request journal (what it keeps, hence what
 * the journal API, the console and the readiness report show), the requests file, the report's texts
 * and the --log lines. A credential is replaced by the marker `redacted` wherever it is found:
 *
 * - by name: a query parameter or form field (`access_token`, `client_secret`, `code`, `key`...), a
 *   request header (Authorization, Cookie, X-Api-Key, any `*token*`, `*secret*`, `*key*`...), a JSON
 *   field (`signingsecret`, `*token*`, `*password*`..., and the values of a connection's
 *   `credentials`);
 * - by the shape of the value, in a path, a query, a header or a body: a JWT (`eyJ….….…`), a world's
 *   control token (`wct_…`), and every secret the app issued (its API keys' secrets, the admin or
 *   control token and the console's cookie), as they are and as JSON or a url would escape them.
 *
 * An API token in Authorization is kept as what the readiness report reads of it: its claims (who,
 * issued, expires) and a fingerprint, unsigned (`Bearer unsigned.<claims>.<fingerprint>`), which no
 * server takes; the admin token becomes `admin`. Scrubbing is idempotent: what it gives back scrubs
 * to itself, so a text scrubbed once (the journal scrubs at record time) may be scrubbed again (the
 * requests file when read back).
 */

export const REDACTED = 'redacted';

/** Where a value was found: decides which names count as a credential's. */
const HEADER_WORDS = ['auth', 'token', 'secret', 'key', 'passw', 'credential', 'signature', 'cookie'];
const PARAMETER_WORDS = [
  'token',
  'secret',
  'passw',
  'apikey',
  'api_key',
  'api-key',
  'access_key',
  'private_key',
  'credential',
  'signature',
];
const PARAMETER_NAMES = new Set(['code', 'key', 'sig', 'auth', 'jwt', 'pwd', 'pass', 'assertion', 'session']);
const FIELD_WORDS = ['token', 'secret', 'passw', 'apikey', 'api_key', 'access_key', 'private_key'];
/** A JSON body that names none of these holds no field to redact by name (the check is linear). */
const FIELD_HINT = /token|secret|passw|api_?key|access_?key|private_?key|credential/i;

const hasWord = (name: string, words: readonly string[]) => words.some((word) => name.includes(word));

/** Whether a request header of this name carries a credential. */
export const isSecretHeader = (name: string): boolean => hasWord(name.toLowerCase(), HEADER_WORDS);

/** Whether a query parameter or form field of this name carries one. */
export function isSecretParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return PARAMETER_NAMES.has(lower) || hasWord(lower, PARAMETER_WORDS);
}

/** Whether a JSON field of this name carries one. */
const isSecretField = (name: string): boolean => hasWord(name.toLowerCase(), FIELD_WORDS);

/** Secrets shorter than this are only recognized where they are sent as credentials (by name). */
const SHORTEST_KNOWN_SECRET = 8;

const isTokenChar = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x2d ||
  code === 0x5f;
const DOT = 0x2e;

/** The forms a secret takes in a text: as it is, escaped by JSON, by a url, by a form. */
function variantsOf(secret: string): string[] {
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replaceAll('%20', '+'),
  ];
  return [...new Set(forms)];
}

/** Decodes each %XX on its own (and `+` as a space), so one malformed escape cannot hide the others. */
function decodeLoosely(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

export interface ScrubberOptions {
  /**
   * The secrets the app issued (its keys' secrets, the admin or control token, the console's cookie):
   * called at each scrub, it should give the same array while they do not change.
   */
  known?: () => readonly string[];
  /** The admin token (a world's control token), kept as `admin` where it is a request's Authorization. */
  adminToken?: string | null;
}

export class Scrubber {
  readonly #known: () => readonly string[];
  readonly #adminBearer: string | null;
  #knownFrom: readonly string[] | null = null;
  #patterns: string[] = [];
  /** Header names seen, and whether each carries a credential (names repeat on every request). */
  readonly #headerNames = new Map<string, boolean>();
  /** Bearer tokens seen, and what the journal keeps of each (a client sends the same one again). */
  readonly #bearers = new Map<string, string>();
  /**
   * The last Authorization value and what was kept of it, and the last values of the headers no name
   * marks found holding nothing: a client sends them again with every request, and comparing a text
   * with the one before costs a fraction of hashing it for the map or searching it again.
   */
  #lastBearer = '';
  #lastKept = '';
  #lastClean = '';
  #lastCleanFrom: readonly string[] | null = null;

  constructor(options: ScrubberOptions = {}) {
    this.#known = options.known ?? (() => []);
    this.#adminBearer = options.adminToken ? `Bearer ${options.adminToken}` : null;
  }

  /** The known secrets in every form they may take in a text, built again when they change. */
  #knownPatterns(): string[] {
    const known = this.#known();
    if (known !== this.#knownFrom) {
      this.#knownFrom = known;
      this.#patterns = known.filter((secret) => secret.length >= SHORTEST_KNOWN_SECRET).flatMap(variantsOf);
    }
    return this.#patterns;
  }

  #holdsKnown(text: string): boolean {
    for (const pattern of this.#knownPatterns()) if (text.includes(pattern)) return true;
    return false;
  }

  /** Whether a text may hold a credential by its shape: what is worth a closer look. */
  mayHold(text: string): boolean {
    // `yJ` before `eyJ`: a `y` is rarer than an `e`, and the search skips to it (ten times faster).
    return text.includes('yJ') || text.includes('wct_') || this.#holdsKnown(text);
  }

  /** Whether a text holds a credential by its shape, as it is or once its escapes are decoded. */
  holds(text: string): boolean {
    if (this.mayHold(text) && this.text(text) !== text) return true;
    const decoded = decodeLoosely(text);
    return decoded !== text && this.mayHold(decoded) && this.text(decoded) !== decoded;
  }

  /** A text with every credential recognized by its shape replaced by the marker. */
  text(text: string): string {
    if (!this.mayHold(text)) return text;
    let out = text;
    for (const pattern of this.#knownPatterns()) {
      if (out.includes(pattern)) out = out.split(pattern).join(REDACTED);
    }
    return redactShapes(out);
  }

  /** Free text (a finding's detail): credentials by shape, and the credentials in the urls it cites. */
  prose(text: string): string {
    return this.#citedUrls(this.text(text));
  }

  /** The urls a text cites (a webhook's, a redirect), with the credentials of their queries redacted. */
  #citedUrls(text: string): string {
    if (!text.includes('://') || !text.includes('?')) return text;
    return text.replace(/\bhttps?:\/\/[^\s()<>"'\\]+/g, (url) => (url.includes('?') ? this.url(url) : url));
  }

  /** A path: a segment holding a credential (once decoded) becomes the marker. */
  path(path: string): string {
    if (!path.includes('%') && !this.mayHold(path)) return path;
    const segments = path.split('/');
    let changed = false;
    for (let i = 0; i < segments.length; i += 1) {
      const segment = segments[i] as string;
      if (segment === '' || segment === REDACTED) continue;
      if (this.holds(segment)) {
        segments[i] = REDACTED;
        changed = true;
      }
    }
    return changed ? segments.join('/') : path;
  }

  /** A query string (without its `?`), or a form's body: credentials by name, then by shape. */
  query(query: string): string {
    if (query === '') return query;
    const pairs = query.split('&');
    let changed = false;
    for (let i = 0; i < pairs.length; i += 1) {
      const pair = pairs[i] as string;
      const at = pair.indexOf('=');
      const rawName = at === -1 ? pair : pair.slice(0, at);
      const rawValue = at === -1 ? '' : pair.slice(at + 1);
      const name = decodeLoosely(rawName);
      let next = pair;
      if (this.holds(rawName)) next = REDACTED;
      else if (rawValue !== REDACTED && rawValue !== '' && isSecretParameter(name))
        next = `${rawName}=${REDACTED}`;
      else if (rawValue !== '' && this.holds(rawValue)) next = `${rawName}=${REDACTED}`;
      if (next !== pair) {
        pairs[i] = next;
        changed = true;
      }
    }
    return changed ? pairs.join('&') : query;
  }

  /** A url (absolute, or a path with its query). */
  url(url: string): string {
    const at = url.indexOf('?');
    if (at === -1 && !url.includes('%') && !this.mayHold(url)) return url;
    const hash = url.indexOf('#', at === -1 ? 0 : at);
    const end = hash === -1 ? url.length : hash;
    const base = at === -1 ? url.slice(0, end) : url.slice(0, at);
    const schemeEnd = base.indexOf('://');
    const pathStart = schemeEnd === -1 ? 0 : base.indexOf('/', schemeEnd + 3);
    const origin = pathStart === -1 ? base : base.slice(0, pathStart);
    const path = pathStart === -1 ? '' : base.slice(pathStart);
    const scrubbedOrigin = this.text(origin);
    const scrubbedPath = this.path(path);
    const query = at === -1 ? null : this.query(url.slice(at + 1, end));
    const fragment = hash === -1 ? '' : this.text(url.slice(hash));
    const out = `${scrubbedOrigin}${scrubbedPath}${query === null ? '' : `?${query}`}${fragment}`;
    return out.length === url.length && out === url ? url : out;
  }

  /** Request headers as a flat [name, value, ...] list: the same list when nothing was found. */
  headers(flat: readonly string[]): readonly string[] {
    let out: string[] | null = null;
    // The values of headers no name marks are looked at together first: most hold nothing.
    let others = '';
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const name = flat[i] as string;
      const value = flat[i + 1] as string;
      if (!this.#isSecretHeader(name)) {
        others += `${value}\n`;
        continue;
      }
      const next =
        name.length === 13 && name.toLowerCase() === 'authorization' ? this.authorization(value) : REDACTED;
      if (next !== value) {
        out ??= [...flat];
        out[i + 1] = next;
      }
    }
    if (others === '' || (others === this.#lastClean && this.#knownPatterns() === this.#lastCleanFrom))
      return out ?? flat;
    if (!this.mayHold(others) && !(others.includes('://') && others.includes('?'))) {
      this.#lastClean = others;
      this.#lastCleanFrom = this.#knownPatterns();
      return out ?? flat;
    }
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const value = flat[i + 1] as string;
      if (this.#isSecretHeader(flat[i] as string)) continue;
      let next = value;
      if (this.mayHold(value)) next = value.includes('://') ? this.url(value) : this.text(value);
      else if (value.includes('://') && value.includes('?')) next = this.url(value);
      if (next !== value) {
        out ??= [...flat];
        out[i + 1] = next;
      }
    }
    return out ?? flat;
  }

  #isSecretHeader(name: string): boolean {
    let secret = this.#headerNames.get(name);
    if (secret === undefined) {
      secret = isSecretHeader(name);
      if (this.#headerNames.size >= 1024) this.#headerNames.clear();
      this.#headerNames.set(name, secret);
    }
    return secret;
  }

  /**
   * What is kept of an Authorization header: an API token as its unsigned claims and fingerprint,
   * the admin token as `admin`, anything else as the marker.
   */
  authorization(value: string): string {
    if (value === REDACTED || value === 'admin') return value;
    if (this.#adminBearer !== null && value === this.#adminBearer) return 'admin';
    if (value === this.#lastBearer) return this.#lastKept;
    const known = this.#bearers.get(value);
    if (known !== undefined) {
      this.#lastBearer = value;
      this.#lastKept = known;
      return known;
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
    let kept = token === undefined ? REDACTED : reducedToken(token);
    if (this.#holdsKnown(kept)) kept = REDACTED;
    if (this.#bearers.size >= 1024) this.#bearers.clear();
    this.#bearers.set(value, kept);
    this.#lastBearer = value;
    this.#lastKept = kept;
    return kept;
  }

  /**
   * A request or response body: credentials by shape, then, in JSON, the string values of fields
   * named as credentials and the queries of the urls it holds, and in a form, its fields named as
   * credentials.
   */
  body(text: string): string {
    const shaped = this.text(text);
    const first = firstCharacter(shaped);
    if (first === '{' || first === '[')
      return this.#citedUrls(FIELD_HINT.test(shaped) ? redactFields(shaped) : shaped);
    return FORM.test(shaped) ? this.query(shaped) : this.#citedUrls(shaped);
  }
}

/** A body that reads as a form (name=value&...). */
const FORM = /^[^\s=&{[]+=[^\s]*$/;

function firstCharacter(text: string): string {
  for (let i = 0; i < text.length && i < 64; i += 1) {
    const char = text[i] as string;
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t') return char;
  }
  return '';
}

/** The fingerprint of a token: tells two tokens apart, and gives nothing of either. */
const fingerprint = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 16);

/**
 * An API token as its unsigned claims and fingerprint. A token reduced before (`unsigned.<claims>.
 * <fingerprint>`) gives itself back; any other text, the marker.
 */
function reducedToken(token: string): string {
  const claims = unverifiedClaims(token);
  if (!claims) return REDACTED;
  const kept = Buffer.from(JSON.stringify({ sub: claims.sub, iat: claims.iat, exp: claims.exp })).toString(
    'base64url',
  );
  const reduced = token.startsWith('unsigned.') ? token.slice(token.lastIndexOf('.') + 1) : null;
  const print = reduced !== null && /^[A-Za-z0-9_-]{1,16}$/.test(reduced) ? reduced : fingerprint(token);
  return `Bearer unsigned.${kept}.${print}`;
}

/**
 * Every JWT (`eyJ…` then two more segments) and world control token (`wct_…`) of a text replaced by
 * the marker: one pass over the text, each run of token characters looked at once.
 */
function redactShapes(text: string): string {
  let out = '';
  let last = 0;
  let from = 0;
  for (;;) {
    const jwt = text.indexOf('eyJ', from);
    const control = text.indexOf('wct_', from);
    const at = jwt === -1 ? control : control === -1 ? jwt : Math.min(jwt, control);
    if (at === -1) break;
    // The run of token characters (and dots) around the hit.
    let start = at;
    while (start > last && (isTokenChar(text.charCodeAt(start - 1)) || text.charCodeAt(start - 1) === DOT))
      start -= 1;
    let end = at;
    while (end < text.length && (isTokenChar(text.charCodeAt(end)) || text.charCodeAt(end) === DOT)) end += 1;
    const run = text.slice(start, end);
    if (isCredentialRun(run)) {
      out += `${text.slice(last, start)}${REDACTED}`;
      last = end;
    }
    from = Math.max(end, at + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Whether a run of token characters and dots holds a JWT or a control token. */
function isCredentialRun(run: string): boolean {
  const segments = run.split('.');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] as string;
    if (segment.startsWith('wct_') && segment.length >= 24) return true;
    // A JWT: a header (`{"` in base64url), a payload, and a signature (empty when unsigned).
    if (segment.startsWith('eyJ') && i + 2 < segments.length && (segments[i + 1] as string).length > 0)
      return true;
  }
  return false;
}

interface Container {
  array: boolean;
  /** The field the container is the value of, or null. */
  key: string | null;
}

/**
 * A JSON text (whole, or cut) with the string values of credential fields replaced by the marker:
 * a field named as one (`signingsecret`, `access_token`...), and `value` in the items of a
 * `credentials` list. One pass over the text: no parse, no tree.
 */
function redactFields(text: string): string {
  const stack: Container[] = [];
  let out = '';
  let last = 0;
  let key: string | null = null;
  let expectingKey = false;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      let end = i + 1;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c === 0x5c) end += 2;
        else if (c === 0x22) break;
        else end += 1;
      }
      end = Math.min(end, text.length);
      const top = stack[stack.length - 1];
      if (top && !top.array && expectingKey) {
        key = text.slice(i + 1, end);
        expectingKey = false;
      } else {
        if (top && !top.array && key !== null && secretValueAt(stack, key)) {
          const value = text.slice(i + 1, end);
          if (value !== REDACTED) {
            out += `${text.slice(last, i + 1)}${REDACTED}`;
            last = end;
          }
        }
        key = null;
      }
      i = end + 1;
      continue;
    }
    if (code === 0x7b || code === 0x5b) {
      const top = stack[stack.length - 1];
      stack.push({ array: code === 0x5b, key: top && !top.array ? key : null });
      expectingKey = code === 0x7b;
      key = null;
    } else if (code === 0x7d || code === 0x5d) {
      stack.pop();
      key = null;
    } else if (code === 0x2c) {
      const top = stack[stack.length - 1];
      expectingKey = top !== undefined && !top.array;
      key = null;
    }
    i += 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Whether the string value of `key`, in the object on top of `stack`, is a credential. */
function secretValueAt(stack: readonly Container[], key: string): boolean {
  if (isSecretField(key)) return true;
  if (key !== 'value') return false;
  // { key, value } items of a connection's `credentials` list.
  const list = stack[stack.length - 2];
  return list?.array === true && list.key !== null && list.key.toLowerCase().includes('credential');
}
