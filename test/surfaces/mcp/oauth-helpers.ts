import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestSandbox } from '../../helpers.js';

/** The pieces of the OAuth suites: a raw client's registration and authorization url, the pages' forms. */

export const REDIRECT = 'http://127.0.0.1:33418/callback';

const UNESCAPE: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => UNESCAPE[entity] as string);

/** The hidden fields of the page's form, as a browser would post them back. */
export function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
    unescapeHtml(m[1] as string),
    unescapeHtml(m[2] as string),
  ]);
}

export const radios = (html: string) =>
  [...html.matchAll(/<input type="radio" name="consumer_id" value="([^"]*)"/g)].map((m) => m[1] as string);
export const checkboxes = (html: string) =>
  [...html.matchAll(/<input type="checkbox" name="scope" value="([^"]*)"( checked)?>/g)].map((m) => ({
    scope: m[1] as string,
    checked: m[2] !== undefined,
  }));

/** A form post of the authorization page, as a browser sends it (never following the redirect). */
export async function post(url: string, fields: [string, string][]) {
  const res = await fetch(`${url}/oauth/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

export const signIn = (
  s: TestSandbox,
  key: { clientId: string; clientSecret: string } = s.ids.sandbox,
  accountId: string = s.ids.accountId,
): [string, string][] => [
  ['account_id', accountId],
  ['api_client_id', key.clientId],
  ['api_client_secret', key.clientSecret],
  ['action', 'sign_in'],
];

export interface RawClientOptions {
  scope?: string;
  /** Its redirect uri (default REDIRECT). */
  redirect?: string;
  /** An API token the registration carries: the client is then its account's. */
  token?: string;
}

/** Registration and an authorization url of a raw client (PKCE made here). */
export async function rawClient(url: string, options: RawClientOptions | string = {}) {
  const {
    scope = '',
    redirect = REDIRECT,
    token,
  } = typeof options === 'string' ? { scope: options } : options;
  const registered = await fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ client_name: 'Raw client', redirect_uris: [redirect] }),
  });
  expect(registered.status).toBe(201);
  const client = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${url}/oauth/authorize`);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
    resource: `${url}/mcp`,
  };
  if (scope) params.scope = scope;
  for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);
  return { clientId: client.client_id, verifier, authorize };
}
