import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { call, expectError, expectValidation } from '../../helpers.js';
import {
  expectFailure,
  forVertical,
  type VerticalSandbox,
  verticalSandbox,
} from '../verticals/finance-helpers.js';

/** The Invoicing vertical: who may call its operations. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: who may call', () => {
  it('refuses a consumer without an Invoicing connection, and a missing consumer', async () => {
    const other = forVertical(v, v.token, v.ids.verticalConsumers.BANKING as string, 'invoicing');
    for (const path of ['/contacts', '/invoices', '/taxes/x']) {
      expectFailure(
        await other.get(path),
        'The consumer has no active connection to a Invoicing integration',
      );
    }
    expectFailure(await other.post('/contacts', { company_name: 'X' }), 'no active connection');
    const missing = forVertical(v, v.token, '00000000-0000-4000-8000-000000000009', 'invoicing');
    expectError(await missing.get('/contacts'), errors.consumerNotFound());
  });

  it.each([
    ['size=0', ['query', 'size']],
    ['size=101', ['query', 'size']],
    ['page=0', ['query', 'page']],
    ['contact_type=vip', ['query', 'contact_type']],
  ])('validates the paging and filters of lists (%s)', async (query, loc) => {
    expectValidation(await v.get(`/contacts?${query}`), loc);
  });

  it('pages: a page past the end is empty, with the right total', async () => {
    const first = await v.get('/contacts?size=5');
    expect(first.body).toMatchObject({ page: 1, size: 5 });
    expect(first.body.items).toHaveLength(5);
    const past = await v.get('/contacts?page=99&size=5');
    expect(past.body).toEqual({ items: [], total: first.body.total, page: 99, size: 5 });
    const second = await v.get('/contacts?page=2&size=5');
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
  });

  it.each([
    ['/invoices?date_from=2025-13-01', ['query', 'date_from']],
    ['/invoices?invoice_type=quote', ['query', 'invoice_type']],
    ['/invoices?payment_status=late', ['query', 'payment_status']],
    ['/invoices?updated_after=yesterday', ['query', 'updated_after']],
    ['/invoices?include_invoice_lines=yes', ['query', 'include_invoice_lines']],
    ['/payments?date_to=never', ['query', 'date_to']],
  ])('validates %s', async (path, loc) => {
    expectValidation(await v.get(path), loc);
  });

  it('deleting the consumer removes its dataset; deleting the connection too', async () => {
    await v.get('/contacts');
    const world = v.app.services.store.world;
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.consumerId)).toBe(true);
    const connection = Object.values(world.connections).find((c) => c.consumerid === v.consumerId);
    const del = await call(
      v.app,
      'DELETE',
      `/consumers/${v.consumerId}/connections/${connection?.connectionid}`,
      {
        token: v.token,
      },
    );
    expect(del.status).toBe(204);
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.consumerId)).toBe(false);
    const sync = forVertical(v, v.token, v.ids.syncConsumerId, 'invoicing');
    await sync.get('/contacts');
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.ids.syncConsumerId)).toBe(
      true,
    );
    expect(
      (await call(v.app, 'DELETE', `/consumers/${v.ids.syncConsumerId}`, { token: v.token })).status,
    ).toBe(204);
    expect(Object.values(world.invoicing_datasets).some((d) => d.consumerid === v.ids.syncConsumerId)).toBe(
      false,
    );
  });
});
