import { uuidFrom } from '../../lib/ids.js';
import { mintedIds } from '../../seed/dataset-seeder.js';
import { type Faker, fakerFor } from '../../seed/fakers.js';
import { tinyPdf } from '../../seed/pdf.js';
import { pick } from '../../seed/vertical-data.js';
import type {
  AccountItemTypeValue,
  InvoiceTypeValue,
  LedgerAccount,
  LedgerEmployee,
  LedgerFolder,
  LedgerInvoice,
  LedgerInvoiceLine,
  LedgerJournal,
  LedgerPartner,
  LedgerPaymentTerm,
  LedgerRecord,
  LedgerVatCode,
} from './accounting.records.js';
import { round2 } from './ledger/money.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
  type InvoiceDraft,
  mintDocumentNumber,
  type PostingContext,
} from './ledger/posting.js';

/**
 * The seeded ledger of one accounting folder, built from (seed, consumerid, folderid) alone: the same
 * three values always give the same ledger, so a ledger can be built the first time a folder is
 * reached (a world of 100,000 consumers builds none up front) and rebuilt identically if it is lost.
 *
 * It is a small Belgian company kept in a PCMN-style chart (classes 1 to 7): clients and suppliers,
 * customer and supplier invoices and refunds from October 2024 to January 2026, paid, partly paid
 * or open, their payments through the bank journal, monthly salaries, attachments. Invoices and
 * payments are booked with the same posting functions as the API's writes, so the seeded ledger
 * obeys every rule a write does. The 2024 book year is closed once its entries are in.
 */

/** A ledger's seeded records are dated up to this day: the sandbox clock starts after it. */
const LAST_SEEDED_DAY = '2026-01-14';

/** The folders (companies) a consumer reaches through an accounting integration. */
export function seedFolders(
  seed: number,
  consumerid: string,
  integrationid: number,
  count: number,
): LedgerFolder[] {
  return Array.from({ length: count }, (_, index) => {
    const id = uuidFrom('accounting-folder', seed, consumerid, integrationid, index);
    const faker = fakerFor('folder', seed, consumerid, id);
    const digits = faker.string.numeric(9);
    return {
      id,
      name: `${faker.company.name()}${count > 1 ? ` (${['Holding', 'Services', 'Immo'][index] ?? index + 1})` : ''}`,
      vat: `BE0${digits}`,
      company_number: `0${digits}`,
      main_currency: 'EUR',
      address: {
        street: faker.location.street(),
        number: faker.location.buildingNumber(),
        box: null,
        postal_code: faker.location.zipCode('####'),
        city: faker.location.city(),
        country: 'BE',
      },
    };
  });
}

type ChartLine = [number: string, name: string, type: AccountItemTypeValue, category: string];

/** The chart of accounts: a PCMN-style minimum chart by class. */
const CHART: ChartLine[] = [
  ['100000', 'Share capital', 'other', 'equity'],
  ['130000', 'Legal reserve', 'other', 'equity'],
  ['140000', 'Retained earnings', 'other', 'equity'],
  ['174000', 'Bank loans', 'other', 'liabilities'],
  ['221000', 'Buildings', 'other', 'fixed_assets'],
  ['230000', 'Plant and machinery', 'other', 'fixed_assets'],
  ['240000', 'Furniture and vehicles', 'other', 'fixed_assets'],
  ['241000', 'IT equipment', 'other', 'fixed_assets'],
  ['340000', 'Goods for resale', 'other', 'inventory'],
  ['400000', 'Trade debtors', 'receivable', 'receivables'],
  ['404000', 'Income receivable', 'other', 'receivables'],
  ['411000', 'VAT recoverable', 'vat', 'receivables'],
  ['416000', 'Sundry receivables', 'other', 'receivables'],
  ['440000', 'Trade creditors', 'payable', 'payables'],
  ['444000', 'Invoices to receive', 'other', 'payables'],
  ['450000', 'Estimated taxes payable', 'other', 'payables'],
  ['451000', 'VAT payable', 'vat', 'payables'],
  ['453000', 'Withholding taxes', 'other', 'payables'],
  ['454000', 'Social security payable', 'other', 'payables'],
  ['455000', 'Remuneration payable', 'other', 'payables'],
  ['499000', 'Suspense account', 'other', 'payables'],
  ['550000', 'Bank current account', 'bank', 'cash'],
  ['550100', 'Bank savings account', 'bank', 'cash'],
  ['570000', 'Cash', 'cash', 'cash'],
  ['580000', 'Internal transfers', 'other_financial', 'cash'],
  ['600000', 'Purchases of raw materials', 'expense', 'purchases'],
  ['604000', 'Purchases of goods for resale', 'expense', 'purchases'],
  ['610000', 'Rent and charges', 'expense', 'services'],
  ['611000', 'Maintenance and repairs', 'expense', 'services'],
  ['612000', 'Energy and utilities', 'expense', 'services'],
  ['613000', 'Fees and subcontracting', 'expense', 'services'],
  ['614000', 'Advertising', 'expense', 'services'],
  ['615000', 'Travel', 'expense', 'services'],
  ['616000', 'Telecommunications and software', 'expense', 'services'],
  ['617000', 'Insurance', 'expense', 'services'],
  ['620000', 'Gross salaries', 'expense', 'personnel'],
  ['621000', 'Employer social security', 'expense', 'personnel'],
  ['630000', 'Depreciation', 'other_expense', 'depreciation'],
  ['640000', 'Other operating charges', 'other_expense', 'other_charges'],
  ['650000', 'Interest charges', 'other_expense', 'financial_charges'],
  ['657000', 'Bank charges', 'other_expense', 'financial_charges'],
  ['700000', 'Sales of goods', 'income', 'turnover'],
  ['701000', 'Sales of finished products', 'income', 'turnover'],
  ['705000', 'Services rendered', 'income', 'turnover'],
  ['708000', 'Sales discounts', 'income', 'turnover'],
  ['740000', 'Other operating income', 'income', 'other_income'],
  ['750000', 'Financial income', 'income', 'financial_income'],
];

const REVENUE_ACCOUNTS = ['700000', '701000', '705000'];
const EXPENSE_ACCOUNTS = [
  '600000',
  '604000',
  '610000',
  '611000',
  '612000',
  '613000',
  '614000',
  '616000',
  '617000',
];

const PRODUCTS = [
  'Consulting day',
  'Software licence',
  'Maintenance contract',
  'Installation',
  'Training session',
  'Hardware kit',
  'Support hours',
  'Design work',
  'Delivery',
  'Spare parts',
];

const SUPPLIES = [
  'Office rent',
  'Electricity',
  'Telephone and internet',
  'Cloud hosting',
  'Raw materials',
  'Goods for resale',
  'Accountant fees',
  'Insurance premium',
  'Advertising campaign',
  'Repairs',
];

export interface SeedLedgerOptions {
  seed: number;
  consumerid: string;
  integrationid: number;
  /** Clients and suppliers are one entity (features.unified_partners): some partners are both. */
  unifiedPartners: boolean;
  folder: LedgerFolder;
}

class LedgerSeeder {
  readonly ledger: LedgerRecord;
  readonly faker: Faker;
  readonly ctx: PostingContext;

  constructor(readonly options: SeedLedgerOptions) {
    const { seed, consumerid, folder } = options;
    this.faker = fakerFor('ledger', seed, consumerid, folder.id);
    this.ctx = {
      mint: mintedIds('ledger', seed, consumerid, folder.id),
      now: '2024-01-02T08:00:00.000Z',
    };
    this.ledger = {
      consumerid,
      folderid: folder.id,
      integrationid: options.integrationid,
      counters: {},
      folder,
      defaults: { receivable_account: '400000', payable_account: '440000', employee_account: '455000' },
      bookyears: [
        { name: '2024', start: '2024-01-01', end: '2024-12-31', closed: false },
        { name: '2025', start: '2025-01-01', end: '2025-12-31', closed: false },
        { name: '2026', start: '2026-01-01', end: '2026-12-31', closed: false },
      ],
      accounts: {},
      journals: {},
      vat_codes: {},
      analytic_plans: {},
      analytic_accounts: {},
      schemes: {},
      partners: {},
      contacts: {},
      employees: {},
      payment_methods: {},
      payment_terms: {},
      attachments: {},
      invoices: {},
      entries: {},
      matchings: {},
    };
  }

  at(date: string, hour = 10) {
    this.ctx.now = `${date}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  }

  referenceData() {
    const { ledger, ctx } = this;
    const scheme = { id: ctx.mint('scheme'), code: 'PCMN', name: 'Belgian minimum chart of accounts' };
    const reporting = { id: ctx.mint('scheme'), code: 'NBB-AA', name: 'Annual accounts model (NBB)' };
    ledger.schemes[scheme.id] = scheme;
    ledger.schemes[reporting.id] = reporting;
    for (const [number, name, type, category] of CHART) {
      const account: LedgerAccount = {
        number,
        name,
        type,
        active: true,
        scheme_ids: Number(number[0]) <= 5 ? [scheme.id, reporting.id] : [scheme.id],
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
    journal('VEN', 'Sales', 'customer_invoice');
    journal('VNC', 'Sales credit notes', 'customer_refund');
    journal('ACH', 'Purchases', 'supplier_invoice');
    journal('ANC', 'Purchase credit notes', 'supplier_refund');
    const bank = journal('BNK', 'Bank current account', 'financial_operation', {
      counterpart_account: '550000',
      unallocated_account: '499000',
      iban: this.faker.finance.iban({ countryCode: 'BE' }),
      bank_name: pick(this.faker, ['KBC', 'Belfius', 'BNP Paribas Fortis', 'ING Belgium']),
      other_currencies_allowed: false,
    });
    const cash = journal('CSH', 'Cash', 'financial_operation', { counterpart_account: '570000' });
    journal('OD', 'Miscellaneous operations', 'miscellaneous_operation');

    const vat = (
      code: string,
      label: string,
      rate: number,
      type: LedgerVatCode['type'],
      scope: LedgerVatCode['scope'],
      extra: Partial<LedgerVatCode> = {},
    ) => {
      const record: LedgerVatCode = {
        id: ctx.mint('vat-code'),
        code,
        label,
        active: true,
        scope,
        rate,
        type,
        deductible_account: type === 'purchase' ? '411000' : null,
        payable_account: type === 'sale' ? '451000' : null,
        reversed: false,
        withholding_tax: false,
        country: 'BE',
        ...extra,
      };
      ledger.vat_codes[record.id] = record;
    };
    vat('V21', 'Sales 21%', 21, 'sale', 'nat');
    vat('V12', 'Sales 12%', 12, 'sale', 'nat');
    vat('V6', 'Sales 6%', 6, 'sale', 'nat');
    vat('V0', 'Sales exempt 0%', 0, 'sale', 'nat');
    vat('VIC', 'Intra-EU supplies 0%', 0, 'sale', 'eu');
    vat('VEX', 'Exports outside the EU 0%', 0, 'sale', 'int');
    vat('A21', 'Purchases 21%', 21, 'purchase', 'nat');
    vat('A12', 'Purchases 12%', 12, 'purchase', 'nat');
    vat('A6', 'Purchases 6%', 6, 'purchase', 'nat');
    vat('A0', 'Purchases exempt 0%', 0, 'purchase', 'nat');
    vat('AIC21', 'Intra-EU purchases 21% (reverse charge)', 21, 'purchase', 'eu', {
      reversed: true,
      payable_account: '451000',
    });
    vat('OLD21', 'Sales 21% (old code)', 21, 'sale', 'nat', { active: false });

    const departments = { id: ctx.mint('analytic-plan'), name: 'Departments', active: true, parent_id: null };
    const projects = { id: ctx.mint('analytic-plan'), name: 'Projects', active: true, parent_id: null };
    ledger.analytic_plans[departments.id] = departments;
    ledger.analytic_plans[projects.id] = projects;
    const analytic = (planId: string, code: string, name: string, active = true) => {
      const id = ctx.mint('analytic-account');
      ledger.analytic_accounts[id] = { id, plan_id: planId, code, name, active, currency: 'EUR' };
    };
    analytic(departments.id, 'SALES', 'Sales department');
    analytic(departments.id, 'OPS', 'Operations');
    analytic(departments.id, 'ADMIN', 'Administration');
    for (let i = 1; i <= 3; i++) analytic(projects.id, `PRJ-${100 + i}`, `Project ${this.faker.word.noun()}`);
    analytic(projects.id, 'PRJ-099', 'Closed project', false);

    for (const [name, journalId] of [
      ['Bank transfer', bank.id],
      ['Direct debit', bank.id],
      ['Card payment', bank.id],
      ['Cash', cash.id],
    ] as const) {
      const id = ctx.mint('payment-method');
      ledger.payment_methods[id] = { id, name, journal_id: journalId };
    }
    for (const [name, days, endOfMonth] of [
      ['Immediate', 0, false],
      ['15 days', 15, false],
      ['30 days', 30, false],
      ['30 days end of month', 30, true],
      ['60 days', 60, false],
    ] as const) {
      const id = ctx.mint('payment-term');
      ledger.payment_terms[id] = { id, name, days, end_of_month: endOfMonth };
    }
  }

  partner(role: 'client' | 'supplier' | 'both', index: number): LedgerPartner {
    const { faker, ledger, ctx } = this;
    const isCompany = role !== 'client' || faker.datatype.boolean(0.8);
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    const name = isCompany ? faker.company.name() : `${firstName} ${lastName}`;
    const country = faker.helpers.weightedArrayElement([
      { weight: 8, value: 'BE' },
      { weight: 1, value: 'FR' },
      { weight: 1, value: 'NL' },
    ]);
    const digits = country === 'FR' ? faker.string.numeric(11) : faker.string.numeric(9);
    const vat = isCompany ? `${country}${country === 'BE' ? '0' : ''}${digits}` : null;
    const iban = faker.finance.iban({ countryCode: country });
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '')
        .slice(0, 18) || 'partner';
    const created = `2024-0${1 + (index % 9)}-1${index % 10}T09:00:00.000Z`;
    const id = ctx.mint('partner');
    const prefix = role === 'supplier' ? 'S' : 'C';
    const counter = `partner:${prefix}`;
    ledger.counters[counter] = (ledger.counters[counter] ?? 0) + 1;
    const record: LedgerPartner = {
      id,
      is_client: role !== 'supplier',
      is_supplier: role !== 'client',
      code: `${prefix}${String(ledger.counters[counter]).padStart(5, '0')}`,
      external_reference: faker.datatype.boolean(0.5) ? `EXT-${faker.string.numeric(6)}` : null,
      first_name: isCompany ? null : firstName,
      last_name: isCompany ? null : lastName,
      name,
      function: null,
      is_company: isCompany,
      company_id: null,
      phone: faker.phone.number(),
      mobile: faker.datatype.boolean(0.5) ? faker.phone.number() : null,
      email: `${isCompany ? 'accounting' : firstName.toLowerCase().replace(/[^a-z]/g, '')}@${slug}.example`,
      language: pick(faker, ['fr', 'nl', 'en']),
      internal_notes: faker.datatype.boolean(0.2) ? 'Prefers invoices by e-mail' : null,
      website: isCompany ? `https://www.${slug}.example` : null,
      vat,
      company_number: vat && country === 'BE' ? `0${digits}` : null,
      iban,
      bank_account: null,
      currency: 'EUR',
      active: index % 11 !== 10,
      client_account: role !== 'supplier' ? ledger.defaults.receivable_account : null,
      supplier_account: role !== 'client' ? ledger.defaults.payable_account : null,
      addresses: [
        {
          address_type: 'main',
          name: null,
          number: faker.location.buildingNumber(),
          box: null,
          phone: null,
          mobile: null,
          email: null,
          street: faker.location.street(),
          city: faker.location.city(),
          postal_code: faker.location.zipCode('####'),
          country,
        },
      ],
      bank_accounts: [
        { is_primary: true, currency: 'EUR', iban, bic_swift: faker.finance.bic(), account_number: null },
      ],
      created_on: created,
      last_updated_on: created,
    };
    ledger.partners[id] = record;
    if (isCompany) {
      for (let i = 0; i < faker.number.int({ min: 1, max: 2 }); i++) {
        const first = faker.person.firstName();
        const last = faker.person.lastName();
        const contactId = ctx.mint('contact');
        ledger.contacts[contactId] = {
          id: contactId,
          partner_id: id,
          name: `${first} ${last}`,
          first_name: first,
          last_name: last,
          function: pick(faker, ['Accountant', 'Managing director', 'Purchasing manager', 'Office manager']),
          email: `${first.toLowerCase().replace(/[^a-z]/g, '') || 'contact'}@${slug}.example`,
          phone: faker.phone.number(),
          mobile: faker.datatype.boolean(0.5) ? faker.phone.number() : null,
        };
      }
    }
    return record;
  }

  employees() {
    const { faker, ledger, ctx } = this;
    for (let i = 0; i < 4; i++) {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const id = ctx.mint('employee');
      ledger.employees[id] = {
        id,
        name: `${first} ${last}`,
        first_name: first,
        last_name: last,
        function: pick(faker, ['Developer', 'Sales representative', 'Office manager', 'Technician']),
        phone: faker.phone.number(),
        mobile: faker.datatype.boolean(0.6) ? faker.phone.number() : null,
        email: `${first.toLowerCase().replace(/[^a-z]/g, '') || 'employee'}@${ledger.folder.name.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'company'}.example`,
        active: i < 2,
        reference: `EMP-${String(i + 1).padStart(3, '0')}`,
        account_number: ledger.defaults.employee_account,
      };
    }
  }

  vatCode(code: string): LedgerVatCode {
    const found = Object.values(this.ledger.vat_codes).find((v) => v.code === code);
    if (!found) throw new Error(`seed: no VAT code ${code}`);
    return found;
  }

  journalByCode(code: string): LedgerJournal {
    const found = Object.values(this.ledger.journals).find((j) => j.code === code);
    if (!found) throw new Error(`seed: no journal ${code}`);
    return found;
  }

  line(index: number, type: InvoiceTypeValue): LedgerInvoiceLine {
    const { faker, ledger } = this;
    const customer = type.startsWith('customer');
    const code = customer
      ? this.vatCode(
          faker.helpers.weightedArrayElement([
            { weight: 8, value: 'V21' },
            { weight: 1, value: 'V6' },
            { weight: 1, value: 'V12' },
          ]),
        )
      : this.vatCode(
          faker.helpers.weightedArrayElement([
            { weight: 8, value: 'A21' },
            { weight: 1, value: 'A6' },
            { weight: 1, value: 'AIC21' },
          ]),
        );
    const quantity = faker.number.int({ min: 1, max: 16 });
    const unitPrice = faker.number.float({ min: 15, max: 900, fractionDigits: 2 });
    const untaxed = round2(quantity * unitPrice);
    const tax = code.reversed ? 0 : round2((untaxed * code.rate) / 100);
    const plans = Object.values(ledger.analytic_plans);
    const department = Object.values(ledger.analytic_accounts).filter(
      (a) => a.plan_id === plans[0]?.id && a.active,
    );
    const analytic =
      faker.datatype.boolean(0.4) && plans[0] && department.length
        ? [
            {
              analytic_plan: plans[0].id,
              analytic_accounts: [{ analytic_account: pick(faker, department).id, percentage: 100 }],
            },
          ]
        : [];
    return {
      line_number: index + 1,
      unit_price: unitPrice,
      unit_of_measure: customer ? pick(faker, ['unit', 'hour', 'day']) : null,
      quantity,
      untaxed_amount: untaxed,
      tax_rate: code.rate,
      tax_amount: tax,
      total: round2(untaxed + tax),
      account_number: customer ? pick(faker, REVENUE_ACCOUNTS) : pick(faker, EXPENSE_ACCOUNTS),
      tax_code: code.id,
      description: customer ? pick(faker, PRODUCTS) : pick(faker, SUPPLIES),
      analytic_distribution: analytic,
    };
  }

  /** A payment term with a delay, for a new invoice. */
  term(): LedgerPaymentTerm {
    return pick(
      this.faker,
      Object.values(this.ledger.payment_terms).filter((t) => t.days > 0),
    );
  }

  invoice(
    type: InvoiceTypeValue,
    partner: LedgerPartner,
    date: string,
    term: LedgerPaymentTerm,
    lines?: LedgerInvoiceLine[],
  ): LedgerInvoice {
    const { faker, ledger } = this;
    const items =
      lines ?? Array.from({ length: faker.number.int({ min: 1, max: 3 }) }, (_, i) => this.line(i, type));
    const untaxed = round2(items.reduce((t, l) => t + l.untaxed_amount, 0));
    const tax = round2(items.reduce((t, l) => t + l.tax_amount, 0));
    const due = addDays(date, term.days);
    const method = Object.values(ledger.payment_methods)[0];
    const draft: InvoiceDraft = {
      invoice_type: type,
      invoice_number: null,
      currency: 'EUR',
      currency_exchange_rate: 1,
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: round2(untaxed + tax),
      reference: type.startsWith('supplier') ? `INV-${faker.string.numeric(6)}` : null,
      payment_communication:
        type === 'customer_invoice'
          ? `+++${faker.string.numeric(3)}/${faker.string.numeric(4)}/${faker.string.numeric(5)}+++`
          : null,
      customer_memo: null,
      payment_term_id: term.id,
      withholding_tax: null,
      invoice_date: date,
      due_date: due,
      partner_id: partner.id,
      journal_id: null,
      status: 'posted',
      pdf: null,
      pdf_name: null,
      payment_method_id: method?.id ?? null,
      start_date: null,
      end_date: null,
      shipping_country: null,
      approval_status: type.startsWith('supplier')
        ? faker.helpers.weightedArrayElement([
            { weight: 6, value: 'approved' as const },
            { weight: 2, value: 'pending' as const },
            { weight: 1, value: 'rejected' as const },
          ])
        : 'unknown',
      force_financial_period: null,
      regroup_lines: true,
      lines: items,
    };
    this.at(date, 9);
    const { invoice, change } = buildInvoice(ledger, draft, this.ctx);
    applyChange(ledger, change, this.ctx.now);
    return invoice;
  }

  /** Pays `share` of an invoice on a date: 1 pays it in full. */
  pay(invoice: LedgerInvoice, date: string, share: number) {
    const amount = share >= 1 ? invoice.total : round2(invoice.total * share);
    const methods = Object.values(this.ledger.payment_methods);
    const method = this.faker.helpers.weightedArrayElement([
      { weight: 8, value: methods[0] },
      { weight: 2, value: methods[1] },
    ]);
    if (!method) return;
    this.at(date, 14);
    const { change } = buildInvoicePayment(
      this.ledger,
      {
        date,
        payment_method_id: method.id,
        currency: invoice.currency,
        currency_exchange_rate: 1,
        reference: invoice.payment_communication ?? invoice.invoice_number,
        number: null,
        items: [{ invoice_id: invoice.id, amount }],
      },
      this.ctx,
    );
    applyChange(this.ledger, change, this.ctx.now);
  }

  /** A refund of part of an invoice, matched against it. */
  refund(invoice: LedgerInvoice, date: string) {
    const type: InvoiceTypeValue =
      invoice.invoice_type === 'customer_invoice' ? 'customer_refund' : 'supplier_refund';
    const first = invoice.lines[0];
    if (!first) return;
    const quantity = 1;
    const untaxed = round2(Math.min(first.unit_price, first.untaxed_amount));
    const code = this.ledger.vat_codes[first.tax_code];
    const tax = code?.reversed ? 0 : round2((untaxed * first.tax_rate) / 100);
    const line: LedgerInvoiceLine = {
      ...first,
      line_number: 1,
      quantity,
      unit_price: untaxed,
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: round2(untaxed + tax),
      description: `Credit note on ${invoice.invoice_number}`,
    };
    const partner = this.ledger.partners[invoice.partner_id];
    if (!partner) return;
    const refund = this.invoice(type, partner, date, this.term(), [line]);
    this.at(date, 15);
    const { change } = buildMatching(
      this.ledger,
      [invoice.partner_line_id, refund.partner_line_id],
      partner.id,
      this.ctx,
      date,
    );
    applyChange(this.ledger, change, this.ctx.now);
  }

  opening() {
    const od = this.journalByCode('OD');
    this.at('2024-01-02', 8);
    const capital = this.faker.number.int({ min: 20, max: 80 }) * 1000;
    const numbered = mintDocumentNumber(this.ledger, od, '2024');
    const { change } = buildJournalEntry(
      this.ledger,
      {
        journal_id: od.id,
        number: numbered.number,
        reference: 'Opening balance',
        due_date: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date: '2024-01-02',
        posted: true,
        pdf: null,
        pdf_name: null,
        start_date: null,
        end_date: null,
        origin: 'opening',
        items: [
          this.item('general_account', '550000', 'Capital paid in', capital, 0),
          this.item('general_account', '100000', 'Share capital', 0, capital),
        ],
      },
      this.ctx,
    );
    applyChange(this.ledger, { ...change, counters: numbered.counters }, this.ctx.now);
  }

  item(
    accountType: 'general_account' | 'employee_account',
    account: string,
    description: string,
    debit: number,
    credit: number,
  ) {
    return {
      account_type: accountType,
      account,
      force_general_account: null,
      description,
      debit,
      credit,
      analytic_distribution: [],
      tax_code: null,
      account_info: null,
    };
  }

  /** Monthly salaries, accrued in the miscellaneous journal; returns their payment from the bank. */
  salaries(month: string): (date: string) => void {
    const od = this.journalByCode('OD');
    const staff = Object.values(this.ledger.employees).filter((e) => e.active);
    const year = month.slice(0, 4);
    const nets = staff.map(() => this.faker.number.float({ min: 1900, max: 2900, fractionDigits: 2 }));
    const gross = round2(nets.reduce((t, n) => t + n * 1.45, 0));
    const netTotal = round2(nets.reduce((t, n) => t + n, 0));
    const withheld = round2(gross - netTotal);
    const accrual = `${month}-25`;
    this.at(accrual, 8);
    const accrued = mintDocumentNumber(this.ledger, od, year);
    const { change } = buildJournalEntry(
      this.ledger,
      {
        journal_id: od.id,
        number: accrued.number,
        reference: `Salaries ${month}`,
        due_date: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date: accrual,
        posted: true,
        pdf: null,
        pdf_name: null,
        start_date: `${month}-01`,
        end_date: accrual,
        origin: 'salary',
        items: [
          this.item('general_account', '620000', `Gross salaries ${month}`, gross, 0),
          this.item('general_account', '453000', 'Withholding tax and social security', 0, withheld),
          ...staff.map((e, i) =>
            this.item('employee_account', e.id, `Net salary ${e.name}`, 0, nets[i] ?? 0),
          ),
        ],
      },
      this.ctx,
    );
    applyChange(this.ledger, { ...change, counters: accrued.counters }, this.ctx.now);
    return (paidOn) => this.salaryPayment(month, paidOn, staff, nets, netTotal);
  }

  salaryPayment(month: string, paidOn: string, staff: LedgerEmployee[], nets: number[], netTotal: number) {
    const bank = this.journalByCode('BNK');
    const year = paidOn.slice(0, 4);
    this.at(paidOn, 8);
    const paid = mintDocumentNumber(this.ledger, bank, year);
    const payment = buildJournalEntry(
      this.ledger,
      {
        journal_id: bank.id,
        number: paid.number,
        reference: `Salaries ${month}`,
        due_date: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date: paidOn,
        posted: true,
        pdf: null,
        pdf_name: null,
        start_date: null,
        end_date: null,
        origin: 'salary',
        items: [
          ...staff.map((e, i) => this.item('employee_account', e.id, `Salary ${e.name}`, nets[i] ?? 0, 0)),
          this.item('general_account', '550000', `Salaries ${month}`, 0, netTotal),
        ],
      },
      this.ctx,
    );
    applyChange(this.ledger, { ...payment.change, counters: paid.counters }, this.ctx.now);
  }

  attach(invoice: LedgerInvoice) {
    const id = this.ctx.mint('attachment');
    this.ledger.attachments[id] = {
      id,
      document_type: 'invoice',
      document_id: invoice.id,
      filename: `${invoice.invoice_number.replace(/\W+/g, '-')}.pdf`,
      base64_string: tinyPdf(`${this.ledger.folder.name} - ${invoice.invoice_number} - ${invoice.total} EUR`),
      created_on: invoice.created_on,
    };
  }
}

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const MONTHS = [
  '2024-10',
  '2024-11',
  '2024-12',
  '2025-01',
  '2025-02',
  '2025-03',
  '2025-04',
  '2025-05',
  '2025-06',
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
  '2026-01',
];

/** Something that happens in the ledger's history; events run in date order. */
interface SeedEvent {
  date: string;
  /** Same day: invoices, then refunds, then payments, then salaries. */
  rank: number;
  run: () => void;
}

interface PlannedInvoice {
  type: InvoiceTypeValue;
  partner: LedgerPartner;
  date: string;
  term: LedgerPaymentTerm;
  booked?: LedgerInvoice;
}

export function seedLedger(options: SeedLedgerOptions): LedgerRecord {
  const s = new LedgerSeeder(options);
  const { faker, ledger } = s;
  s.referenceData();
  s.employees();
  const clients = Array.from({ length: 12 }, (_, i) => s.partner('client', i));
  const suppliers = Array.from({ length: 8 }, (_, i) => s.partner('supplier', i + 12));
  if (options.unifiedPartners) {
    const both = [s.partner('both', 20), s.partner('both', 21)];
    clients.push(...both);
    suppliers.push(...both);
  }
  const activeClients = clients.filter((p) => p.active);
  const activeSuppliers = suppliers.filter((p) => p.active);

  // Plan the history first, then book it in date order, so that numbers follow dates.
  const events: SeedEvent[] = [];
  const planned: PlannedInvoice[] = [];
  const day = (month: string) => {
    const last = month === MONTHS[MONTHS.length - 1] ? 12 : 28;
    return `${month}-${String(faker.number.int({ min: 1, max: last })).padStart(2, '0')}`;
  };
  for (const month of MONTHS) {
    for (let i = faker.number.int({ min: 2, max: 3 }); i > 0; i--) {
      planned.push({
        type: 'customer_invoice',
        partner: pick(faker, activeClients),
        date: day(month),
        term: s.term(),
      });
    }
    for (let i = faker.number.int({ min: 1, max: 2 }); i > 0; i--) {
      planned.push({
        type: 'supplier_invoice',
        partner: pick(faker, activeSuppliers),
        date: day(month),
        term: s.term(),
      });
    }
    if (month >= '2025-01' && month <= '2025-12') {
      let pay: ((date: string) => void) | undefined;
      events.push({ date: `${month}-25`, rank: 3, run: () => (pay = s.salaries(month)) });
      events.push({ date: `${month}-28`, rank: 3, run: () => pay?.(`${month}-28`) });
    }
  }
  for (const plan of planned) {
    events.push({
      date: plan.date,
      rank: 0,
      run: () => {
        plan.booked = s.invoice(plan.type, plan.partner, plan.date, plan.term);
      },
    });
  }
  // A few credit notes, each matched against the invoice it corrects; those invoices stay partly open.
  const refunded = new Set(
    faker.helpers.arrayElements(
      planned.filter((p) => p.date >= '2025-01-01' && p.date < '2025-11-01'),
      4,
    ),
  );
  for (const plan of refunded) {
    const date = addDays(plan.date, 7);
    events.push({ date, rank: 1, run: () => plan.booked && s.refund(plan.booked, date) });
  }
  // Payments: older invoices are mostly paid, recent ones mostly open; some are paid in part.
  for (const plan of planned) {
    if (refunded.has(plan)) continue;
    const due = addDays(plan.date, plan.term.days);
    const paidOn = addDays(due, faker.number.int({ min: -10, max: 12 }));
    const date = paidOn <= plan.date ? addDays(plan.date, 1) : paidOn;
    if (date > LAST_SEEDED_DAY) continue;
    const old = plan.date < '2025-10-01';
    const roll = faker.number.float({ min: 0, max: 1 });
    const share = (old ? roll < 0.88 : roll < 0.45) ? 1 : roll < (old ? 0.96 : 0.65) ? 0.5 : 0;
    if (share > 0) events.push({ date, rank: 2, run: () => plan.booked && s.pay(plan.booked, date, share) });
  }
  s.opening();
  events
    .map((event, index) => ({ event, index }))
    .sort(
      (a, b) => a.event.date.localeCompare(b.event.date) || a.event.rank - b.event.rank || a.index - b.index,
    )
    .forEach(({ event }) => {
      event.run();
    });
  planned.forEach((plan, i) => {
    if (i % 3 === 0 && plan.booked) s.attach(plan.booked);
  });
  const closed = ledger.bookyears.find((y) => y.name === '2024');
  if (closed) closed.closed = true;
  return ledger;
}
