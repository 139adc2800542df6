import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { tinyPdf } from '../../../lib/pdf.js';
import { LEGACY_UNTIL, untilOf } from '../../../platform/seeding/dataset-seeder.js';
import { type Faker, fakerFor } from '../../../platform/seeding/fakers.js';
import { pick } from '../../../platform/seeding/vertical-data.js';
import {
  type AccountRole,
  countryOfIntegration,
  type JournalRole,
  type LedgerProfile,
  type ProfileCountry,
  profileFor,
} from '../model/accounting.profiles.js';
import type {
  InvoiceTypeValue,
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
} from '../model/accounting.records.js';
import { invoiceOpenCents } from '../model/ledger/derived.js';
import { fromCents, round2 } from '../model/ledger/money.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
  type InvoiceDraft,
  mintDocumentNumber,
  type PostingContext,
} from '../model/ledger/posting.js';
import { addDays, bookYearsOf, type SeedCalendar, seedCalendar } from './accounting.history.js';

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
export const ARCHIVE_AFTER_DAYS = 100;

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
}

export { type LaterPayment, type SeededLedger, seededLedger, seedLedger } from './seed/seeded-ledger.js';
