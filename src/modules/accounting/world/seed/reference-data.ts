import { own } from '../../../../lib/own.js';
import { pick } from '../../../../platform/seeding/vertical-data.js';
import { BALANCE_CATEGORIES, type JournalRole } from '../../model/accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerJournal,
  LedgerPartner,
  LedgerVatCode,
} from '../../model/accounting.records.js';
import type { LedgerSeeder } from '../accounting.seed.js';

/**
 * The reference data of a seeded ledger (chart, journals, VAT codes, analytics, payment methods and
 * terms), its partners and its employees.
 */

export function seedReferenceData(s: LedgerSeeder) {
  const { ledger, ctx, profile } = s;
  const { accounts } = profile;
  const scheme = { id: ctx.mint('scheme'), ...profile.schemes.chart };
  const reporting = { id: ctx.mint('scheme'), ...profile.schemes.reporting };
  ledger.schemes[scheme.id] = scheme;
  ledger.schemes[reporting.id] = reporting;
  for (const [number, name, type, category] of profile.chart) {
    const account: LedgerAccount = {
      number,
      name,
      type,
      active: true,
      scheme_ids: BALANCE_CATEGORIES.has(category) ? [scheme.id, reporting.id] : [scheme.id],
      accounting_category: category,
    };
    ledger.accounts[number] = account;
  }
  const journal = (
    code: string,
    name: string,
    journal_type: LedgerJournal['journal_type'],
    extra: Partial<LedgerJournal> = {},
  ): LedgerJournal => {
    const record: LedgerJournal = {
      id: ctx.mint('journal'),
      code,
      name,
      journal_type,
      counterpart_account: null,
      unallocated_account: null,
      iban: null,
      bank_name: null,
      currency: 'EUR',
      other_currencies_allowed: true,
      blocked: false,
      ...extra,
    };
    ledger.journals[record.id] = record;
    return record;
  };
  const byRole: Partial<Record<JournalRole, LedgerJournal>> = {};
  for (const { role, code, name, type } of profile.journals) {
    const extra: Partial<LedgerJournal> =
      role === 'bank'
        ? {
            counterpart_account: accounts.bank,
            unallocated_account: accounts.suspense,
            iban: s.faker.finance.iban({ countryCode: profile.country }),
            bank_name: pick(s.faker, profile.locale.banks),
            other_currencies_allowed: false,
          }
        : role === 'cash'
          ? { counterpart_account: accounts.cash }
          : {};
    byRole[role] = journal(code, name, type, extra);
  }
  const bank = byRole.bank as LedgerJournal;
  const cash = byRole.cash as LedgerJournal;

  for (const definition of profile.vat) {
    const { type, reversed = false } = definition;
    const record: LedgerVatCode = {
      id: ctx.mint('vat-code'),
      code: definition.code,
      label: definition.label,
      active: definition.active ?? true,
      scope: definition.scope,
      rate: definition.rate,
      type,
      deductible_account:
        definition.deductible_account ?? (type === 'purchase' ? accounts.vat_deductible : null),
      payable_account:
        definition.payable_account ?? (type === 'sale' || reversed ? accounts.vat_payable : null),
      reversed,
      withholding_tax: false,
      country: profile.country,
    };
    ledger.vat_codes[record.id] = record;
  }
  seedAnalyticsAndTerms(s, bank, cash);
}

/** The analytic plans and accounts, the payment methods and the payment terms of a seeded ledger. */
function seedAnalyticsAndTerms(s: LedgerSeeder, bank: LedgerJournal, cash: LedgerJournal) {
  const { ledger, ctx, profile } = s;
  const { words } = profile;
  const departments = {
    id: ctx.mint('analytic-plan'),
    name: words.departments,
    active: true,
    parent_id: null,
  };
  const projects = { id: ctx.mint('analytic-plan'), name: words.projects, active: true, parent_id: null };
  ledger.analytic_plans[departments.id] = departments;
  ledger.analytic_plans[projects.id] = projects;
  const analytic = (planId: string, code: string, name: string, active = true) => {
    const id = ctx.mint('analytic-account');
    ledger.analytic_accounts[id] = { id, plan_id: planId, code, name, active, currency: 'EUR' };
  };
  const [sales, operations, administration] = words.analytic;
  analytic(departments.id, 'SALES', sales);
  analytic(departments.id, 'OPS', operations);
  analytic(departments.id, 'ADMIN', administration);
  for (let i = 1; i <= 3; i++) analytic(projects.id, `PRJ-${100 + i}`, words.project(s.faker));
  analytic(projects.id, 'PRJ-099', words.closedProject, false);

  const [transfer, debit, card, cashName] = words.paymentMethods;
  for (const [name, journalId] of [
    [transfer, bank.id],
    [debit, bank.id],
    [card, bank.id],
    [cashName, cash.id],
  ] as const) {
    const id = ctx.mint('payment-method');
    ledger.payment_methods[id] = { id, name, journal_id: journalId };
  }
  const [immediate, d15, d30, d30EndOfMonth, d60] = words.paymentTerms;
  for (const [name, days, endOfMonth] of [
    [immediate, 0, false],
    [d15, 15, false],
    [d30, 30, false],
    [d30EndOfMonth, 30, true],
    [d60, 60, false],
  ] as const) {
    const id = ctx.mint('payment-term');
    ledger.payment_terms[id] = { id, name, days, end_of_month: endOfMonth };
  }
}

export function seedPartner(
  s: LedgerSeeder,
  role: 'client' | 'supplier' | 'both',
  index: number,
): LedgerPartner {
  const { faker, ledger, ctx } = s;
  const { locale, words } = s.profile;
  const isCompany = role !== 'client' || faker.datatype.boolean(0.8);
  const firstName = locale.firstName(faker);
  const lastName = locale.lastName(faker);
  const name = isCompany ? locale.companyName(faker) : `${firstName} ${lastName}`;
  const country = faker.helpers.weightedArrayElement([...locale.partnerCountries]);
  const { vat, company_number } = locale.partnerIds(faker, country, isCompany);
  const iban = faker.finance.iban({ countryCode: country });
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, 18) || 'partner';
  // Partners are created the year before the history starts.
  const created = `${s.calendar.firstYear - 1}-0${1 + (index % 9)}-1${index % 10}T09:00:00.000Z`;
  const id = ctx.mint('partner');
  const prefix = role === 'supplier' ? 'S' : 'C';
  const counter = `partner:${prefix}`;
  ledger.counters[counter] = (own(ledger.counters, counter) ?? 0) + 1;
  const record: LedgerPartner = {
    id,
    is_client: role !== 'supplier',
    is_supplier: role !== 'client',
    code: `${prefix}${String(own(ledger.counters, counter)).padStart(5, '0')}`,
    external_reference: faker.datatype.boolean(0.5) ? `EXT-${faker.string.numeric(6)}` : null,
    first_name: isCompany ? null : firstName,
    last_name: isCompany ? null : lastName,
    name,
    function: null,
    is_company: isCompany,
    company_id: null,
    phone: locale.phone(faker),
    mobile: faker.datatype.boolean(0.5) ? locale.phone(faker) : null,
    email: `${isCompany ? 'accounting' : firstName.toLowerCase().replace(/[^a-z]/g, '')}@${slug}.example`,
    language: locale.language(faker, country),
    internal_notes: faker.datatype.boolean(0.2) ? words.notes : null,
    website: isCompany ? `https://www.${slug}.example` : null,
    vat,
    company_number,
    iban,
    bank_account: null,
    currency: 'EUR',
    active: index % 11 !== 10,
    client_account: role !== 'supplier' ? ledger.defaults.receivable_account : null,
    supplier_account: role !== 'client' ? ledger.defaults.payable_account : null,
    addresses: [partnerAddress(s, country)],
    bank_accounts: [
      { is_primary: true, currency: 'EUR', iban, bic_swift: faker.finance.bic(), account_number: null },
    ],
    created_on: created,
    last_updated_on: created,
  };
  ledger.partners[id] = record;
  if (isCompany) {
    for (let i = 0; i < faker.number.int({ min: 1, max: 2 }); i++) {
      const first = locale.firstName(faker);
      const last = locale.lastName(faker);
      const contactId = ctx.mint('contact');
      ledger.contacts[contactId] = {
        id: contactId,
        partner_id: id,
        name: `${first} ${last}`,
        first_name: first,
        last_name: last,
        function: pick(faker, words.contactFunctions),
        email: `${first.toLowerCase().replace(/[^a-z]/g, '') || 'contact'}@${slug}.example`,
        phone: locale.phone(faker),
        mobile: faker.datatype.boolean(0.5) ? locale.phone(faker) : null,
      };
    }
  }
  return record;
}

/** A partner's main address, in its country. */
export function partnerAddress(s: LedgerSeeder, country: string): LedgerPartner['addresses'][number] {
  const { faker } = s;
  const number = faker.location.buildingNumber();
  const { street, city, postal_code } = s.profile.locale.place(faker, country);
  return {
    address_type: 'main',
    name: null,
    number,
    box: null,
    phone: null,
    mobile: null,
    email: null,
    street,
    city,
    postal_code,
    country,
  };
}

export function seedEmployees(s: LedgerSeeder) {
  const { faker, ledger, ctx } = s;
  const { locale, words } = s.profile;
  for (let i = 0; i < 4; i++) {
    const first = locale.firstName(faker);
    const last = locale.lastName(faker);
    const id = ctx.mint('employee');
    ledger.employees[id] = {
      id,
      name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      function: pick(faker, words.employeeFunctions),
      phone: locale.phone(faker),
      mobile: faker.datatype.boolean(0.6) ? locale.phone(faker) : null,
      email: `${first.toLowerCase().replace(/[^a-z]/g, '') || 'employee'}@${ledger.folder.name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'company'}.example`,
      active: i < 2,
      reference: `EMP-${String(i + 1).padStart(3, '0')}`,
      account_number: ledger.defaults.employee_account,
    };
  }
}
