import { beforeEach, describe, expect, it } from 'vitest';
import { errors, serviceError } from '../../../src/lib/errors.js';
import {
  ClientItemOut,
  ServicePage_ContactItem_,
} from '../../../src/modules/accounting/api/partners.schemas.js';
import { expectError, expectValidation } from '../../helpers.js';
import { type AccountingSandbox, accountingSandbox, all, forConsumer } from './helpers.js';

/** Clients, suppliers and contacts: lists, filters, creation rules, updates, force_merge. */

let a: AccountingSandbox;

beforeEach(async () => {
  a = await accountingSandbox();
});

const failure = errors.accountingFailure('');
const address = {
  address_type: 'main',
  street: 'Rue Haute 1',
  city: 'Bruxelles',
  postal_code: '1000',
  country: 'BE',
};

describe.each(['clients', 'suppliers'] as const)('accounting %s', (path) => {
  const collective = path === 'clients' ? '400000' : '440000';

  it('lists the seeded partners by code, every field present', async () => {
    const items = await all(a, `/${path}`);
    expect(items.length).toBeGreaterThan(5);
    for (const item of items) {
      const parsed = ClientItemOut.parse(item);
      expect(Object.keys(item).sort()).toEqual(Object.keys(ClientItemOut.shape).sort());
      expect(parsed.third_party_account).toMatch(path === 'clients' ? /^C\d{5}$/ : /^S\d{5}$/);
      expect(parsed.account_number).toBe(collective);
    }
    const codes = items.map((i) => i.third_party_account);
    expect(codes).toEqual([...codes].sort());
  });

  it('creates a partner with only a name and addresses: the other fields are null', async () => {
    const created = await a.post(`/${path}`, { name: 'Minimal SRL', addresses: [] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      external_reference: null,
      first_name: null,
      last_name: null,
      name: 'Minimal SRL',
      function: null,
      is_company: true,
      company_id: null,
      phone: null,
      mobile: null,
      email: null,
      language: null,
      internal_notes: null,
      website: null,
      vat: null,
      company_number: null,
      iban: null,
      bank_account: null,
      currency: null,
      active: true,
      account_number: collective,
      last_updated_on: '2026-01-15T09:00:00.000Z',
      addresses: [],
      third_party_account: expect.stringMatching(/^[CS]\d{5}$/),
      bank_accounts: [],
    });
    expect((await a.get(`/${path}/${created.body.id}`)).body).toEqual(created.body);
    expect((await all(a, `/${path}`)).map((p) => p.id)).toContain(created.body.id);
  });

  it('creates a full partner, with its bank account and a dedicated account', async () => {
    const dedicated = path === 'clients' ? '400123' : '440123';
    const created = await a.post(`/${path}`, {
      name: 'Full NV',
      external_reference: 'CRM-1',
      vat: 'BE0123456789',
      company_number: '0123456789',
      iban: 'BE68539007547034',
      email: 'ap@full.example',
      language: 'nl',
      currency: 'EUR',
      account_number: dedicated,
      addresses: [address],
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      external_reference: 'CRM-1',
      vat: 'BE0123456789',
      account_number: dedicated,
      addresses: [
        { ...address, name: null, number: null, box: null, phone: null, mobile: null, email: null },
      ],
      bank_accounts: [
        {
          is_primary: true,
          currency: 'EUR',
          iban: 'BE68539007547034',
          bic_swift: null,
          account_number: null,
          routing_code: null,
        },
      ],
    });
    const chart = (await a.get(`/chart-of-accounts?classes=${dedicated}`)).body.items;
    expect(chart).toEqual([
      expect.objectContaining({
        number: dedicated,
        name: 'Full NV',
        type: path === 'clients' ? 'receivable' : 'payable',
      }),
    ]);
  });

  it('links an individual to a company of the folder by company_id', async () => {
    const company = await a.post(`/${path}`, { name: 'Employer SA', addresses: [] });
    const person = await a.post(`/${path}`, {
      name: 'Jan Peeters',
      first_name: 'Jan',
      last_name: 'Peeters',
      is_company: false,
      company_id: company.body.id,
      addresses: [],
    });
    expect(person.body).toMatchObject({ is_company: false, company_id: company.body.id, first_name: 'Jan' });
  });

  it.each([
    ['a company_id that is not a partner id', { company_id: '12345' }, errors.accountingCompanyIdInvalid()],
    ['a VAT number with dots', { vat: 'BE0123.456.789' }, errors.accountingVatNumberInvalid()],
    ['a VAT number with whitespace', { vat: 'BE 0123456789' }, errors.accountingVatNumberInvalid()],
    ['a VAT number without country prefix', { vat: '0123456789' }, errors.accountingVatNumberInvalid()],
    ['a VAT number in lower case', { vat: 'be0123456789' }, errors.accountingVatNumberInvalid()],
    [
      'a VAT number with letters after the prefix',
      { vat: 'NL123456789B01' },
      errors.accountingVatNumberInvalid(),
    ],
    ['an unknown company_id', { company_id: '00000000-0000-4000-8000-000000000000' }, failure],
    ['an account that is not a partner account', { account_number: '700000' }, failure],
  ])('refuses %s', async (_label, fields, error) => {
    const before = (await a.get(`/${path}`)).body.total;
    const res = await a.post(`/${path}`, { name: 'Refused', addresses: [], ...fields });
    expectError(res, error);
    expect(res.body.detail).not.toBe('');
    expect((await a.get(`/${path}`)).body.total).toBe(before);
  });

  it('opens a dedicated account of any form (some charts number them 411DUPONT)', async () => {
    const res = await a.post(`/${path}`, { name: 'Lettered', addresses: [], account_number: 'C-1' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.account_number).toBe('C-1');
  });

  it('refuses a duplicate external reference or dedicated account', async () => {
    const seeded = (await all(a, `/${path}`)).find((p) => p.external_reference);
    expect(seeded).toBeDefined();
    const duplicate = await a.post(`/${path}`, {
      name: 'Copy',
      addresses: [],
      external_reference: seeded.external_reference,
    });
    expectError(duplicate, errors.accountingPartnerDuplicate());
    const dedicated = path === 'clients' ? '400777' : '440777';
    expect((await a.post(`/${path}`, { name: 'One', addresses: [], account_number: dedicated })).status).toBe(
      200,
    );
    expectError(
      await a.post(`/${path}`, { name: 'Two', addresses: [], account_number: dedicated }),
      errors.accountingPartnerDuplicate(),
    );
    // The collective account is shared by design.
    expect(
      (await a.post(`/${path}`, { name: 'Three', addresses: [], account_number: collective })).status,
    ).toBe(200);
  });

  it.each([
    ['no name', { addresses: [] }, ['body', 'name'], 'missing'],
    ['an empty name', { name: '', addresses: [] }, ['body', 'name'], 'string_too_short'],
    ['no addresses', { name: 'X' }, ['body', 'addresses'], 'missing'],
    [
      'an address without street',
      { name: 'X', addresses: [{ ...address, street: undefined }] },
      ['body', 'addresses', 0, 'street'],
      'missing',
    ],
    [
      'an unknown address type',
      { name: 'X', addresses: [{ ...address, address_type: 'home' }] },
      ['body', 'addresses', 0, 'address_type'],
      'enum',
    ],
    [
      'is_company not a boolean',
      // Not 'yes': pydantic reads it as true.
      { name: 'X', addresses: [], is_company: 'maybe' },
      ['body', 'is_company'],
      'bool_parsing',
    ],
  ] as [string, object, (string | number)[], string][])(
    'validates a new partner with %s (422)',
    async (_label, body, loc, type) => {
      expectValidation(await a.post(`/${path}`, body), loc, type);
    },
  );

  it('reads one partner; an unknown id or a partner of the other role is a 404', async () => {
    const [first] = (await a.get(`/${path}?size=1`)).body.items;
    expect((await a.get(`/${path}/${first.id}`)).body).toEqual(first);
    const unknown = await a.get(`/${path}/unknown-id`);
    expectError(unknown, serviceError('partnerNotFound'));
    expect(unknown.body.error_code).toBe('ERROR_PARTNER_NOT_FOUND');
    const other = (await a.get(`/${path === 'clients' ? 'suppliers' : 'clients'}?size=1`)).body.items[0];
    expectError(await a.get(`/${path}/${other.id}`), serviceError('partnerNotFound'));
  });

  it('searches names, e-mails, VAT numbers and codes, in any case; filters by updated_after', async () => {
    const created = await a.post(`/${path}`, { name: 'Zyxwv Trading', vat: 'BE0999888777', addresses: [] });
    for (const search of ['zyxwv', 'ZYXWV TRAD', 'BE0999888', created.body.third_party_account]) {
      const found = (await a.get(`/${path}?search=${encodeURIComponent(search)}`)).body.items;
      expect(found.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
    }
    expect((await a.get(`/${path}?search=no-such-partner`)).body).toMatchObject({ items: [], total: 0 });
    const recent = (await a.get(`/${path}?updated_after=2026-01-01T00:00:00Z`)).body.items;
    expect(recent.map((p: { id: string }) => p.id)).toEqual([created.body.id]);
    const local = (await a.get(`/${path}?updated_after=2026-01-15T08:59:59`)).body.items;
    expect(local).toHaveLength(1);
    expectValidation(await a.get(`/${path}?updated_after=yesterday`), ['query', 'updated_after']);
  });

  it('updates the fields given and leaves the others', async () => {
    const created = await a.post(`/${path}`, {
      name: 'Before',
      email: 'old@x.example',
      is_company: false,
      iban: 'BE68539007547034',
      addresses: [address],
    });
    a.app.services.clock.advance(60);
    const patched = await a.patch(`/${path}/${created.body.id}`, {
      name: 'After',
      email: null,
      iban: 'BE71096123456769',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'After',
      email: null,
      is_company: false,
      active: true,
      iban: 'BE71096123456769',
      last_updated_on: '2026-01-15T09:01:00.000Z',
      addresses: [expect.objectContaining({ street: 'Rue Haute 1' })],
      bank_accounts: [expect.objectContaining({ iban: 'BE71096123456769' })],
    });
    const cleared = await a.patch(`/${path}/${created.body.id}`, { addresses: [] });
    expect(cleared.body.addresses).toEqual([]);
    expect((await a.get(`/${path}/${created.body.id}`)).body).toEqual(cleared.body);
  });

  it('applies the creation rules to updates', async () => {
    const [first, second] = await all(a, `/${path}`);
    expectError(
      await a.patch(`/${path}/${first.id}`, { vat: 'BE 123' }),
      errors.accountingVatNumberInvalid(),
    );
    expectError(
      await a.patch(`/${path}/${first.id}`, { company_id: 'abc' }),
      errors.accountingCompanyIdInvalid(),
    );
    await a.patch(`/${path}/${second.id}`, { external_reference: 'TAKEN-1' });
    expectError(
      await a.patch(`/${path}/${first.id}`, { external_reference: 'TAKEN-1' }),
      errors.accountingPartnerDuplicate(),
    );
    expectError(await a.patch(`/${path}/unknown`, { name: 'x' }), serviceError('partnerNotFound'));
    expectValidation(await a.patch(`/${path}/${first.id}`, { active: 'no' }), ['body', 'active']);
  });

  it('does not use force_merge on an integration that keeps clients and suppliers apart', async () => {
    const other = (await a.get(`/${path === 'clients' ? 'suppliers' : 'clients'}?size=1`)).body.items[0];
    const res = await a.post(`/${path}?force_merge=${other.id}`, { name: 'Merged', addresses: [] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).not.toBe(other.id);
    expect(res.body.name).toBe('Merged');
  });

  it('is idempotent with a client request id', async () => {
    const headers = { 'x-chift-client-requestid': `create-${path}` };
    const first = await a.post(`/${path}`, { name: 'Once Only', addresses: [] }, { headers });
    const again = await a.post(`/${path}`, { name: 'Once Only', addresses: [] }, { headers });
    expect(again.body).toEqual(first.body);
    expect((await a.get(`/${path}?search=once only`)).body.total).toBe(1);
  });
});

describe('accounting partners with unified clients and suppliers (features.unified_partners)', () => {
  let multi: AccountingSandbox;
  let folder: string;

  beforeEach(async () => {
    multi = forConsumer(a, a.token, a.ids.multiFolderConsumerId);
    folder = (await multi.get('/folders')).body[0].id;
  });

  it('merges a supplier into the new client: one partner, listed in both roles', async () => {
    const clients = await all(multi, `/clients?folder_id=${folder}`);
    const supplier = (await all(multi, `/suppliers?folder_id=${folder}`)).find(
      (s) => !clients.some((c) => c.id === s.id),
    );
    const clientsBefore = (await multi.get(`/clients?folder_id=${folder}`)).body.total;
    const merged = await multi.post(`/clients?folder_id=${folder}&force_merge=${supplier.id}`, {
      name: 'Merged Partner',
      external_reference: 'MERGED-1',
      addresses: [address],
    });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({
      id: supplier.id,
      name: 'Merged Partner',
      account_number: '400000',
      third_party_account: supplier.third_party_account,
    });
    expect((await multi.get(`/clients?folder_id=${folder}`)).body.total).toBe(clientsBefore + 1);
    const asSupplier = await multi.get(`/suppliers/${supplier.id}?folder_id=${folder}`);
    expect(asSupplier.body).toMatchObject({ name: 'Merged Partner', account_number: '440000' });
  });

  it.each([['an unknown partner', 'unknown-id', /no supplier with the id/]])(
    'refuses force_merge with %s',
    async (_label, id, detail) => {
      const res = await multi.post(`/clients?folder_id=${folder}&force_merge=${id}`, {
        name: 'X',
        addresses: [],
      });
      expectError(res, serviceError('partnerNotFound'));
      expect(res.body.detail).toMatch(detail);
    },
  );

  it('refuses to merge a partner that already has the role', async () => {
    const clients = await all(multi, `/clients?folder_id=${folder}`);
    const suppliers = await all(multi, `/suppliers?folder_id=${folder}`);
    const both = suppliers.find((s) => clients.some((c) => c.id === s.id));
    const onlyClient = clients.find((c) => !suppliers.some((s) => s.id === c.id));
    const res = await multi.post(`/clients?folder_id=${folder}&force_merge=${onlyClient.id}`, {
      name: 'X',
      addresses: [],
    });
    expectError(res, serviceError('partnerNotFound'));
    if (both) {
      const again = await multi.post(`/clients?folder_id=${folder}&force_merge=${both.id}`, {
        name: 'X',
        addresses: [],
      });
      expectError(again, errors.accountingPartnerDuplicate());
    }
  });

  it('looks for duplicates among clients and suppliers alike', async () => {
    await multi.post(`/suppliers?folder_id=${folder}`, {
      name: 'Supplier',
      external_reference: 'SHARED-1',
      addresses: [],
    });
    expectError(
      await multi.post(`/clients?folder_id=${folder}`, {
        name: 'Client',
        external_reference: 'SHARED-1',
        addresses: [],
      }),
      errors.accountingPartnerDuplicate(),
    );
    // The seeded folders of a unified integration hold partners that are both.
    const clients = await all(multi, `/clients?folder_id=${folder}`);
    const suppliers = await all(multi, `/suppliers?folder_id=${folder}`);
    const both = clients.filter((c) => suppliers.some((s) => s.id === c.id));
    expect(both.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps clients and suppliers apart elsewhere: the same reference is accepted in the other role', async () => {
    await a.post('/suppliers', { name: 'Supplier', external_reference: 'SHARED-2', addresses: [] });
    expect(
      (await a.post('/clients', { name: 'Client', external_reference: 'SHARED-2', addresses: [] })).status,
    ).toBe(200);
  });
});

describe('accounting contacts', () => {
  it('lists the contacts of a partner', async () => {
    const company = (await all(a, '/clients')).find((c) => c.is_company);
    const res = await a.get(`/contacts?partner_type=client&partner_id=${company.id}`);
    expect(res.status).toBe(200);
    const page = ServicePage_ContactItem_.parse(res.body);
    expect(page.total).toBeGreaterThan(0);
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      name: expect.any(String),
      first_name: expect.any(String),
      last_name: expect.any(String),
      function: expect.any(String),
      email: expect.stringContaining('@'),
      phone: expect.any(String),
      mobile: page.items[0]?.mobile ?? null,
    });
    const created = await a.post('/clients', { name: 'No contacts', addresses: [] });
    expect((await a.get(`/contacts?partner_type=client&partner_id=${created.body.id}`)).body).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it('answers 404 for an unknown partner or a partner of the other type, 422 without partner_type', async () => {
    const client = (await a.get('/clients?size=1')).body.items[0];
    expectError(
      await a.get(`/contacts?partner_type=supplier&partner_id=${client.id}`),
      serviceError('partnerNotFound'),
    );
    expectError(
      await a.get('/contacts?partner_type=client&partner_id=nobody'),
      serviceError('partnerNotFound'),
    );
    // (A missing enum parameter is reported by the shared validation layer with its enum type.)
    expectValidation(await a.get(`/contacts?partner_id=${client.id}`), ['query', 'partner_type']);
    expectValidation(
      await a.get(`/contacts?partner_type=employee&partner_id=${client.id}`),
      ['query', 'partner_type'],
      'enum',
    );
    expectValidation(await a.get('/contacts?partner_type=client'), ['query', 'partner_id'], 'missing');
  });
});
