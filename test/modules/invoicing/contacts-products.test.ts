import { beforeEach, describe, expect, it } from 'vitest';
import { ContactItemOut, ProductItemOut } from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import { call, expectValidation } from '../../helpers.js';
import { all, expectFailure, type VerticalSandbox, verticalSandbox } from '../verticals/finance-helpers.js';
import { invoiceBody, keysOf, reference, STANDARD } from './helpers.js';

/** The Invoicing vertical: contacts and products created, and their rules. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: contacts and products created', () => {
  it('creates a contact from a company name alone: a customer, every other field null', async () => {
    const res = await v.post('/contacts', { company_name: 'Minimal SRL' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      company_name: 'Minimal SRL',
      is_customer: true,
      is_supplier: false,
      is_prospect: false,
      is_company: true,
      first_name: null,
      email: null,
      vat: null,
      gender: null,
      birthdate: null,
      addresses: [],
      external_reference: null,
      source_ref: { model: 'contact' },
    });
    expect(Object.keys(res.body).sort()).toEqual(keysOf(ContactItemOut));
    expect((await v.get(`/contacts/${res.body.id}`)).body).toEqual(res.body);
    expect((await all(v, '/contacts?contact_type=customer')).map((c) => c.id)).toContain(res.body.id);
    expect((await all(v, '/contacts?contact_type=supplier')).map((c) => c.id)).not.toContain(res.body.id);
  });

  it('creates a supplier person with an address', async () => {
    const res = await v.post('/contacts', {
      first_name: 'Ann',
      last_name: 'Peeters',
      is_supplier: true,
      email: 'ann@peeters.example',
      vat: 'BE0123456749',
      currency: 'EUR',
      birthdate: '1980-04-02',
      gender: 'F',
      addresses: [
        { address_type: 'main', street: 'Meir 1', city: 'Antwerpen', postal_code: '2000', country: 'be' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_supplier: true, is_customer: false, is_company: false, gender: 'F' });
    expect(res.body.addresses[0]).toMatchObject({ country: 'BE', street: 'Meir 1', name: null });
    expect(res.body.supplier_account_number).toMatch(/^440\d{3}$/);
  });

  it('takes any e-mail, VAT number and currency text (the reference states no format for them)', async () => {
    const res = await v.post('/contacts', {
      company_name: 'X',
      email: 'not-an-email',
      vat: 'BE 0123.456.789',
      currency: 'euro',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email: 'not-an-email', vat: 'BE 0123.456.789', currency: 'euro' });
  });

  it.each([
    [{}, 'A contact needs a company_name'],
    [{ company_name: '  ' }, 'A contact needs a company_name'],
    [
      {
        company_name: 'X',
        addresses: [{ address_type: 'main', street: 's', city: 'c', postal_code: '1', country: 'XX' }],
      },
      "addresses[0].country 'XX' is not an ISO 3166-1 alpha-2 country code",
    ],
  ])('refuses the contact %j', async (body, detail) => {
    const before = (await v.get('/contacts')).body.total;
    expectFailure(await v.post('/contacts', body), detail);
    expect((await v.get('/contacts')).body.total).toBe(before);
  });

  it.each([
    [
      {
        company_name: 'X',
        addresses: [{ address_type: 'main', city: 'c', postal_code: '1', country: 'BE' }],
      },
      ['body', 'addresses', 0, 'street'],
    ],
    [{ company_name: 'X', gender: 'M' }, ['body', 'gender']],
    [{ company_name: 'X', birthdate: '1980-02-31' }, ['body', 'birthdate']],
  ])('validates the contact %j', async (body, loc) => {
    expectValidation(await v.post('/contacts', body), loc);
  });

  it('creates a contact once per client request id', async () => {
    const headers = { 'x-chift-client-requestid': 'contact-1' };
    const first = await v.post('/contacts', { company_name: 'Once NV' }, { headers });
    const again = await v.post('/contacts', { company_name: 'Once NV' }, { headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await all(v, '/contacts')).filter((c) => c.company_name === 'Once NV')).toHaveLength(1);
    const connection = Object.values(v.app.services.store.world.connections).find(
      (c) => c.consumerid === v.consumerId,
    );
    const lookup = await call(
      v.app,
      'GET',
      `/consumers/${v.consumerId}/connections/${connection?.connectionid}/transactions?client_request_id=contact-1`,
      { token: v.token },
    );
    expect(lookup.status).toBe(200);
    expect(lookup.body.created_entity_id).toBe(first.body.id);
  });

  it('creates a product: stock 0, visible in the list, moved by posted invoices only', async () => {
    const r = await reference(v);
    const created = await v.post('/products', {
      name: 'Desk lamp',
      unit_price: 49,
      tax_id: r.standard.id,
      code: 'GDS-LAMP',
      unit: 'unit',
      currency: 'EUR',
      cost: 20,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Desk lamp',
      available_quantity: 0,
      description: null,
      category: null,
    });
    expect(Object.keys(created.body).sort()).toEqual(keysOf(ProductItemOut));
    expect((await all(v, '/products')).map((p) => p.id)).toContain(created.body.id);
    const line = {
      product_id: created.body.id,
      tax_id: r.standard.id,
      unit_price: 20,
      quantity: 10,
      rate: STANDARD.rate,
    };
    const bought = await v.post('/invoices', invoiceBody('supplier_invoice', r.supplier.id, line));
    expect(bought.status, bought.text).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(10);
    const sale = { ...line, unit_price: 49, quantity: 3 };
    expect((await v.post('/invoices', invoiceBody('customer_invoice', r.customer.id, sale))).status).toBe(
      200,
    );
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(7);
    const draft = invoiceBody('customer_invoice', r.customer.id, sale, { status: 'draft' });
    expect((await v.post('/invoices', draft)).status).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(7);
    const credit = invoiceBody('customer_refund', r.customer.id, { ...sale, quantity: 1 });
    expect((await v.post('/invoices', credit)).status).toBe(200);
    expect((await v.get(`/products/${created.body.id}`)).body.available_quantity).toBe(8);
  });

  it('refuses products without a name or with an unknown tax', async () => {
    const r = await reference(v);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: ' ' }, 'name must not be empty'],
      [{ name: 'P', tax_id: 'nope' }, "tax_id 'nope' is not a tax of the software"],
    ];
    for (const [body, detail] of cases) expectFailure(await v.post('/products', body), detail);
    expect((await v.get('/products')).body.total).toBe(r.products.length);
    expectValidation(await v.post('/products', { unit_price: 3 }), ['body', 'name'], 'missing');
  });

  it('takes what the software takes: an archived tax, a code in use, negative or large amounts, any currency', async () => {
    const r = await reference(v);
    const inactive = r.taxes.find((t) => t.active === false);
    const bodies: Record<string, unknown>[] = [
      { name: 'P', tax_id: inactive.id },
      { name: 'P', code: r.products[0].code },
      { name: 'P', unit_price: -1, cost: -1 },
      { name: 'P', unit_price: 1e15 },
      { name: 'P', currency: 'EURO' },
    ];
    for (const body of bodies) {
      const res = await v.post('/products', body);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject(body);
    }
    expect((await v.get('/products')).body.total).toBe(r.products.length + bodies.length);
  });
});
