import { describe, expect, it } from 'vitest';
import type { JournalRecord, RequestEntry } from '../../src/control/requests/index.js';
import { messages } from '../../src/lib/errors.js';
import {
  compilePathPattern,
  isPathPattern,
  MAX_PATTERN_SEGMENTS,
  pathPatternProblem,
} from '../../src/lib/path-pattern.js';
import { call, sandbox } from '../helpers.js';

/**
 * The path patterns of the journal's filter and of the faults: their meaning, their bound, and a
 * matching time linear in the path, so that a hostile pattern over a full journal of long paths
 * answers fast and never holds the other requests up.
 */

type Page = { items: RequestEntry[]; total: number };

/** The meaning of a pattern, written the obvious way (exponential: for small inputs only). */
function reference(pattern: string, path: string): boolean {
  if (pattern === '*') return true;
  const tokens = pattern.split('/');
  const segments = path.toLowerCase().split('/');
  const from = (t: number, s: number): boolean => {
    if (t === tokens.length) return s === segments.length;
    const token = tokens[t] as string;
    if (token === '*') {
      for (let next = s + 1; next <= segments.length; next++) if (from(t + 1, next)) return true;
      return false;
    }
    if (s === segments.length) return false;
    if (/^\{.+\}$/.test(token)) return from(t + 1, s + 1);
    return token.toLowerCase() === segments[s] && from(t + 1, s + 1);
  };
  return from(0, 0);
}

/** A path of `count` segments under a consumer, every one `a` past the consumer's id. */
const longPath = (count: number, ending = 'a') => `/consumers/x/${'a/'.repeat(count - 3)}${ending}`;

describe('path patterns: what they match', () => {
  it.each([
    ['*', '/anything/at/all', true],
    ['*', '/', true],
    ['/consumers', '/consumers', true],
    ['/consumers', '/consumers/', false],
    ['/consumers/', '/consumers/', true],
    ['/consumers', '/consumer', false],
    ['/Consumers/{id}', '/consumers/ABC', true],
    ['/consumers/{id}', '/CONSUMERS/abc', true],
    ['/consumers/{id}', '/consumers/abc/connections', false],
    ['/consumers/{id}', '/consumers', false],
    ['/consumers/{a}/{b}', '/consumers/x/y', true],
    // `*` at the end: one or more segments.
    ['/consumers/*', '/consumers', false],
    ['/consumers/*', '/consumers/a', true],
    ['/consumers/*', '/consumers/a/b/c', true],
    // `*` in the middle.
    ['/consumers/*/invoices', '/consumers/a/accounting/invoices', true],
    ['/consumers/*/invoices', '/consumers/a/invoices', true],
    ['/consumers/*/invoices', '/consumers/invoices', false],
    ['/consumers/*/invoices', '/consumers/a/accounting/invoices/1', false],
    ['/consumers/*/accounting/*/1', '/consumers/a/accounting/invoices/1', true],
    ['/consumers/*/accounting/*/1', '/consumers/a/b/accounting/x/y/1', true],
    ['/consumers/*/accounting/*/1', '/consumers/a/accounting/1', false],
    // `*` at the start.
    ['/*/invoices', '/consumers/a/invoices', true],
    ['/*/invoices', '/invoices', false],
    ['/*/*', '/a', false],
    ['/*/*', '/a/b', true],
    ['/*/*/*', '/a/b', false],
    ['/*/{x}/*', '/a/b/c', true],
    // Repeated literals: the leftmost place is the right one.
    ['/a/*/a/b/*/a/b', '/a/x/a/a/b/y/a/b', true],
    ['/a/*/a/b/*/a/b', '/a/a/b/a/b', false],
    ['/a/*/a/b/*/a/b', '/a/x/a/b/a/b', false],
    ['/a/*/a/b/*/a/b', '/a/x/a/b/y/a/b', true],
    ['/a/*/b/a/*', '/a/b/a/b/a/x', true],
    // Empty segments are compared as written.
    ['/a//b', '/a//b', true],
    ['/a//b', '/a/b', false],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(compilePathPattern(pattern)(path)).toBe(expected);
    expect(reference(pattern, path)).toBe(expected);
  });

  it('agrees with the obvious definition on many small patterns and paths', () => {
    let state = 7;
    const random = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    const pick = (items: string[]) => items[Math.floor(random() * items.length)] as string;
    const build = (count: number, items: string[]) => Array.from({ length: count }, () => pick(items));
    for (let i = 0; i < 20_000; i++) {
      const pattern = `/${build(1 + Math.floor(random() * 6), ['a', 'b', 'B', '*', '*', '{x}', '']).join('/')}`;
      const path = `/${build(Math.floor(random() * 9), ['a', 'b', 'A', '']).join('/')}`;
      const got = compilePathPattern(pattern)(path);
      if (got !== reference(pattern, path)) expect({ pattern, path, got }).toBeNull();
    }
  });

  it('refuses a malformed pattern and one of more than MAX_PATTERN_SEGMENTS segments', () => {
    const atMost = `/${Array.from({ length: MAX_PATTERN_SEGMENTS }, () => '*').join('/')}`;
    expect(isPathPattern(atMost)).toBe(true);
    expect(isPathPattern(`${atMost}/a`)).toBe(false);
    expect(pathPatternProblem(`${atMost}/a`)).toBe(messages.pathPatternTooLong(MAX_PATTERN_SEGMENTS));
    expect(() => compilePathPattern(`${atMost}/a`)).toThrow(RangeError);
    for (const malformed of ['consumers', '/consumers/{}', '/consumers/{id', '/a{b}']) {
      expect(pathPatternProblem(malformed)).toBe(messages.pathPatternInvalid);
    }
    expect(compilePathPattern(atMost)(longPath(3000))).toBe(true);
    expect(compilePathPattern(atMost)(`/${'a/'.repeat(MAX_PATTERN_SEGMENTS - 2)}a`)).toBe(false);
  });
});

describe('path patterns: time linear in the path', () => {
  /** The hostile pattern of the journal's first filter: 494 characters, 243 segments. */
  const HOSTILE = `/consumers/*/${'a/'.repeat(240)}b`;
  /** The most costly shapes still allowed: a chunk to search for over the whole path, or at its end. */
  const SEARCHED = `/consumers/*/${'a/'.repeat(MAX_PATTERN_SEGMENTS - 4)}b/*`;
  const ANCHORED = `/consumers/*/${'a/'.repeat(MAX_PATTERN_SEGMENTS - 3)}b`;
  const PATHS = 10_000;
  const SEGMENTS = 3_000;

  /** A journal of 10,000 requests of 3,000 segments, one in a thousand with a `b` near its end. */
  function fullJournal() {
    const s = sandbox();
    const plain = longPath(SEGMENTS);
    const ending = longPath(SEGMENTS - 1, 'b/c');
    for (let i = 0; i < PATHS; i++) {
      const path = i % 1000 === 0 ? ending : plain;
      const record: JournalRecord = {
        seq: 0,
        chars: 0,
        at: Date.UTC(2026, 0, 15, 9),
        method: 'GET',
        path,
        url: `http://sandbox${path}`,
        headers: null,
        principal: null,
        consumerId: 'x',
        connectionId: null,
        requestBody: null,
        requestTruncated: false,
        status: 404,
        responseBody: null,
        responseTruncated: false,
        durationMs: 1,
        fault: null,
      };
      s.app.services.requests.record(record);
    }
    expect(s.app.services.requests.size).toBe(PATHS);
    return s;
  }

  const list = (s: ReturnType<typeof sandbox>, pattern: string) =>
    call<Page>(s.app, 'GET', `/__sandbox/requests?size=1&path=${encodeURIComponent(pattern)}`);

  it('filters 10,000 paths of 3,000 segments with the most costly patterns in well under 3 s', async () => {
    const s = fullJournal();
    expect(HOSTILE.length).toBe(494);

    let started = performance.now();
    const hostile = await list(s, HOSTILE);
    const hostileMs = performance.now() - started;
    expect(hostile.status).toBe(422);
    expect(hostile.text).toContain(messages.pathPatternTooLong(MAX_PATTERN_SEGMENTS));
    expect(hostileMs).toBeLessThan(3000);

    started = performance.now();
    const searched = await list(s, SEARCHED);
    const searchedMs = performance.now() - started;
    expect(searched.status, searched.text).toBe(200);
    expect(searched.body.total).toBe(PATHS / 1000);
    expect(searchedMs).toBeLessThan(3000);

    started = performance.now();
    const anchored = await list(s, ANCHORED);
    const anchoredMs = performance.now() - started;
    expect(anchored.body.total).toBe(0);
    expect(anchoredMs).toBeLessThan(3000);

    // The matcher alone, as the faults and `sandbox.requests()` run it.
    const path = longPath(SEGMENTS);
    started = performance.now();
    const matches = compilePathPattern(SEARCHED);
    let matched = 0;
    for (let i = 0; i < PATHS; i++) if (matches(path)) matched += 1;
    const matcherMs = performance.now() - started;
    expect(matched).toBe(0);
    expect(matcherMs).toBeLessThan(3000);
    console.info(
      `journal of ${PATHS} paths of ${SEGMENTS} segments: hostile ${hostileMs.toFixed(0)} ms (422), searched ${searchedMs.toFixed(0)} ms, anchored ${anchoredMs.toFixed(0)} ms, matcher alone ${matcherMs.toFixed(0)} ms`,
    );
  }, 30_000);

  it('does not hold other requests up while it filters', async () => {
    const s = fullJournal();
    let listed = false;
    const listing = list(s, SEARCHED).then((res) => {
      listed = true;
      return res;
    });
    const started = performance.now();
    const other = await call(s.app, 'GET', '/__sandbox/clock');
    const waited = performance.now() - started;
    expect(other.status).toBe(200);
    // Answered between two slices of the listing, not after it.
    expect(listed).toBe(false);
    expect(waited).toBeLessThan(500);
    expect((await listing).body.total).toBe(PATHS / 1000);
    console.info(`a request sent during the listing waited ${waited.toFixed(1)} ms`);
  }, 30_000);

  it('refuses a pattern of too many segments from the faults too, with 422', async () => {
    const s = sandbox();
    const res = await call(s.app, 'POST', '/__sandbox/faults', {
      body: { match: { path: HOSTILE }, effect: { status: 500 } },
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain(messages.pathPatternTooLong(MAX_PATTERN_SEGMENTS));
    // In code, the journal's filter throws for it rather than run it.
    expect(() => s.app.services.requests.list({ path: HOSTILE })).toThrow(RangeError);
  });
});
