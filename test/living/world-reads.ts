import { expect } from 'vitest';
import type { SandboxApp } from '../../src/app.js';
import { call, type TestSandbox, tokenFor } from '../helpers.js';

/**
 * What a client reads of every vertical: the lists of each showcase consumer, and an item of each
 * list that has items, read the same way in any world of the seed. What the tests of the world's
 * origin read before, between and after the clock's moves and the writes.
 */

/** The lists of each vertical's showcase consumer (by its env name), over the days `from`..`to`. */
export function verticalLists(from: string, to: string): Record<string, string[]> {
  const period = `date_from=${from}&date_to=${to}`;
  return {
    ACCOUNTING: [
      '/accounting/folders',
      '/accounting/bookyears',
      '/accounting/clients',
      '/accounting/suppliers',
      '/accounting/invoices/type/customer_invoice',
      '/accounting/journal/entries?unposted_allowed=true',
      '/accounting/journals',
      '/accounting/payment-methods',
      '/accounting/outstandings?type=client&unposted_allowed=true',
      '/accounting/employees',
    ],
    POS: [
      `/pos/orders?${period}`,
      '/pos/customers',
      '/pos/products',
      `/pos/payments?${period}`,
      `/pos/sales?${period}`,
      `/pos/closures/${to}`,
    ],
    ECOMMERCE: ['/commerce/orders', '/commerce/customers', '/commerce/products', '/commerce/variants'],
    INVOICING: [
      '/invoicing/invoices',
      '/invoicing/contacts',
      '/invoicing/products',
      '/invoicing/payments',
      '/invoicing/opportunities',
    ],
    BANKING: ['/banking/accounts', '/banking/counterparts'],
    PAYMENT: ['/payment/payments', '/payment/refunds', '/payment/payouts', '/payment/transactions'],
    PMS: [`/pms/orders?${period}`, `/pms/invoices?${period}`, '/pms/customers', `/pms/payments?${period}`],
  };
}

/** The list each item read is found in, and the path of the item (`{id}` stands for its id). */
export const ITEM_OF: Record<string, string> = {
  '/accounting/clients': '/accounting/clients/{id}',
  '/accounting/invoices/type/customer_invoice': '/accounting/invoices/{id}',
  '/pos/customers': '/pos/customers/{id}',
  '/commerce/orders': '/commerce/orders/{id}',
  '/commerce/products': '/commerce/products/{id}',
  '/invoicing/invoices': '/invoicing/invoices/{id}',
  '/invoicing/contacts': '/invoicing/contacts/{id}',
  '/payment/payments': '/payment/payments/{id}',
  '/pms/customers': '/pms/customers/{id}',
};

/** A reader of one world: a token renewed after each move of the clock, and the answers as text. */
export interface WorldReader {
  app: SandboxApp;
  /** The answer of a GET of `path` under the consumer of `vertical`, as its status and text. */
  read(vertical: string, path: string): Promise<string>;
  /** A new token: the clock moved (a token lives 30 minutes of the sandbox clock). */
  renew(): Promise<void>;
}

export async function readerOf(s: TestSandbox): Promise<WorldReader> {
  const fresh = () => tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
  let token = await fresh();
  return {
    app: s.app,
    read: async (vertical, path) => {
      const consumer = s.ids.verticalConsumers[vertical] as string;
      const res = await call(s.app, 'GET', `/consumers/${consumer}${path}`, { token });
      expect(res.status, `${vertical} ${path}: ${res.text.slice(0, 300)}`).toBe(200);
      return res.text;
    },
    renew: async () => {
      token = await fresh();
    },
  };
}

/** The id of the first item of a list's answer (a page, or an array), if it has one. */
export function firstId(text: string): string | undefined {
  const body = JSON.parse(text) as { items?: { id?: string }[] } | { id?: string }[];
  const items = Array.isArray(body) ? body : (body.items ?? []);
  return items[0]?.id;
}

/** Every read of a world: each list, then an item of each list that has one of `ids` (by list). */
export async function readEverything(
  reader: WorldReader,
  lists: Record<string, string[]>,
  ids: ReadonlyMap<string, string>,
): Promise<string[]> {
  const out: string[] = [];
  for (const [vertical, paths] of Object.entries(lists)) {
    for (const path of paths) out.push(`${vertical} ${path} ${await reader.read(vertical, path)}`);
  }
  for (const [list, id] of ids) {
    const [vertical, path] = list.split(' ') as [string, string];
    const item = (ITEM_OF[path] as string).replace('{id}', id);
    out.push(`${vertical} ${item} ${await reader.read(vertical, item)}`);
  }
  return out;
}

/** The ids of the first item of each list ITEM_OF names, as read now (history: the same in any world). */
export async function itemIds(
  reader: WorldReader,
  lists: Record<string, string[]>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [vertical, paths] of Object.entries(lists)) {
    for (const path of paths) {
      if (!ITEM_OF[path]) continue;
      const id = firstId(await reader.read(vertical, path));
      if (id !== undefined) ids.set(`${vertical} ${path}`, id);
    }
  }
  return ids;
}
