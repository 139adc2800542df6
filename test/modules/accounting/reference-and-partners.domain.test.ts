import { describe, expect, it } from 'vitest';
import * as partners from '../../../src/modules/accounting/api/partners.domain.js';
import type {
  PartnerInInput,
  PartnerUpdateInput,
} from '../../../src/modules/accounting/api/partners.schemas.js';
import * as reference from '../../../src/modules/accounting/api/reference.domain.js';
import type { JournalInInput } from '../../../src/modules/accounting/api/reference.schemas.js';
import type * as records from '../../../src/modules/accounting/model/accounting.records.js';
import type { PostingContext } from '../../../src/modules/accounting/model/ledger/posting.js';
import type { Integration } from '../../../src/platform/catalogue.js';
import { type Refusal, refusal, refusedUnchanged } from '../domain-helpers.js';
import { folder, seededLedger } from './seeded-ledger.js';

/** Reference data, clients and suppliers: the rules called directly, each test on a ledger of its own. */
// The account balances of reference.domain.ts are in balances-treasury-and-analytics.domain.test.ts.

type Ledger = records.LedgerRecord;
type Role = 'client' | 'supplier';

const SEEDED = seededLedger(false);
const UNIFIED = seededLedger(true);
const ledgerOf = (unified = false): Ledger => structuredClone(unified ? UNIFIED : SEEDED);

function context(now = '2026-01-15T09:00:00.000Z'): PostingContext {
  let minted = 0;
  return { mint: (kind) => `${kind}-${++minted}`, now };
}
const FEATURES = { multiple_folders: false, datalayer: false, invoice_lines_on_request: false };
const integration = (unified: boolean): Integration => ({
  ...{ integrationid: 1000, name: 'Test', description: '', api: 'Accounting', status: 'active' },
  ...{ supported_countries: null, local_agent: false, credentials: [], post_connections: [] },
  ...{ coverage: [], images: {} },
  features: { ...FEATURES, unified_partners: unified },
});

/** Refused, and the ledger is left exactly as it was. */
const refusalOf =
  (status: number, code: string | undefined, message: string) =>
  (detail: string): Refusal => ({ status, message, detail, code });
const failure = refusalOf(400, undefined, 'Error while trying to perform your request');
const NO_PARTNER = "The client/supplier doesn't exist in the accounting system.";
const noPartner = refusalOf(404, 'ERROR_PARTNER_NOT_FOUND', NO_PARTNER);
const DUPLICATE = 'A client/supplier already exist with the same code/id in the accounting system.';
const duplicate = refusalOf(400, 'ERROR_PARTNER_ALREADY_EXISTS', DUPLICATE);
const JOURNAL_EXISTS = 'A journal already exists with the same code in the accounting system.';
const journalExists = refusalOf(400, 'ERROR_JOURNAL_ALREADY_EXISTS', JOURNAL_EXISTS);
const NO_COUNTERPART = "The counterpart account doesn't exist in the accounting system.";
const noCounterpart = refusalOf(400, 'ERROR_COUNTERPART_ACCOUNT_NOT_FOUND', NO_COUNTERPART);

function byCode(ledger: Ledger, code: string): records.LedgerPartner {
  const found = Object.values(ledger.partners).find((p) => p.code === code);
  if (!found) throw new Error(`no partner ${code}`);
  return found;
}
const idOf = (code: string) => byCode(SEEDED, code).id;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const year = (y: string, closed = false) => ({ name: y, start: `${y}-01-01`, end: `${y}-12-31`, closed });

describe('reference data on the wire', () => {
  it('shows a folder as selected and active, and copies addresses, scheme ids and VAT codes', () => {
    const item = reference.toFolderItem(folder);
    expect(item).toEqual({
      ...{ id: folder.id, name: 'Pons et Lang', selected: true, active: true, vat: 'BE0415556736' },
      ...{ company_number: '0415556736', main_currency: 'EUR', addresses: [folder.address] },
    });
    expect(item.addresses[0]).not.toBe(folder.address);
    const account: records.LedgerAccount = {
      ...{ number: '600000', name: 'Purchases', type: 'expense', active: false },
      ...{ scheme_ids: ['s1'], accounting_category: 'cat' },
    };
    const accountItem = reference.toAccountItem(account);
    expect([accountItem, accountItem.scheme_ids === account.scheme_ids]).toEqual([account, false]);
    expect(reference.toAccountItem({ ...account, scheme_ids: null }).scheme_ids).toBeNull();
    const vat = Object.values(SEEDED.vat_codes)[0] as records.LedgerVatCode;
    expect([reference.toVatCodeItem(vat), reference.toVatCodeItem(vat) === vat]).toEqual([vat, false]);
  });

  it('gives a journal the next number of each open book year, none of a closed one', () => {
    const ledger = ledgerOf();
    const journal = Object.values(ledger.journals).find((j) => j.code === 'VEN') as records.LedgerJournal;
    ledger.bookyears = [year('2024', true), year('2025'), year('2026'), year('2027')];
    const key = (name: string) => `doc:${journal.id}:${name}`;
    ledger.counters = { [key('2024')]: 7, [key('2025')]: 41, [key('2027')]: 9999 };
    const item = reference.toJournalItem(ledger, journal);
    const next = item.next_document_numbers ?? [];
    expect(next.map((n) => `${n.bookyear_name} ${n.next_document_number}`)).toEqual([
      ...['2025 VEN/2025/0042', '2026 VEN/2026/0001', '2027 VEN/2027/10000'],
    ]);
    expect(next[0]).toMatchObject({ start_date: '2025-01-01', end_date: '2025-12-31' });
    expect([item.code, item.journal_type, item.currency]).toEqual(['VEN', 'customer_invoice', 'EUR']);
  });

  // biome-ignore format: one case a line
  it.each<[string | undefined, records.AccountItemTypeValue | undefined, string[]]>([
    ['55, 57', undefined, ['550000', '550100', '570000']],
    [' 4 ', 'receivable', ['400000']],
    ['4,44', 'payable', ['440000']],
    [undefined, 'bank', ['550000', '550100']],
    [',, ,', 'cash', ['570000']],
    ['9', undefined, []],
    ['65', undefined, ['650000', '657000']],
  ])('lists the chart for classes %j and type %s', (classes, type, expected) => {
    expect(reference.chartOfAccounts(ledgerOf(), { classes, type }).map((a) => a.number)).toEqual(expected);
  });

  it('lists every account by number without a filter', () => {
    const ledger = ledgerOf();
    ledger.accounts['0999'] = { ...(ledger.accounts['100000'] as records.LedgerAccount), number: '0999' };
    const copy = ledger.accounts['0999'] as records.LedgerAccount;
    for (const n of ['1000', '7500']) ledger.accounts[n] = { ...copy, number: n };
    const numbers = reference.chartOfAccounts(ledger, {}).map((a) => a.number);
    expect([numbers.length, ...numbers.slice(0, 3), ...numbers.slice(-2)]).toEqual([
      ...[50, '0999', '1000', '100000', '7500', '750000'],
    ]);
  });
});

describe('new accounts and journals', () => {
  it.each(['12a', '', ' 600001', '6000.1', '-600', '__proto__', '６００'])(
    'refuses the account number %j (digits only)',
    (number) => {
      const ledger = ledgerOf();
      const create = () => reference.createLedgerAccount(ledger, { number, name: 'X', type: 'other' });
      expect(refusedUnchanged(ledger, create)).toEqual(
        failure(`The account number '${number}' must be digits only, as the chart of accounts takes`),
      );
    },
  );

  it('refuses a number already in the chart', () => {
    const ledger = ledgerOf();
    const create = () => reference.createLedgerAccount(ledger, { number: '600000', name: 'X', type: null });
    expect(refusedUnchanged(ledger, create)).toEqual({
      ...{ status: 400, code: 'ERROR_LEDGER_ACCOUNT_ALREADY_EXISTS' },
      message: 'A ledger account already exists with the same number in the accounting system.',
      detail: "A ledger account already exists with the number '600000'",
    });
  });

  it.each<[records.AccountItemTypeValue | null, records.AccountItemTypeValue]>([
    [null, 'other'],
    ['expense', 'expense'],
    ['receivable', 'receivable'],
  ])('opens an account of type %s as %s, active, leading zeros kept', (type, expected) => {
    const ledger = ledgerOf();
    const account = reference.createLedgerAccount(ledger, { number: '0601', name: 'New', type });
    expect(ledger.accounts['0601']).toBe(account);
    expect(account).toEqual({
      ...{ number: '0601', name: 'New', type: expected, active: true },
      ...{ scheme_ids: null, accounting_category: null },
    });
  });

  const journalIn = (over: Partial<JournalInInput>): JournalInInput => ({
    ...{ code: 'NEW', name: 'New journal', journal_type: 'miscellaneous_operation', ...over },
  });
  const NOT_IN_CHART = (n: string) => `The account number '${n}' does not exist in the chart of accounts`;
  // biome-ignore format: one case a line
  it.each<[string, Partial<JournalInInput>, Refusal]>([
    ['a code in use (any case)', { code: 'ven' }, journalExists("A journal already exists with the code 'ven'")],
    ['a code in use (trimmed)', { code: ' Bnk ' }, journalExists("A journal already exists with the code ' Bnk '")],
    ['a bank journal without its account', { journal_type: 'bank' }, failure('counterpart_account is required for a bank journal')],
    ['a cash journal with an empty account', { journal_type: 'cash', counterpart_account: '' }, failure('counterpart_account is required for a cash journal')],
    ['an unknown account', { counterpart_account: '999999' }, noCounterpart(NOT_IN_CHART('999999'))],
    ['an inherited name as account', { journal_type: 'bank', counterpart_account: '__proto__' }, noCounterpart(NOT_IN_CHART('__proto__'))],
    ['an inactive account', { journal_type: 'bank', counterpart_account: '550100' }, failure("The account '550100' is not active")],
    ['a bank journal on a cash account', { journal_type: 'bank', counterpart_account: '570000' }, failure("The account '570000' is not a bank account")],
    ['a cash journal on a bank account', { journal_type: 'cash', counterpart_account: '550000' }, failure("The account '550000' is not a cash account")],
  ])('refuses %s', (_label, over, expected) => {
    const ledger = ledgerOf();
    (ledger.accounts['550100'] as records.LedgerAccount).active = false;
    expect(refusedUnchanged(ledger, () => reference.createJournal(ledger, journalIn(over), context()))).toEqual(expected);
  });

  // biome-ignore format: one case a line
  it.each<[JournalInInput['journal_type'], string | undefined, string, string | null]>([
    ['bank', '550000', 'financial_operation', '550000'],
    ['cash', '570000', 'financial_operation', '570000'],
    ['customer_invoice', undefined, 'customer_invoice', null],
    ['supplier_refund', undefined, 'supplier_refund', null],
    ['miscellaneous_operation', '600000', 'miscellaneous_operation', '600000'],
  ])('opens a %s journal on %s as %s', (journal_type, counterpart_account, type, counterpart) => {
    const ledger = ledgerOf();
    const journal = reference.createJournal(ledger, journalIn({ journal_type, counterpart_account }), context());
    expect(journal).toEqual({
      ...{ id: 'accounting-journal-1', code: 'NEW', name: 'New journal', journal_type: type, counterpart_account: counterpart },
      ...{ unallocated_account: null, iban: null, bank_name: null, currency: 'EUR', other_currencies_allowed: true, blocked: false },
    });
    expect(ledger.journals['accounting-journal-1']).toBe(journal);
  });
});

describe('clients and suppliers on the wire', () => {
  it('shows the account of the role, the code as third party account, bank accounts without routing', () => {
    const both = Object.values(ledgerOf(true).partners).find((p) => p.is_client && p.is_supplier);
    if (!both) throw new Error('no partner of both roles');
    const bank = { is_primary: true, currency: null, iban: 'BE6', bic_swift: 'X', account_number: '1' };
    both.bank_accounts = [bank];
    const asClient = partners.toPartnerItem(both, 'client');
    const asSupplier = partners.toPartnerItem(both, 'supplier');
    expect([asClient.account_number, asSupplier.account_number]).toEqual(['400000', '440000']);
    expect(asClient.third_party_account).toBe(both.code);
    expect(asClient.bank_accounts).toEqual([{ ...both.bank_accounts[0], routing_code: null }]);
    expect(asClient.addresses).toEqual(both.addresses);
    expect(asClient.addresses?.[0]).not.toBe(both.addresses[0]);
  });

  // biome-ignore format: one case a line
  it.each<[string, Role, string]>([
    ['a supplier asked as a client', 'client', idOf('S00001')],
    ['a client asked as a supplier', 'supplier', idOf('C00001')],
    ['an unknown id', 'client', 'nope'],
    ['__proto__', 'client', '__proto__'],
    ['constructor', 'supplier', 'constructor'],
    ['toString in capitals', 'client', 'TOSTRING'],
  ])('answers 404 for %s, and finds a partner whatever the case of its id', (_label, role, id) => {
    expect(partners.requirePartnerOfRole(ledgerOf(), 'client', idOf('C00002').toUpperCase()).code).toBe('C00002');
    expect(refusal(() => partners.requirePartnerOfRole(ledgerOf(), role, id))).toEqual(
      noPartner(`No ${role} with the id '${id}' in the folder`),
    );
  });

  // biome-ignore format: one case a line
  it.each<[string, Role, string | undefined, string[]]>([
    ['a name, any case', 'client', 'PAGAC', ['C00001']],
    ['a word of several names, trimmed', 'client', '  sas ', ['C00001', 'C00003']],
    ['a code', 'client', 'c0001', ['C00010', 'C00011', 'C00012']],
    ['a VAT number', 'client', 'be0113917377', ['C00003']],
    ['an external reference', 'supplier', 'ext-866459', ['S00002']],
    ['a company number', 'client', '0068902822', ['C00007']],
    ['an e-mail', 'supplier', '@muraziksa.', ['S00001']],
    ['a first name', 'client', 'Tereza', ['C00004']],
    ['a last name', 'client', 'ZORRO', ['C00005']],
    ['a name of the other role', 'client', 'Murazik', []],
    ['blanks (no search)', 'supplier', '   ', ['S00001', 'S00002', 'S00003', 'S00004', 'S00005', 'S00006', 'S00007', 'S00008']],
  ])('searches %s', (_label, role, search, codes) => {
    const ledger = ledgerOf();
    byCode(ledger, 'C00004').first_name = 'Tereza';
    byCode(ledger, 'C00005').last_name = 'Zorro';
    expect(partners.listPartners(ledger, role, { search }).map((p) => p.code)).toEqual(codes);
  });

  // biome-ignore format: one case a line
  it.each<[string, string[]]>([
    ['2025-06-01T12:00:00', []],
    ['2025-06-01T12:00:00+00:00', []],
    ['2025-06-01T11:59:59.999Z', ['C00002']],
    ['2025-06-01T13:00:00+02:00', ['C00002']],
    ['2019-12-31T23:59:59Z', ['A00000', 'C00001', 'C00002', 'C00003']],
  ])('lists the clients changed strictly after %s, by code', (updated_after, codes) => {
    const ledger = ledgerOf();
    for (const p of Object.values(ledger.partners)) p.last_updated_on = '2019-01-01T00:00:00.000Z';
    for (const code of ['C00001', 'C00003', 'C00012']) byCode(ledger, code).last_updated_on = '2020-01-01T00:00:00Z';
    byCode(ledger, 'C00002').last_updated_on = '2025-06-01T12:00:00.000Z';
    byCode(ledger, 'C00012').code = 'A00000';
    expect(partners.listPartners(ledger, 'client', { updated_after }).map((p) => p.code)).toEqual(codes);
  });

  it('lists the contacts of a partner by name, and refuses a partner of the other role', () => {
    const ledger = ledgerOf();
    const contacts = partners.contactsOf(ledger, 'client', idOf('C00001').toUpperCase());
    expect(contacts.map((c) => c.name)).toEqual(['Armando Klein', 'Enguerrand Beier']);
    expect(partners.toContactItem(contacts[0] as records.LedgerContact)).toEqual({
      ...{ id: 'b4d6a81d-c918-45b9-bd19-67877c916f38', name: 'Armando Klein', first_name: 'Armando' },
      ...{ last_name: 'Klein', function: 'Purchasing manager', email: 'armando@pagacsas.example' },
      ...{ phone: '+32 64327712', mobile: '+32 64432570' },
    });
    expect(partners.contactsOf(ledger, 'client', idOf('C00004'))).toEqual([]);
    expect(refusal(() => partners.contactsOf(ledger, 'supplier', idOf('C00001')))).toEqual(
      noPartner(`No supplier with the id '${idOf('C00001')}' in the folder`),
    );
  });
});

describe('creating and changing partners', () => {
  const partnerIn = (over: Partial<PartnerInInput> = {}): PartnerInInput => ({
    ...{ name: 'Dupont SA', is_company: true, active: true, addresses: [], ...over },
  });
  type Over = Partial<PartnerInInput>;
  const create = (ledger: Ledger, role: Role, over: Over = {}, unified = false, merge?: string) =>
    partners.createPartner(ledger, integration(unified), role, partnerIn(over), merge, context());
  const update = (ledger: Ledger, partner: records.LedgerPartner, input: PartnerUpdateInput, now = 'now') =>
    partners.updatePartner(ledger, integration(false), partner, 'client', input, now);

  it('creates a client with the next code, the collective account and the defaults', () => {
    const ledger = ledgerOf();
    const address = { address_type: 'invoice' as const, street: 'Rue 1', city: 'Liège', postal_code: '4000' };
    const company_id = idOf('C00002').toUpperCase();
    const input = { is_company: null, active: null, addresses: [{ ...address, country: 'BE' }], company_id };
    const partner = create(ledger, 'client', input);
    const nulls = { name: null, phone: null, mobile: null, email: null };
    expect(partner).toEqual({
      ...{ id: 'accounting-partner-1', is_client: true, is_supplier: false, code: 'C00013' },
      ...{ ...nulls, name: 'Dupont SA', first_name: null, last_name: null, function: null },
      ...{ external_reference: null, language: null, internal_notes: null, website: null },
      ...{ vat: null, company_number: null, iban: null, bank_account: null, currency: null },
      bank_accounts: [],
      ...{ is_company: true, active: true, company_id: idOf('C00002') },
      addresses: [{ ...address, ...nulls, country: 'BE', number: null, box: null }],
      ...{ client_account: '400000', supplier_account: null },
      ...{ last_updated_on: '2026-01-15T09:00:00.000Z', created_on: '2026-01-15T09:00:00.000Z' },
    });
    expect([ledger.partners['accounting-partner-1'], ledger.counters['partner:C']]).toEqual([partner, 13]);
  });

  const primary = { is_primary: true, bic_swift: null };
  // biome-ignore format: one case a line
  it.each<[string, Role, Partial<PartnerInInput>, string, string | null, string | null, object[]]>([
    ['a supplier', 'supplier', {}, 'S00009', null, '440000', []],
    ['a client with an IBAN', 'client', { iban: 'BE68', currency: 'USD' }, 'C00013', '400000', null, [{ ...primary, currency: 'USD', iban: 'BE68', account_number: null }]],
    ['a supplier with a bank account number', 'supplier', { bank_account: '123' }, 'S00009', null, '440000', [{ ...primary, currency: null, iban: null, account_number: '123' }]],
    ['a client on the collective account named', 'client', { account_number: '400000' }, 'C00013', '400000', null, []],
  ])('creates %s', (_label, role, over, code, clientAccount, supplierAccount, bankAccounts) => {
    const partner = create(ledgerOf(), role, over);
    expect([partner.code, partner.client_account, partner.supplier_account, partner.bank_accounts]).toEqual([code, clientAccount, supplierAccount, bankAccounts]);
  });

  it('numbers the first client of a ledger without counter C00001', () => {
    const ledger = ledgerOf();
    ledger.counters = {};
    expect([create(ledger, 'client').code, ledger.counters]).toEqual(['C00001', { 'partner:C': 1 }]);
  });

  it('opens the dedicated account a new partner names, of its role, for that partner only', () => {
    const ledger = ledgerOf();
    const partner = create(ledger, 'supplier', { account_number: '440DUPONT' });
    expect(partner.supplier_account).toBe('440DUPONT');
    expect(ledger.accounts['440DUPONT']).toEqual({
      ...{ number: '440DUPONT', name: 'Dupont SA', type: 'payable', active: true },
      ...{ scheme_ids: null, accounting_category: null },
    });
    const again = () => create(ledger, 'supplier', { account_number: '440DUPONT' });
    expect(refusedUnchanged(ledger, again)).toEqual(
      duplicate("The partner S00009 already uses the account '440DUPONT'"),
    );
  });

  const VAT = ['The VAT number is incorrect; dots and whitespace must be removed;']
    .concat('the expected form is a country prefix followed by digits')
    .join(' ');
  // biome-ignore format: one case a line
  it.each<[string, Role, Partial<PartnerInInput>, boolean, Refusal]>([
    ['a VAT number with a space', 'client', { vat: 'BE 0123456789' }, false, refusalOf(400, 'ERROR_INVALID_VAT_FORMAT', VAT)("'BE 0123456789' is not of the form BE0123456789")],
    ['a company_id that is no uuid', 'client', { company_id: 'acme' }, false, refusalOf(400, 'ERROR_INVALID_FIELD_FORMAT_COMPANY_ID', "The format of the company_id doesn't seem to be correct.")("'acme' is not a partner id (a uuid) of this folder")],
    ['a company_id of no partner', 'client', { company_id: UNKNOWN_UUID }, false, failure(`company_id: no company with the id '${UNKNOWN_UUID}' exists in the folder`)],
    ['a company_id of an individual', 'supplier', { company_id: idOf('C00004') }, false, failure(`company_id: the partner '${idOf('C00004')}' is not a company`)],
    ['__proto__ as account', 'client', { account_number: '__proto__' }, false, failure("account_number: '__proto__' cannot number an account")],
    ['a payable account for a client', 'client', { account_number: '440000' }, false, failure("account_number: '440000' is not a receivable account")],
    ['an income account for a supplier', 'supplier', { account_number: '700000' }, false, failure("account_number: '700000' is not a payable account")],
    ['the external reference of a client', 'client', { external_reference: 'EXT-069186' }, false, duplicate("The client C00002 has the external_reference 'EXT-069186'")],
    ['the external reference of a client (unified partners)', 'supplier', { external_reference: 'EXT-069186' }, true, duplicate("The client C00002 has the external_reference 'EXT-069186'")],
  ])('refuses %s', (_label, role, over, unified, expected) => {
    const ledger = ledgerOf(unified);
    expect(refusedUnchanged(ledger, () => create(ledger, role, over, unified))).toEqual(expected);
  });

  it('lets clients and suppliers share an external reference when partners are not unified', () => {
    expect(create(ledgerOf(), 'supplier', { external_reference: 'EXT-069186' }).code).toBe('S00009');
  });

  it('merges a supplier into the new client it names (unified partners), keeping its id and code', () => {
    const ledger = ledgerOf(true);
    const supplier = byCode(ledger, 'S00002');
    const count = Object.keys(ledger.partners).length;
    const input = { name: 'Merged', external_reference: 'EXT-866459' };
    const merged = create(ledger, 'client', input, true, supplier.id.toUpperCase());
    expect(merged).toBe(supplier);
    const { code, name, is_client, is_supplier, client_account, supplier_account, created_on } = merged;
    expect([code, name, is_client, is_supplier, client_account, supplier_account]).toEqual([
      ...['S00002', 'Merged', true, true, '400000', '440000'],
    ]);
    expect([created_on, merged.last_updated_on]).toEqual([supplier.created_on, '2026-01-15T09:00:00.000Z']);
    expect(created_on).toBe(UNIFIED.partners[supplier.id]?.created_on);
    expect([Object.keys(ledger.partners).length, ledger.counters['partner:C']]).toEqual([count, 14]);
  });

  it('ignores force_merge when partners are not unified', () => {
    const ledger = ledgerOf();
    const partner = create(ledger, 'client', {}, false, idOf('S00002'));
    const merged = byCode(ledger, 'S00002').is_client;
    expect([partner.id, partner.code, merged]).toEqual(['accounting-partner-1', 'C00013', false]);
  });

  it('refuses to merge an unknown partner, one of the same role, or one that has both roles', () => {
    const ledger = ledgerOf(true);
    const both = Object.values(ledger.partners).find((p) => p.is_client && p.is_supplier);
    if (!both) throw new Error('no partner of both roles');
    const merge = (role: Role, id: string) =>
      refusedUnchanged(ledger, () => create(ledger, role, {}, true, id));
    const [client, { id }] = [idOf('C00001'), both];
    expect(merge('client', '__proto__')).toEqual(
      noPartner("force_merge: no supplier with the id '__proto__'"),
    );
    expect(merge('client', client)).toEqual(noPartner(`force_merge: no supplier with the id '${client}'`));
    expect(merge('supplier', id)).toEqual(
      duplicate(`force_merge: the partner '${id}' is already a supplier`),
    );
  });

  it('changes only the fields given: null clears a text, name/is_company/active keep theirs on null', () => {
    const ledger = ledgerOf();
    const partner = byCode(ledger, 'C00002');
    const before = structuredClone(partner);
    const input = { email: null, phone: '+32 1', name: '', is_company: null, active: false, addresses: null };
    update(ledger, partner, input, '2026-02-01T10:00:00.000Z');
    expect(partner).toEqual({
      ...{ ...before, email: null, phone: '+32 1', active: false, addresses: [] },
      last_updated_on: '2026-02-01T10:00:00.000Z',
    });
    const company = idOf('C00003');
    update(ledger, partner, { name: 'Renamed', is_company: false, company_id: company.toUpperCase() });
    expect([partner.name, partner.is_company, partner.company_id]).toEqual(['Renamed', false, company]);
    update(ledger, partner, { company_id: null });
    expect(partner.company_id).toBeNull();
  });

  it('keeps the primary bank account in step with iban and bank_account', () => {
    const ledger = ledgerOf();
    const partner = byCode(ledger, 'C00002');
    const first = { ...partner.bank_accounts[0] };
    update(ledger, partner, { iban: 'BE68539007547034' });
    const iban = 'BE68539007547034';
    expect(partner.bank_accounts).toEqual([{ ...first, iban, account_number: partner.bank_account }]);
    partner.bank_accounts = [];
    update(ledger, partner, { iban: null, bank_account: null });
    expect(partner.bank_accounts).toEqual([]);
    update(ledger, partner, { bank_account: '999' });
    const added = { ...primary, currency: partner.currency, iban: null, account_number: '999' };
    expect(partner.bank_accounts).toEqual([added]);
  });

  it('refuses on update a bad VAT number, itself as company, or the external reference of another', () => {
    const ledger = ledgerOf();
    const partner = byCode(ledger, 'C00003');
    const refused = (input: PartnerUpdateInput) =>
      refusedUnchanged(ledger, () => update(ledger, partner, input));
    expect(refused({ vat: 'be0123456789' }).code).toBe('ERROR_INVALID_VAT_FORMAT');
    expect(refused({ company_id: partner.id.toUpperCase() })).toEqual(
      failure(`company_id: no company with the id '${partner.id.toUpperCase()}' exists in the folder`),
    );
    expect(refused({ external_reference: 'EXT-069186' })).toEqual(
      duplicate("The client C00002 has the external_reference 'EXT-069186'"),
    );
    update(ledger, partner, { external_reference: 'EXT-374810' });
    expect(partner.external_reference).toBe('EXT-374810');
  });
});
