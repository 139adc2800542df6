import { uuidFrom } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import { tinyPdf } from '../../lib/pdf.js';
import { LEGACY_UNTIL, untilOf } from '../../platform/seeding/dataset-seeder.js';
import { type Faker, fakerFor } from '../../platform/seeding/fakers.js';
import { pick } from '../../platform/seeding/vertical-data.js';
import {
  addDays,
  bookYearsOf,
  dayOf,
  type PlannedInvoice,
  planHistory,
  type SeedCalendar,
  type SeedEvent,
  seedCalendar,
} from './accounting.history.js';
import {
  type AccountRole,
  BALANCE_CATEGORIES,
  countryOfIntegration,
  type JournalRole,
  type LedgerProfile,
  type ProfileCountry,
  profileFor,
} from './accounting.profiles.js';
import type {
  InvoiceTypeValue,
  LedgerAccount,
  LedgerEmployee,
  LedgerEntry,
  LedgerFolder,
  LedgerInvoice,
  LedgerInvoiceLine,
  LedgerJournal,
  LedgerMatching,
  LedgerPartner,
  LedgerPaymentTerm,
  LedgerRecord,
  LedgerVatCode,
} from './accounting.records.js';
import { invoiceOpenCents } from './ledger/derived.js';
import { buildExpense, buildMiscellaneousOperation } from './ledger/documents.js';
import { fromCents, round2, sumCents } from './ledger/money.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
  type EntryDraft,
  type InvoiceDraft,
  mintDocumentNumber,
  type PostingContext,
} from './ledger/posting.js';
import { buildBankStatement, buildFinancialEntry, type FinancialLineDraft } from './ledger/treasury.js';

/**
 * The seeded ledger of one accounting folder, built from (seed, consumerid, folderid, until) alone:
 * the same values always give the same ledger, so a ledger can be built the first time a folder is
 * reached (a world of 100,000 consumers builds none up front) and rebuilt identically if it is lost.
 *
 * It is a small company of its connector's country, kept in that country's chart (see
 * accounting.profiles.ts: a Belgian PCMN chart, a French PCG, a Dutch RGS-style chart, the German
 * SKR03, the Spanish PGC): clients and suppliers, customer and supplier invoices and refunds, paid,
 * partly paid or open, their payments through the bank journal, monthly salaries, expense notes,
 * petty cash, bank statements, depreciation, attachments. Its history runs from January 2021 up to
 * `until` (the sandbox clock's day when the folder was first used): the last 16 months are the
 * busiest, the older ones sparser (see accounting.history.ts). Everything is booked with the same
 * posting functions as the API's writes, so the seeded ledger obeys every rule a write does. Every
 * seeded book year is open: vendors post with past dates, and a year is closed only when a test
 * closes it.
 */

/**
 * The folders (companies) a consumer reaches through an accounting integration, companies of the
 * integration's country (see countryOf): their address's country is the profile of their ledgers.
 */
export function seedFolders(
  seed: number,
  consumerid: string,
  integrationid: number,
  count: number,
  country: ProfileCountry = countryOfIntegration(integrationid),
): LedgerFolder[] {
  const { locale } = profileFor(country);
  return Array.from({ length: count }, (_, index) => {
    const id = uuidFrom('accounting-folder', seed, consumerid, integrationid, index);
    const faker = fakerFor('folder', seed, consumerid, id);
    const suffix = count > 1 ? ` (${['Holding', 'Services', 'Immo'][index] ?? index + 1})` : '';
    return { id, ...locale.folder(faker, suffix) };
  });
}

export interface SeedLedgerOptions {
  seed: number;
  consumerid: string;
  integrationid: number;
  /** Clients and suppliers are one entity (features.unified_partners): some partners are both. */
  unifiedPartners: boolean;
  folder: LedgerFolder;
  /** Records are dated up to this day (YYYY-MM-DD); LEGACY_UNTIL when absent. */
  until?: string | undefined;
  /**
   * Put old entries aside while booking the history (see LedgerSeeder.archiveBefore); default true.
   * Tests turn it off to check that it changes nothing.
   */
  archive?: boolean;
}

/** A faker and an id source: the recent window and the older history each draw from their own. */
export interface SeedStream {
  faker: Faker;
  ctx: PostingContext;
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Ids numbered in the order they are minted, as mintedIds of seed/dataset-seeder.ts. This module does
 * not import that one, which imports seed/datasets.ts, which imports the seeders of every vertical:
 * loaded first (as the ledger's own tests load it), it would have them extend a class not defined yet.
 */
function mintedIds(...parts: (string | number)[]): (kind: string) => string {
  let minted = 0;
  return (kind) => {
    minted += 1;
    return uuidFrom(...parts, kind, minted);
  };
}

/**
 * What the seed books never touches entries and matchings older than this: a payment comes at most
 * 72 days after its invoice (60 days of payment term, 12 days late), a credit note a week after, a
 * reimbursement or a salary payment within days.
 */
const ARCHIVE_AFTER_DAYS = 100;

export class LedgerSeeder {
  readonly ledger: LedgerRecord;
  readonly calendar: SeedCalendar;
  /** The recent window's invoices, payments and salaries, and everything seeded before the history. */
  readonly main: SeedStream;
  /** The older history, and the operations of every month besides the main stream's. */
  readonly history: SeedStream;
  /** The stream in use. */
  faker: Faker;
  ctx: PostingContext;
  /** The country profile of the folder: its chart, VAT codes, journals, formats and words. */
  readonly profile: LedgerProfile;
  /** Entries and matchings put aside while the history is booked (see `archiveBefore`), in their order. */
  readonly #archived: { entries: [string, LedgerEntry][]; matchings: [string, LedgerMatching][] } = {
    entries: [],
    matchings: [],
  };

  constructor(readonly options: SeedLedgerOptions) {
    const { seed, consumerid, folder } = options;
    this.profile = profileFor(folder.address.country);
    const accounts = this.profile.accounts;
    const until = options.until && ISO_DAY.test(options.until) ? untilOf(options) : LEGACY_UNTIL;
    this.calendar = seedCalendar(until);
    const now = `${this.calendar.opening}T08:00:00.000Z`;
    this.main = {
      faker: fakerFor('ledger', seed, consumerid, folder.id),
      ctx: { mint: mintedIds('ledger', seed, consumerid, folder.id), now },
    };
    this.history = {
      faker: fakerFor('ledger-history', seed, consumerid, folder.id),
      ctx: { mint: mintedIds('ledger-history', seed, consumerid, folder.id), now },
    };
    this.faker = this.main.faker;
    this.ctx = this.main.ctx;
    this.ledger = {
      consumerid,
      folderid: folder.id,
      integrationid: options.integrationid,
      counters: {},
      folder,
      defaults: {
        receivable_account: accounts.receivable,
        payable_account: accounts.payable,
        employee_account: accounts.employee,
      },
      bookyears: bookYearsOf(this.calendar),
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

  use(stream: SeedStream) {
    this.faker = stream.faker;
    this.ctx = stream.ctx;
  }

  /**
   * The posting functions read the whole ledger (the numbers a journal took, the amounts matched...),
   * which would make booking years of history quadratic. What the seed books next never touches the
   * entries and matchings dated before `day` (see ARCHIVE_AFTER_DAYS), so they are put aside while the
   * history is booked, and put back by `unarchive`: the same ledger, built in linear time. Events run
   * in date order, so what is put aside always came first, and goes back first.
   */
  archiveBefore(day: string) {
    const { ledger } = this;
    for (const [id, entry] of Object.entries(ledger.entries)) {
      if (entry.date >= day) continue;
      this.#archived.entries.push([id, entry]);
      delete ledger.entries[id];
    }
    for (const [number, matching] of Object.entries(ledger.matchings)) {
      if (matching.date >= day) continue;
      this.#archived.matchings.push([number, matching]);
      delete ledger.matchings[number];
    }
  }

  unarchive() {
    const { ledger } = this;
    ledger.entries = Object.fromEntries([...this.#archived.entries, ...Object.entries(ledger.entries)]);
    ledger.matchings = Object.fromEntries([...this.#archived.matchings, ...Object.entries(ledger.matchings)]);
    this.#archived.entries = [];
    this.#archived.matchings = [];
  }

  at(date: string, hour = 10) {
    this.ctx.now = `${date}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  }

  /** The account of a role in the folder's chart. */
  account(role: AccountRole): string {
    return this.profile.accounts[role];
  }

  referenceData() {
    const { ledger, ctx, profile } = this;
    const { accounts, words } = profile;
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
              iban: this.faker.finance.iban({ countryCode: profile.country }),
              bank_name: pick(this.faker, profile.locale.banks),
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
    for (let i = 1; i <= 3; i++) analytic(projects.id, `PRJ-${100 + i}`, words.project(this.faker));
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

  partner(role: 'client' | 'supplier' | 'both', index: number): LedgerPartner {
    const { faker, ledger, ctx } = this;
    const { locale, words } = this.profile;
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
    const created = `${this.calendar.firstYear - 1}-0${1 + (index % 9)}-1${index % 10}T09:00:00.000Z`;
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
      addresses: [this.address(country)],
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
  address(country: string): LedgerPartner['addresses'][number] {
    const { faker } = this;
    const number = faker.location.buildingNumber();
    const { street, city, postal_code } = this.profile.locale.place(faker, country);
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

  employees() {
    const { faker, ledger, ctx } = this;
    const { locale, words } = this.profile;
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

  /** The folder's journal of a role (its bank journal, its miscellaneous operations...). */
  journal(role: JournalRole): LedgerJournal {
    const definition = this.profile.journals.find((j) => j.role === role);
    if (!definition) throw new Error(`seed: no ${role} journal`);
    return this.journalByCode(definition.code);
  }

  line(index: number, type: InvoiceTypeValue): LedgerInvoiceLine {
    const { faker, ledger, profile } = this;
    const customer = type.startsWith('customer');
    const code = this.vatCode(
      faker.helpers.weightedArrayElement([...(customer ? profile.vatDraws.sale : profile.vatDraws.purchase)]),
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
      account_number: customer ? pick(faker, profile.revenue) : pick(faker, profile.expenses),
      tax_code: code.id,
      description: customer ? pick(faker, profile.words.products) : pick(faker, profile.words.supplies),
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
    maxLines = 3,
  ): LedgerInvoice {
    const draft = this.invoiceDraft(type, partner, date, term, lines, maxLines);
    this.at(date, 9);
    const { invoice, change } = buildInvoice(this.ledger, draft, this.ctx);
    applyChange(this.ledger, change, this.ctx.now);
    return invoice;
  }

  /** An invoice as the seed draws it (its lines unless given, its references), before it is booked. */
  invoiceDraft(
    type: InvoiceTypeValue,
    partner: LedgerPartner,
    date: string,
    term: LedgerPaymentTerm,
    lines?: LedgerInvoiceLine[],
    maxLines = 3,
  ): InvoiceDraft {
    const { faker, ledger } = this;
    const items =
      lines ??
      Array.from({ length: faker.number.int({ min: 1, max: maxLines }) }, (_, i) => this.line(i, type));
    const untaxed = round2(items.reduce((t, l) => t + l.untaxed_amount, 0));
    const tax = round2(items.reduce((t, l) => t + l.tax_amount, 0));
    const due = addDays(date, term.days);
    const method = Object.values(ledger.payment_methods)[0];
    return {
      invoice_type: type,
      invoice_number: null,
      currency: 'EUR',
      currency_exchange_rate: 1,
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: round2(untaxed + tax),
      reference: type.startsWith('supplier') ? this.profile.supplierReference(faker) : null,
      payment_communication: type === 'customer_invoice' ? this.profile.paymentReference(faker) : null,
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
  }

  /** Pays `share` of an invoice on a date: 1 pays it in full. */
  pay(invoice: LedgerInvoice, date: string, share: number) {
    this.settle(invoice, date, share >= 1 ? invoice.total : round2(invoice.total * share));
  }

  /** Pays what is left open of an invoice (or a refund) on a date. */
  payOpen(invoice: LedgerInvoice, date: string) {
    const open = invoiceOpenCents(this.ledger, invoice);
    if (open > 0) this.settle(invoice, date, fromCents(open));
  }

  /** Pays `amount` of an invoice through the bank, mostly by transfer. */
  settle(invoice: LedgerInvoice, date: string, amount: number) {
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
    const code = own(this.ledger.vat_codes, first.tax_code);
    const tax = code?.reversed ? 0 : round2((untaxed * first.tax_rate) / 100);
    const line: LedgerInvoiceLine = {
      ...first,
      line_number: 1,
      quantity,
      unit_price: untaxed,
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: round2(untaxed + tax),
      description: this.profile.words.creditNoteOn(invoice.invoice_number),
    };
    const partner = own(this.ledger.partners, invoice.partner_id);
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

  /** The capital paid in when the history starts. */
  opening() {
    const od = this.journal('misc');
    const { words } = this.profile;
    const date = this.calendar.opening;
    this.at(date, 8);
    const capital = this.faker.number.int({ min: 20, max: 80 }) * 1000;
    const numbered = mintDocumentNumber(this.ledger, od, date.slice(0, 4));
    const { change } = buildJournalEntry(
      this.ledger,
      {
        journal_id: od.id,
        number: numbered.number,
        reference: words.openingBalance,
        due_date: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date,
        posted: true,
        pdf: null,
        pdf_name: null,
        start_date: null,
        end_date: null,
        origin: 'opening',
        items: [
          this.item('general_account', this.account('bank'), words.capitalPaidIn, capital, 0),
          this.item('general_account', this.account('capital'), words.shareCapital, 0, capital),
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
  salaries(
    month: string,
    staff = Object.values(this.ledger.employees).filter((e) => e.active),
  ): (date: string) => void {
    const od = this.journal('misc');
    const nets = staff.map(() => this.faker.number.float({ min: 1900, max: 2900, fractionDigits: 2 }));
    this.at(`${month}-25`, 8);
    const accrued = mintDocumentNumber(this.ledger, od, month.slice(0, 4));
    const { change } = buildJournalEntry(
      this.ledger,
      this.salaryAccrual(od, accrued.number, month, staff, nets),
      this.ctx,
    );
    applyChange(this.ledger, { ...change, counters: accrued.counters }, this.ctx.now);
    return (paidOn) => this.salaryPayment(month, paidOn, staff, nets);
  }

  salaryPayment(month: string, paidOn: string, staff: LedgerEmployee[], nets: number[]) {
    const bank = this.journal('bank');
    this.at(paidOn, 8);
    const paid = mintDocumentNumber(this.ledger, bank, paidOn.slice(0, 4));
    const payment = buildJournalEntry(
      this.ledger,
      this.salaryPaymentDraft(bank, paid.number, month, paidOn, staff, nets),
      this.ctx,
    );
    applyChange(this.ledger, { ...payment.change, counters: paid.counters }, this.ctx.now);
  }

  /** The entry of the `journal` (miscellaneous) that accrues a month's salaries, the staff's nets on the 25th. */
  salaryAccrual(
    journal: LedgerJournal,
    number: string,
    month: string,
    staff: LedgerEmployee[],
    nets: number[],
  ): EntryDraft {
    const gross = round2(nets.reduce((t, n) => t + n * 1.45, 0));
    const netTotal = round2(nets.reduce((t, n) => t + n, 0));
    const withheld = round2(gross - netTotal);
    const accrual = `${month}-25`;
    const { words } = this.profile;
    return {
      journal_id: journal.id,
      number,
      reference: words.salaries(month),
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
        this.item('general_account', this.account('gross_salaries'), words.grossSalaries(month), gross, 0),
        this.item('general_account', this.account('withholding'), words.withheld, 0, withheld),
        ...staff.map((e, i) => this.item('employee_account', e.id, words.netSalary(e.name), 0, nets[i] ?? 0)),
      ],
    };
  }

  /** The entry of the `journal` (the bank) that pays a month's salaries on `paidOn`. */
  salaryPaymentDraft(
    journal: LedgerJournal,
    number: string,
    month: string,
    paidOn: string,
    staff: LedgerEmployee[],
    nets: number[],
  ): EntryDraft {
    const netTotal = round2(nets.reduce((t, n) => t + n, 0));
    const { words } = this.profile;
    return {
      journal_id: journal.id,
      number,
      reference: words.salaries(month),
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
        ...staff.map((e, i) => this.item('employee_account', e.id, words.salary(e.name), nets[i] ?? 0, 0)),
        this.item('general_account', this.account('bank'), words.salaries(month), 0, netTotal),
      ],
    };
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

  /** A credit note of its own (a commercial gesture on one item), open until it is paid back. */
  gesture(type: 'customer_refund' | 'supplier_refund', partner: LedgerPartner, date: string): LedgerInvoice {
    const base = this.line(0, type);
    const reversed = own(this.ledger.vat_codes, base.tax_code)?.reversed ?? false;
    const tax = reversed ? 0 : round2((base.unit_price * base.tax_rate) / 100);
    const line: LedgerInvoiceLine = {
      ...base,
      quantity: 1,
      untaxed_amount: base.unit_price,
      tax_amount: tax,
      total: round2(base.unit_price + tax),
      description:
        type === 'customer_refund' ? this.profile.words.commercialGesture : this.profile.words.returnedGoods,
    };
    return this.invoice(type, partner, date, this.term(), [line]);
  }

  /** An expense note of an employee, booked in the miscellaneous journal; returns what is owed. */
  expense(date: string, employee: LedgerEmployee): number {
    const { faker, ledger, profile } = this;
    const code = this.vatCode(profile.standardVat.purchase);
    const lines = Array.from({ length: faker.number.int({ min: 1, max: 2 }) }, () => {
      const [description, account] = pick(faker, profile.words.expenseItems);
      const untaxed = faker.number.float({ min: 12, max: 240, fractionDigits: 2 });
      const tax = round2((untaxed * code.rate) / 100);
      return {
        total: round2(untaxed + tax),
        untaxed_amount: untaxed,
        tax_amount: tax,
        description,
        account_number: account,
        tax_rate: code.rate,
        tax_id: code.id,
      };
    });
    const untaxed = fromCents(sumCents(lines.map((l) => l.untaxed_amount)));
    const tax = fromCents(sumCents(lines.map((l) => l.tax_amount)));
    const total = fromCents(sumCents([untaxed, tax]));
    this.at(date, 11);
    const { change } = buildExpense(
      ledger,
      {
        employee_id: employee.id,
        total,
        untaxed_amount: untaxed,
        tax_amount: tax,
        reference: profile.words.expenses(employee.name, date.slice(0, 7)),
        number: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date,
        pdf: null,
        pdf_name: null,
        lines,
      },
      this.ctx,
    );
    applyChange(ledger, change, this.ctx.now);
    return total;
  }

  /** A financial entry of the bank or cash journal. */
  financial(date: string, journal: JournalRole, reference: string, items: FinancialLineDraft[]) {
    this.at(date, 12);
    const { change } = buildFinancialEntry(
      this.ledger,
      {
        date,
        journal_id: this.journal(journal).id,
        currency: 'EUR',
        currency_exchange_rate: 1,
        reference,
        number: null,
        pdf: null,
        pdf_name: null,
        counterpart_account: null,
        items,
      },
      this.ctx,
    );
    applyChange(this.ledger, change, this.ctx.now);
  }

  /** An employee's expenses paid back from the bank. */
  reimburse(date: string, employee: LedgerEmployee, amount: number) {
    const { words } = this.profile;
    this.financial(date, 'bank', words.expensesOf(employee.name), [
      {
        account_type: 'employee_account',
        account: employee.id,
        force_general_account: null,
        amount: -amount,
        description: words.reimbursed(employee.name),
        tax: null,
        automated_matching_number: null,
      },
    ]);
  }

  /** A small sale over the counter, or a small purchase, through the cash journal, VAT included. */
  pettyCash(date: string, sale: boolean) {
    const { standardVat, words } = this.profile;
    const code = this.vatCode(sale ? standardVat.sale : standardVat.purchase);
    const untaxed = this.faker.number.float({ min: 8, max: 180, fractionDigits: 2 });
    const description = sale ? words.counterSale : words.officeSupplies;
    this.financial(date, 'cash', description, [
      {
        account_type: 'general_account',
        account: this.account(sale ? 'sales' : 'supplies'),
        force_general_account: null,
        amount: sale ? untaxed : -untaxed,
        description,
        tax: {
          tax_code: code.id,
          tax_amount: round2((untaxed * code.rate) / 100),
          vat_account: null,
          reversed_vat_account: null,
          description: null,
        },
        automated_matching_number: null,
      },
    ]);
  }

  /** The bank's statement of a quarter's fees (and of a half-year's interest), one entry per transaction. */
  bankStatement(date: string, interest: boolean) {
    const bank = this.journal('bank');
    const { words } = this.profile;
    const month = date.slice(0, 7).replace('-', '');
    const transaction = (n: number, account: string, description: string, amount: number) => ({
      general_ledger_account: account,
      description,
      external_transaction_id: `TRX-${month}-${n}`,
      amount,
      fee_amount: 0,
      tax_amount: 0,
      currency_exchange_rate: 1,
      counterpart: null,
    });
    const fees = -this.faker.number.float({ min: 6, max: 30, fractionDigits: 2 });
    const items = [transaction(1, this.account('bank_charges'), words.accountFees, fees)];
    if (interest) {
      const earned = this.faker.number.float({ min: 0.5, max: 12, fractionDigits: 2 });
      items.push(transaction(2, this.account('financial_income'), words.interest, earned));
    }
    this.at(date, 7);
    const { change } = buildBankStatement(
      this.ledger,
      {
        date,
        bank_account_id: bank.id,
        currency: 'EUR',
        external_bank_statement_id: `STM-${month}`,
        opening_balance: null,
        pdf: null,
        pdf_name: null,
        items,
      },
      this.ctx,
    );
    applyChange(this.ledger, change, this.ctx.now);
  }

  /** The depreciation of a quarter, as a miscellaneous operation. */
  depreciation(date: string) {
    const amount = this.faker.number.int({ min: 30, max: 90 }) * 10;
    const line = (n: number, account: string, signed: number) => ({
      line_number: n,
      description: this.profile.words.depreciation(date.slice(0, 7)),
      amount: signed,
      type: 'general_account' as const,
      account_number: account,
      partner_id: null,
      analytic_account: null,
    });
    this.at(date, 16);
    const { change } = buildMiscellaneousOperation(
      this.ledger,
      {
        operation_number: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        operation_date: date,
        journal_id: this.journal('misc').id,
        status: 'posted',
        lines: [
          line(1, this.account('depreciation'), -amount),
          line(2, this.account('depreciated_asset'), amount),
        ],
      },
      this.ctx,
    );
    applyChange(this.ledger, change, this.ctx.now);
  }

  /** The taxes a year is expected to owe, accrued on its last day by a journal entry. */
  yearEnd(date: string) {
    const od = this.journal('misc');
    const { words } = this.profile;
    const amount = this.faker.number.int({ min: 20, max: 120 }) * 50;
    this.at(date, 17);
    const numbered = mintDocumentNumber(this.ledger, od, date.slice(0, 4));
    const { change } = buildJournalEntry(
      this.ledger,
      {
        journal_id: od.id,
        number: numbered.number,
        reference: words.estimatedTaxesOf(date.slice(0, 4)),
        due_date: null,
        currency: 'EUR',
        currency_exchange_rate: 1,
        date,
        posted: true,
        pdf: null,
        pdf_name: null,
        start_date: `${date.slice(0, 4)}-01-01`,
        end_date: date,
        origin: 'journal_entry',
        items: [
          this.item('general_account', this.account('income_tax'), words.estimatedTaxes, amount, 0),
          this.item('general_account', this.account('estimated_taxes'), words.estimatedTaxes, 0, amount),
        ],
      },
      this.ctx,
    );
    applyChange(this.ledger, { ...change, counters: numbered.counters }, this.ctx.now);
  }
}

export function seedLedger(options: SeedLedgerOptions): LedgerRecord {
  return seededLedger(options).seeder.ledger;
}

/** A payment the history planned on a day after its last: the days after the history book it. */
export interface LaterPayment {
  invoice: LedgerInvoice;
  date: string;
}

/** A seeded ledger, with what the days after its history go on from. */
export interface SeededLedger {
  seeder: LedgerSeeder;
  /** The active clients and suppliers, those the business goes on with. */
  clients: LedgerPartner[];
  suppliers: LedgerPartner[];
  /** The payments of the recent invoices that fall after the history's last day, by date. */
  later: LaterPayment[];
}

/** Seeds a folder's ledger (see seedLedger), keeping the seeder and the payments planned after it. */
export function seededLedger(options: SeedLedgerOptions): SeededLedger {
  const s = new LedgerSeeder(options);
  const { faker, calendar } = s;
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

  // Plan the history first, then book it in date order, so that numbers follow dates. The recent
  // window comes from the main stream: 2 or 3 sales and 1 or 2 purchases a month, salaries from its
  // fourth month to the one before `until`'s, a few credit notes, older invoices mostly paid.
  const events: SeedEvent[] = [];
  const planned: PlannedInvoice[] = [];
  const { window, lastDay } = calendar;
  const main = s.main;
  /** The first day of the window's i-th month (its last month past the end). */
  const monthStart = (i: number) => `${window[Math.min(i, window.length - 1)]}-01`;
  const lastMonth = window[window.length - 1];
  const day = (month: string) =>
    dayOf(calendar, faker, month, month === lastMonth ? calendar.lastMonthDays : 28);
  const mainSalaries = new Set(window.slice(3, -1));
  for (const month of window) {
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
    if (mainSalaries.has(month)) {
      let pay: ((date: string) => void) | undefined;
      events.push({ date: `${month}-25`, rank: 3, stream: main, run: () => (pay = s.salaries(month)) });
      events.push({ date: `${month}-28`, rank: 3, stream: main, run: () => pay?.(`${month}-28`) });
    }
  }
  for (const plan of planned) {
    events.push({
      date: plan.date,
      rank: 0,
      stream: main,
      run: () => {
        plan.booked = s.invoice(plan.type, plan.partner, plan.date, plan.term);
      },
    });
  }
  // A few credit notes, each matched against the invoice it corrects; those invoices stay partly open.
  const refunded = new Set(
    faker.helpers.arrayElements(
      planned.filter((p) => p.date >= monthStart(3) && p.date < monthStart(13)),
      4,
    ),
  );
  for (const plan of refunded) {
    const date = addDays(plan.date, 7);
    if (date > lastDay) continue;
    events.push({ date, rank: 1, stream: main, run: () => plan.booked && s.refund(plan.booked, date) });
  }
  // Payments: older invoices are mostly paid, recent ones mostly open; some are paid in part. Those
  // that fall after the last day are left to the days after the history.
  const later: { plan: PlannedInvoice; date: string }[] = [];
  for (const plan of planned) {
    if (refunded.has(plan)) continue;
    const due = addDays(plan.date, plan.term.days);
    const paidOn = addDays(due, faker.number.int({ min: -10, max: 12 }));
    const date = paidOn <= plan.date ? addDays(plan.date, 1) : paidOn;
    if (date > lastDay) {
      later.push({ plan, date });
      continue;
    }
    const old = plan.date < monthStart(12);
    const roll = faker.number.float({ min: 0, max: 1 });
    const share = (old ? roll < 0.88 : roll < 0.45) ? 1 : roll < (old ? 0.96 : 0.65) ? 0.5 : 0;
    if (share > 0) {
      events.push({ date, rank: 2, stream: main, run: () => plan.booked && s.pay(plan.booked, date, share) });
    }
  }
  s.opening();
  const history = planHistory(
    s,
    events,
    { clients: activeClients, suppliers: activeSuppliers },
    mainSalaries,
  );
  let month = '';
  const archive = options.archive ?? true;
  events
    .map((event, index) => ({ event, index }))
    .sort(
      (a, b) => a.event.date.localeCompare(b.event.date) || a.event.rank - b.event.rank || a.index - b.index,
    )
    .forEach(({ event }) => {
      if (archive && event.date.slice(0, 7) !== month) {
        month = event.date.slice(0, 7);
        s.archiveBefore(addDays(event.date, -ARCHIVE_AFTER_DAYS));
      }
      s.use(event.stream);
      event.run();
    });
  s.unarchive();
  s.use(main);
  planned.forEach((plan, i) => {
    if (i % 3 === 0 && plan.booked) s.attach(plan.booked);
  });
  s.use(s.history);
  history.invoices.forEach((plan, i) => {
    if (i % 6 === 0 && plan.booked) s.attach(plan.booked);
  });
  return {
    seeder: s,
    clients: activeClients,
    suppliers: activeSuppliers,
    later: later
      .flatMap(({ plan, date }) => (plan.booked ? [{ invoice: plan.booked, date }] : []))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}
