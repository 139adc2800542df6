import { expect } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import {
  type CallOptions,
  type CallResult,
  call,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

/**
 * Shortcuts for the Invoicing, Banking and Payment tests: a sandbox with a token, bound to one
 * consumer and one vertical's path segment.
 */
export interface VerticalSandbox extends TestSandbox {
  token: string;
  consumerId: string;
  base: string;
  get(path: string, options?: CallOptions): Promise<CallResult>;
  post(path: string, body: unknown, options?: CallOptions): Promise<CallResult>;
  patch(path: string, body: unknown, options?: CallOptions): Promise<CallResult>;
}

export type Segment = 'invoicing' | 'banking' | 'payment';

export function forVertical(
  s: TestSandbox,
  token: string,
  consumerId: string,
  segment: Segment,
): VerticalSandbox {
  const base = `/consumers/${consumerId}/${segment}`;
  return {
    ...s,
    token,
    consumerId,
    base,
    get: (path, options = {}) => call(s.app, 'GET', `${base}${path}`, { token, ...options }),
    post: (path, body, options = {}) => call(s.app, 'POST', `${base}${path}`, { token, body, ...options }),
    patch: (path, body, options = {}) => call(s.app, 'PATCH', `${base}${path}`, { token, body, ...options }),
  };
}

/** A fresh sandbox bound to the showcase consumer of the vertical. */
export async function verticalSandbox(segment: Segment): Promise<VerticalSandbox> {
  const s = sandbox();
  const token = await sandboxToken(s);
  const key = segment.toUpperCase();
  return forVertical(s, token, s.ids.verticalConsumers[key] as string, segment);
}

/** Every item of a paged list (pages of 100). */
// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field in tests
export async function all(v: VerticalSandbox, path: string, options: CallOptions = {}): Promise<any[]> {
  const out: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await v.get(`${path}${sep}page=${page}&size=100`, options);
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) break;
  }
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return out as any[];
}

/** The generic 400 of a vertical (its detail varies). */
export const failure = errors.accountingFailure('');

/** Asserts the generic 400 and that its detail mentions `fragment`. */
export function expectFailure(res: CallResult, fragment: string | RegExp): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.message).toBe(failure.message);
  expect(res.body.status).toBe('error');
  if (typeof fragment === 'string') expect(res.body.detail).toContain(fragment);
  else expect(res.body.detail).toMatch(fragment);
}

/** Creates a consumer with an active connection of the integration; returns its id and connection id. */
export async function consumerWith(
  s: TestSandbox,
  token: string,
  integrationid: number,
  credentials: Record<string, string>,
): Promise<{ consumerId: string; connectionId: string }> {
  const consumer = await call(s.app, 'POST', '/consumers', {
    token,
    body: { name: `Test consumer ${integrationid}`, redirect_url: 'https://vendor.example/back' },
  });
  expect(consumer.status, consumer.text).toBe(200);
  const consumerId = consumer.body.consumerid as string;
  const connectionId = await addConnection(s, token, consumerId, integrationid, credentials);
  return { consumerId, connectionId };
}

/** Adds an active connection of the integration to a consumer; returns its id. */
export async function addConnection(
  s: TestSandbox,
  token: string,
  consumerId: string,
  integrationid: number,
  credentials: Record<string, string>,
): Promise<string> {
  const created = await call(s.app, 'POST', `/consumers/${consumerId}/connections`, {
    token,
    body: { integrationid, credentials: Object.entries(credentials).map(([key, value]) => ({ key, value })) },
  });
  expect(created.status, created.text).toBe(200);
  const list = await call(s.app, 'GET', `/consumers/${consumerId}/connections`, { token });
  const connection = (list.body as { connectionid: string; integrationid: number; status: string }[]).find(
    (c) => c.integrationid === integrationid && c.status === 'active',
  );
  expect(connection).toBeDefined();
  return connection?.connectionid as string;
}

export const cents = (amount: number) => Math.round(amount * 100);
