import { describe, expect, it } from 'vitest';
import { REDACTED, Scrubber } from '../../src/platform/scrub.js';
import { unverifiedClaims } from '../../src/platform/tokens.js';

/**
 * The scrubber of everything recorded, rule by rule: credentials by name (query parameters, form
 * fields, headers, JSON fields), by the shape of the value (JWTs, control tokens, the secrets the app
 * issued), and what it keeps of an API token for the readiness report.
 */

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const JWT = `${segment({ alg: 'HS256', typ: 'JWT' })}.${segment({ sub: 'client-1', iat: 100, exp: 1900, typ: 'api' })}.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg`;
const ISSUED = 'Issued-Client-Secret-0123456789abcdefghijklmno';
const ADMIN = 'admin token with "quotes" & spaces';
const CONTROL = `wct_${'Q'.repeat(43)}`;

const scrubber = () => new Scrubber({ known: () => [ISSUED, ADMIN], adminToken: ADMIN });

describe('the scrubber', () => {
  it.each([
    ['access_token', 'abc'],
    ['token', 'abc'],
    ['refresh_token', 'abc'],
    ['id_token', 'abc'],
    ['client_secret', 'abc'],
    ['clientSecret', 'abc'],
    ['code', 'abc'],
    ['password', 'abc'],
    ['api_key', 'abc'],
    ['apiKey', 'abc'],
    ['key', 'abc'],
    ['secret', 'abc'],
    ['X-Signature', 'abc'],
  ])('redacts the query parameter %s by its name', (name, value) => {
    expect(scrubber().url(`http://h/consumers?page=1&${name}=${value}&size=2`)).toBe(
      `http://h/consumers?page=1&${name}=${REDACTED}&size=2`,
    );
  });

  it.each([
    ['a JWT', JWT],
    ['an issued secret', ISSUED],
    ['the admin token, as a url escapes it', encodeURIComponent(ADMIN)],
    ['a control token', CONTROL],
    ['a JWT, percent-escaped', `%65${JWT.slice(1)}`],
  ])('redacts %s under any parameter name, in a path segment and in a header', (_what, value) => {
    const s = scrubber();
    expect(s.url(`http://h/consumers?search=${value}&page=1`)).toBe(
      `http://h/consumers?search=${REDACTED}&page=1`,
    );
    expect(s.url(`http://h/x?${value}`)).toBe(`http://h/x?${REDACTED}`);
    expect(s.path(`/consumers/${value}/connections`)).toBe(`/consumers/${REDACTED}/connections`);
    expect(s.headers(['x-note', `before ${decodeURIComponent(value)} after`])).toEqual([
      'x-note',
      `before ${REDACTED} after`,
    ]);
  });

  it('keeps what holds no credential as it is (the same string)', () => {
    const s = scrubber();
    const url =
      'http://127.0.0.1:4010/consumers/0b5c/accounting/invoices?page=2&size=50&updated_after=2026-01-01';
    expect(s.url(url)).toBe(url);
    // Near misses of a shape: `eyJ` with no segments after it, a `wct_` too short.
    const near = 'http://h/consumers/heyJude/eyJ.only?search=eyJabc&q=wct_short&name=heyJude%20x';
    expect(s.url(near)).toBe(near);
    expect(s.path('/consumers/abc/pos/orders')).toBe('/consumers/abc/pos/orders');
    const headers = ['host', 'api.example.com', 'user-agent', 'node 1.2.3', 'x-chift-connectionid', 'c-1'];
    expect(s.headers(headers)).toBe(headers);
    const body = '{"name":"Acme 1.2.3","email":"a@example.com","lines":[{"key":"colour","value":"red"}]}';
    expect(s.body(body)).toBe(body);
  });

  it.each([
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    'Set-Cookie',
    'X-Api-Key',
    'X-Access-Token',
    'X-Auth-Token',
    'X-Client-Secret',
    'X-Refresh-Token',
    'X-Hub-Signature',
    'X-Password',
  ])('redacts the header %s by its name', (name) => {
    expect(scrubber().headers([name, 'opaque-value', 'accept', '*/*'])).toEqual([
      name,
      REDACTED,
      'accept',
      '*/*',
    ]);
  });

  it('looks again at headers it found clean once the secrets it knows change, and at each new token', () => {
    let known: string[] = [];
    const s = new Scrubber({ known: () => known });
    const headers = ['host', 'api.example.com', 'x-note', `pasted ${ISSUED}`];
    expect(s.headers([...headers])).toEqual(headers);
    expect(s.headers([...headers])).toEqual(headers);
    known = [ISSUED];
    expect(s.headers([...headers])).toEqual(['host', 'api.example.com', 'x-note', `pasted ${REDACTED}`]);
    // The same Authorization twice, then another one: each kept as its own token.
    const first = s.authorization(`Bearer ${JWT}`);
    expect(s.authorization(`Bearer ${JWT}`)).toBe(first);
    expect(s.authorization(`Bearer ${JWT}x`)).not.toBe(first);
    expect(s.authorization(`Bearer ${JWT}`)).toBe(first);
    expect(s.authorization('Bearer opaque')).toBe(REDACTED);
  });

  it('keeps an API token as its unsigned claims and a fingerprint, the admin token as admin', () => {
    const s = scrubber();
    const kept = s.authorization(`Bearer ${JWT}`);
    expect(kept).toMatch(/^Bearer unsigned\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16}$/);
    expect(kept).not.toContain(JWT.split('.')[2]);
    expect(unverifiedClaims(kept.slice('Bearer '.length))).toMatchObject({
      sub: 'client-1',
      iat: 100,
      exp: 1900,
    });
    // Two tokens of the same claims stay apart; the reduced form reduces to itself.
    expect(s.authorization(`Bearer ${JWT}x`)).not.toBe(kept);
    expect(s.authorization(kept)).toBe(kept);
    expect(s.headers(['authorization', kept])).toEqual(['authorization', kept]);
    expect(s.authorization(`Bearer ${ADMIN}`)).toBe('admin');
    expect(s.authorization('Basic dXNlcjpwYXNz')).toBe(REDACTED);
    expect(s.authorization(`Bearer ${ISSUED}`)).toBe(REDACTED);
  });

  it('redacts fields named as credentials in JSON, whole or cut, and in forms', () => {
    const s = scrubber();
    const body = JSON.stringify({
      name: 'Shop',
      signingsecret: 'whsec-1',
      nested: { access_token: 'at-1', count: 2, apiKey: 'k-1' },
      credentials: [{ key: 'API Key', value: 'cred-1' }],
      integration: { credentials: [{ name: 'API Key', optional: false }] },
    });
    expect(JSON.parse(s.body(body))).toEqual({
      name: 'Shop',
      signingsecret: REDACTED,
      nested: { access_token: REDACTED, count: 2, apiKey: REDACTED },
      credentials: [{ key: 'API Key', value: REDACTED }],
      integration: { credentials: [{ name: 'API Key', optional: false }] },
    });
    expect(s.body('{"items":[{"password":"cut-in-the-midd')).toBe(`{"items":[{"password":"${REDACTED}`);
    expect(s.body('grant_type=refresh_token&refresh_token=rt-1&client_id=c')).toBe(
      `grant_type=refresh_token&refresh_token=${REDACTED}&client_id=c`,
    );
    expect(s.body(JSON.stringify({ note: ADMIN }))).toBe(`{"note":"${REDACTED}"}`);
  });

  it('redacts the credentials of urls cited in prose, in bodies, and of a Referer', () => {
    const s = scrubber();
    expect(
      s.prose('The webhook w1 (x to https://hooks.example/in?token=t-1&a=1) has no signing secret.'),
    ).toBe(`The webhook w1 (x to https://hooks.example/in?token=${REDACTED}&a=1) has no signing secret.`);
    expect(s.body('{"items":[{"url":"https://hooks.example/in?token=t-1&a=1"}]}')).toBe(
      `{"items":[{"url":"https://hooks.example/in?token=${REDACTED}&a=1"}]}`,
    );
    expect(s.headers(['referer', 'http://app.example/cb?code=c-1&state=s'])).toEqual([
      'referer',
      `http://app.example/cb?code=${REDACTED}&state=s`,
    ]);
  });

  it('is idempotent: what it gives back scrubs to itself', () => {
    const s = scrubber();
    const inputs = [
      `http://h/p/${JWT}?access_token=${JWT}&q=${ISSUED}`,
      JSON.stringify({ signingsecret: 'x', note: `see ${CONTROL}`, credentials: [{ key: 'k', value: 'v' }] }),
    ];
    for (const input of inputs) {
      const once = input.startsWith('http') ? s.url(input) : s.body(input);
      expect(input.startsWith('http') ? s.url(once) : s.body(once)).toBe(once);
    }
  });

  it('leaves short secrets to the rules by name (a four-letter admin token is no pattern)', () => {
    const s = new Scrubber({ known: () => ['abcd'], adminToken: 'abcd' });
    expect(s.text('abcd is a word here')).toBe('abcd is a word here');
    expect(s.authorization('Bearer abcd')).toBe('admin');
  });
});
