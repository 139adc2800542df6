import { own } from '../../../lib/own.js';
import { localNames } from '../../../platform/local-names.js';
import { DatasetSeeder, type SeedInput } from '../../../platform/seeding/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  belgianCompanyNumber,
  dayBetween,
  round2,
  workingDayFrom,
  workingDayIn,
} from '../../../platform/seeding/finance-fakes.js';
import {
  addMonths,
  dayOfMonth,
  type HistoryMonth,
  historyStart,
  monthEnd,
  monthStart,
  monthsBetween,
} from '../../../platform/seeding/vertical-data.js';
import type {
  InvoicingBankAccount,
  InvoicingContact,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceTypeValue,
} from '../model/invoicing.records.js';
import {
  type Accounts,
  Books,
  type InvoicingMaker,
  nextInvoiceNumber,
  nextSourceId,
  OPPORTUNITY_TOPICS,
  PAYMENT_METHODS,
  type Partner,
  PRODUCTS,
  ref,
} from './invoicing.books.js';
import {
  companyNameIn,
  ibanIn,
  invoicingCountryOf,
  landlineIn,
  languageIn,
  mobileIn,
  type PartnerCountry,
  partnerIds,
  placeIn,
} from './invoicing.countries.js';
import { INVOICING_NAMES } from './invoicing.names.js';
import { opportunityRecord, PIPE_STAGES } from './invoicing.opportunities.js';

/**
 * The seeded invoicing software of one connection, built from (seed, consumerid, connectionid) and
 * its `until` day alone, so that it can be built the first time the connection is used and rebuilt
 * identically.
 *
 * A small services company of the connector's country (invoicing.countries.ts: a Belgian one for
 * Billit, a French one for Evoliz...) selling consulting and some goods: its country's taxes, products
 * (goods keep a stock that the posted invoices move), customers, suppliers and prospects, mostly of
 * its country, customer and supplier invoices and credit notes of the year before `until` up to its
 * eve (for the default clock, 2025-01-02 to 2026-01-14: paid, partly paid, open, a few drafts and one
 * cancelled), their payments, the bank statement lines that carry the bank-transfer payments, bank
 * fees and an internal transfer, and a sales pipeline of opportunities. Before that year, back to January 2021, the older
 * history holds a service invoice a month, a purchase every other month, a credit note of each kind
 * and an export a year, their payments and the monthly bank fees. After `until`'s morning, the
 * business goes on with the clock, as it happens (liveInvoicingDays).
 */

export { type Accounts, Books, type InvoicingMaker, nextInvoiceNumber, nextSourceId };

/** The recent window starts on the 2nd of the month this many months before `until`'s. */
export const INVOICING_RECENT_MONTHS = 12;

class InvoicingSeeder extends DatasetSeeder<InvoicingDataset> {
  readonly books = new Books(this);
  readonly country = invoicingCountryOf(this.options.integrationid);
  readonly names = localNames(INVOICING_NAMES, this.country.country);

  /** The first day of the recent window (for the default clock, 2025-01-02). */
  readonly first = addDays(monthStart(addMonths(this.until, -INVOICING_RECENT_MONTHS)), 1);
  /** The last day with activity: the eve of `until`. */
  readonly last = addDays(this.until, -1);
  /** The first day of the older history. */
  readonly origin = historyStart(this.until);

  constructor(options: SeedInput) {
    super('invoicing', options, {
      counters: {},
      taxes: {},
      products: {},
      contacts: {},
      payment_methods: {},
      invoices: {},
      payments: {},
      bank_accounts: {},
      bank_transactions: {},
      opportunities: {},
      documents: {},
    });
  }

  /** The software's own number of a record (its source_ref id). */
  sourceId(prefix: string): string {
    return nextSourceId(this.data, prefix);
  }

  taxes() {
    for (const [rate, label, code, type, scope, active] of this.country.taxes) {
      const id = this.id('tax');
      this.data.taxes[id] = {
        id,
        source_ref: ref(this.sourceId('T'), 'tax'),
        label,
        rate,
        type,
        code,
        scope,
        active,
      };
    }
  }

  products() {
    const names = this.names;
    for (const [drawn, code, drawnUnit, category, price, tax, stock] of PRODUCTS) {
      const [name, unit] = [names(drawn), names(drawnUnit)];
      const id = this.id('product');
      this.data.products[id] = {
        id,
        source_ref: ref(this.sourceId('P'), 'product'),
        name,
        unit_price: price,
        tax_id: this.books.taxByCode(this.country.productTaxes[tax]).id,
        code,
        unit,
        category: names(category),
        currency: 'EUR',
        description:
          stock === null
            ? names.format('{}, billed per {}', name.replace(/ \(.*\)$/, ''), unit)
            : names.format('{}, sold per {}', name, unit),
        cost: round2(price * this.faker.number.float({ min: 0.45, max: 0.7 })),
        initial_stock: stock,
        created_on: at(this.origin, 8),
      };
    }
  }

  /**
   * An address: of the partner's country outside Belgium (drawn before, with the partner), else of a
   * country drawn here, with the Belgian faker's places, as the Belgian company always drew it.
   */
  address(type: InvoicingContact['addresses'][number]['address_type'], partner?: Partner) {
    const f = this.faker;
    if (partner) {
      const place = type === 'main' ? partner.place : placeIn(f, partner.country);
      return {
        address_type: type,
        name: null,
        number: f.location.buildingNumber(),
        box: null,
        phone: null,
        mobile: null,
        email: null,
        street: place.street,
        city: place.city,
        postal_code: place.postal_code,
        country: partner.country,
      };
    }
    const country = f.helpers.weightedArrayElement([
      { weight: 8, value: 'BE' },
      { weight: 1, value: 'FR' },
      { weight: 1, value: 'NL' },
    ]);
    return {
      address_type: type,
      name: null,
      number: f.location.buildingNumber(),
      box: f.datatype.boolean(0.2) ? String(f.number.int({ min: 1, max: 12 })) : null,
      phone: null,
      mobile: null,
      email: null,
      street: f.location.street(),
      city: f.location.city(),
      postal_code: f.location.zipCode('####'),
      country,
    };
  }

  /**
   * A partner of a company outside Belgium, drawn before the rest of its contact: its country (mostly
   * the company's; a USD customer's the United States), its ids, phones, language and main address,
   * all of that country.
   */
  partner(company: boolean, currency: string): Partner {
    const f = this.faker;
    const country: PartnerCountry =
      currency === 'EUR' ? f.helpers.weightedArrayElement([...this.country.partners]) : 'US';
    const ids = company && country !== 'US' ? partnerIds(f, country) : null;
    return {
      country,
      vat: ids?.vat ?? null,
      company: ids?.company ?? null,
      phone: f.datatype.boolean(0.8) ? landlineIn(f, country) : null,
      mobile: f.datatype.boolean(0.5) ? mobileIn(f, country) : null,
      language: languageIn(country),
      place: placeIn(f, country),
    };
  }

  contact(role: 'customer' | 'supplier' | 'prospect' | 'both', company: boolean, currency = 'EUR') {
    const f = this.faker;
    const id = this.id('contact');
    // A Belgian company draws its partners' ids, phones and address as it always did, in the course of
    // the contact; a company of another country draws them first, of the partner's country.
    const partner = this.country.country === 'BE' ? undefined : this.partner(company, currency);
    const first = company ? null : f.person.firstName();
    const last = company ? null : f.person.lastName();
    const companyName = company ? (partner ? companyNameIn(f, partner.country) : f.company.name()) : null;
    const number = company && !partner ? belgianCompanyNumber(f) : null;
    const slug = (companyName ?? `${first}.${last}`)
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const isCustomer = role === 'customer' || role === 'both';
    const isSupplier = role === 'supplier' || role === 'both';
    const sequence = Object.keys(this.data.contacts).length + 1;
    const record: InvoicingContact = {
      id,
      source_ref: ref(this.sourceId('C'), 'contact'),
      is_prospect: role === 'prospect',
      is_customer: isCustomer,
      is_supplier: isSupplier,
      is_company: company,
      company_name: companyName,
      first_name: first,
      last_name: last,
      email: `${company ? 'accounting' : 'contact'}@${slug || 'example'}.example`,
      phone: partner
        ? partner.phone
        : f.datatype.boolean(0.8)
          ? `+32 2 ${f.string.numeric(3)} ${f.string.numeric(2)} ${f.string.numeric(2)}`
          : null,
      mobile: partner
        ? partner.mobile
        : f.datatype.boolean(0.5)
          ? `+32 4${f.string.numeric(2)} ${f.string.numeric(2)} ${f.string.numeric(2)} ${f.string.numeric(2)}`
          : null,
      company_id: partner ? partner.company : number,
      vat: partner ? partner.vat : number ? `BE${number}` : null,
      company_number: partner ? partner.company : number,
      currency,
      language: partner ? partner.language : f.helpers.arrayElement(['fr', 'nl', 'en']),
      comment: f.datatype.boolean(0.25)
        ? f.helpers.arrayElement(
            [
              'Prefers e-invoicing',
              'Send invoices to the finance team',
              'Key account',
              'Pays by direct debit',
            ].map((comment) => this.names(comment)),
          )
        : null,
      customer_account_number: isCustomer
        ? `${this.country.accounts.customer}${String(sequence).padStart(3, '0')}`
        : null,
      supplier_account_number: isSupplier
        ? `${this.country.accounts.supplier}${String(sequence).padStart(3, '0')}`
        : null,
      birthdate: company ? null : dayBetween(f, '1960-01-01', '1998-12-31'),
      gender: company ? null : f.helpers.arrayElement(['H', 'F'] as const),
      addresses: [this.address('main', partner)],
      external_reference: f.datatype.boolean(0.4) ? `CRM-${f.string.numeric(5)}` : null,
      created_on: at(this.origin, 9),
    };
    if (company && f.datatype.boolean(0.3)) record.addresses.push(this.address('delivery', partner));
    if (currency !== 'EUR') {
      const main = record.addresses[0];
      if (main) main.country = 'US';
      record.vat = null;
      record.company_number = null;
      record.company_id = `EIN-${f.string.numeric(9)}`;
      record.language = 'en';
    }
    this.data.contacts[id] = record;
    return record;
  }

  contacts() {
    for (let i = 0; i < 11; i++) this.contact('customer', true);
    for (let i = 0; i < 4; i++) this.contact('customer', false);
    this.contact('customer', true, 'USD');
    for (let i = 0; i < 6; i++) this.contact('supplier', true);
    this.contact('both', true);
    for (let i = 0; i < 3; i++) this.contact('prospect', i !== 2);
  }

  paymentMethods() {
    for (const name of PAYMENT_METHODS) {
      const id = this.id('payment-method');
      this.data.payment_methods[id] = {
        id,
        source_ref: ref(this.sourceId('M'), 'payment_method'),
        name: this.names(name),
      };
    }
  }

  bankAccounts(): Accounts {
    const make = (name: string, currency: string, opening: number): InvoicingBankAccount => {
      const id = this.id('bank-account');
      const account: InvoicingBankAccount = {
        id,
        source_ref: ref(this.sourceId('B'), 'bank_account'),
        name: this.names(name),
        iban: ibanIn(this.faker, this.country.country),
        currency,
        opening_balance: opening,
      };
      this.data.bank_accounts[id] = account;
      return account;
    };
    return {
      main: make('Current account', 'EUR', amountBetween(this.faker, 15_000, 30_000)),
      savings: make('Savings account', 'EUR', amountBetween(this.faker, 30_000, 60_000)),
      usd: make('USD account', 'USD', amountBetween(this.faker, 2_000, 6_000)),
    };
  }

  number(type: InvoicingInvoiceTypeValue, day: string): string {
    return nextInvoiceNumber(this.data, type, day);
  }

  invoicesAndPayments(accounts: Accounts) {
    const f = this.faker;
    const contacts = Object.values(this.data.contacts);
    const customers = contacts.filter((c) => c.is_customer && c.currency === 'EUR');
    const usdCustomer = contacts.find((c) => c.currency === 'USD');
    const suppliers = contacts.filter((c) => c.is_supplier);
    const plan: {
      type: InvoicingInvoiceTypeValue;
      partner: InvoicingContact;
      day: string;
      currency: string;
    }[] = [];
    for (let i = 0; i < 40; i++) {
      plan.push({
        type: 'customer_invoice',
        partner: f.helpers.arrayElement(customers),
        day: workingDayFrom(dayBetween(f, this.first, addDays(this.until, -6))),
        currency: 'EUR',
      });
    }
    if (usdCustomer) {
      for (const day of [dayOfMonth(this.until, -9, 14), dayOfMonth(this.until, -3, 6)].map(workingDayFrom)) {
        plan.push({ type: 'customer_invoice', partner: usdCustomer, day, currency: 'USD' });
      }
    }
    for (let i = 0; i < 16; i++) {
      plan.push({
        type: 'supplier_invoice',
        partner: f.helpers.arrayElement(suppliers),
        day: workingDayFrom(dayBetween(f, this.first, addDays(this.until, -6))),
        currency: 'EUR',
      });
    }
    plan.sort((a, b) => a.day.localeCompare(b.day));
    const posted: InvoicingInvoice[] = [];
    plan.forEach((entry, index) => {
      const status: InvoicingInvoice['status'] = index === 11 ? 'cancelled' : 'posted';
      const invoice = this.books.invoice(entry.type, entry.partner, entry.day, status, entry.currency);
      if (status === 'posted') posted.push(invoice);
    });
    // Invoices being prepared, not sent yet.
    for (const day of [addDays(this.until, -3), this.last]) {
      this.books.invoice('customer_invoice', f.helpers.arrayElement(customers), day, 'draft');
    }
    // Credit notes on some posted invoices: a refund of one line.
    for (const type of [
      'customer_refund',
      'customer_refund',
      'customer_refund',
      'supplier_refund',
    ] as const) {
      const source = f.helpers.arrayElement(
        posted.filter(
          (i) =>
            i.invoice_type === (type === 'customer_refund' ? 'customer_invoice' : 'supplier_invoice') &&
            i.currency === 'EUR',
        ),
      );
      const partner = source.partner_id ? own(this.data.contacts, source.partner_id) : undefined;
      if (!partner) continue;
      const day = workingDayFrom(addDays(source.invoice_date, f.number.int({ min: 5, max: 20 })));
      if (day > this.last) continue;
      const credit = this.books.invoice(type, partner, day, 'posted', 'EUR', source);
      credit.reference = source.invoice_number;
      posted.push(credit);
    }
    // Payments: older invoices are mostly settled, recent ones mostly open.
    for (const invoice of posted) {
      const age = Date.parse(`${this.last}T00:00:00Z`) - Date.parse(`${invoice.invoice_date}T00:00:00Z`);
      const old = age > 45 * 86_400_000;
      const roll = f.number.float({ min: 0, max: 1 });
      const share = old ? (roll < 0.82 ? 1 : roll < 0.92 ? 0.5 : 0) : roll < 0.25 ? 1 : 0;
      if (share === 0) continue;
      const payDay = workingDayFrom(addDays(invoice.invoice_date, f.number.int({ min: 3, max: 40 })));
      if (payDay > this.last) continue;
      if (share === 1 && f.datatype.boolean(0.15) && invoice.total > 100) {
        // Paid in two instalments.
        const first = round2(invoice.total / 2);
        this.books.pay(invoice, first, payDay, accounts);
        const second = workingDayFrom(addDays(payDay, 14));
        if (second <= this.last) this.books.pay(invoice, round2(invoice.total - first), second, accounts);
        continue;
      }
      this.books.pay(invoice, round2(invoice.total * share), payDay, accounts);
    }
  }

  bankActivity(accounts: Accounts) {
    const f = this.faker;
    const ledger = this.country.accounts;
    const add = this.books.statementLine.bind(this.books);
    for (let month = 1; month <= 12; month++) {
      const day = workingDayFrom(dayOfMonth(this.until, month - 13, 28));
      if (day <= this.last) {
        add(accounts.main, day, -amountBetween(f, 9, 16), this.names('Bank fees'), 'done', ledger.bankFees);
      }
    }
    const transfer = monthEnd(addMonths(this.until, -7));
    const [out, into] = ['Transfer to savings account', 'Transfer from current account'].map((t) =>
      this.names(t),
    );
    add(accounts.main, transfer, -10_000, out as string, 'done', ledger.transfers, true);
    add(accounts.savings, transfer, 10_000, into as string, 'done', ledger.transfers, true);
    const year = Number(this.until.slice(0, 4)) - 1;
    add(
      accounts.savings,
      `${year}-12-31`,
      amountBetween(f, 150, 400),
      this.names.format('Interest {}', String(year)),
      'done',
      ledger.interest,
    );
    // Statement lines received but not yet reconciled.
    for (const day of [addDays(this.until, -3), addDays(this.until, -2), this.last]) {
      add(
        accounts.main,
        day,
        amountBetween(f, 200, 3000),
        this.names.format('Incoming transfer {}', f.company.name()),
        'draft',
        null,
      );
    }
  }

  /**
   * The older history, from its faker and ids: each month a service invoice to a customer and its
   * payment, every other month a purchase of services, the bank fees; each year an export, a
   * customer credit note and a supplier one. Services only, so the stock of goods stays as the
   * recent window leaves it.
   */
  history(accounts: Accounts) {
    const f = this.faker;
    const contacts = Object.values(this.data.contacts);
    const customers = contacts.filter((c) => c.is_customer && c.currency === 'EUR');
    const usdCustomer = contacts.find((c) => c.currency === 'USD');
    const suppliers = contacts.filter((c) => c.is_supplier);
    const services = Object.values(this.data.products).filter((p) => p.initial_stock === null);
    const posted: InvoicingInvoice[] = [];
    const sell = (
      type: InvoicingInvoiceTypeValue,
      partner: InvoicingContact,
      month: HistoryMonth,
      currency = 'EUR',
    ) => {
      const day = workingDayOf(f, month);
      const invoice = this.books.invoice(type, partner, day, 'posted', currency, undefined, services, 2);
      posted.push(invoice);
      return invoice;
    };
    // A credit note on one of the last invoices of its kind, a week or two after it.
    const credit = (type: 'customer_refund' | 'supplier_refund') => {
      const of = type === 'customer_refund' ? 'customer_invoice' : 'supplier_invoice';
      const candidates = posted.filter((i) => i.invoice_type === of && i.currency === 'EUR');
      if (!candidates.length) return;
      const source = candidates.at(-1 - f.number.int({ min: 0, max: Math.min(2, candidates.length - 1) }));
      const partner = source?.partner_id ? own(this.data.contacts, source.partner_id) : undefined;
      if (!source || !partner) return;
      const day = workingDayFrom(addDays(source.invoice_date, f.number.int({ min: 5, max: 20 })));
      if (day >= monthStart(this.first)) return;
      const note = this.books.invoice(type, partner, day, 'posted', 'EUR', source);
      note.reference = source.invoice_number;
      posted.push(note);
    };
    // Months wholly before the recent window's (whose first day is left out).
    for (const month of monthsBetween(this.origin, monthStart(this.first))) {
      const m = Number(month.month.slice(5, 7));
      sell('customer_invoice', f.helpers.arrayElement(customers), month);
      if (m % 2 === 0) sell('supplier_invoice', f.helpers.arrayElement(suppliers), month);
      if (m === 3 && usdCustomer) sell('customer_invoice', usdCustomer, month, 'USD');
      if (m === 6) credit('customer_refund');
      if (m === 10) credit('supplier_refund');
      const fees = workingDayFrom(dayOfMonth(month.first, 0, 28));
      if (fees < this.first) {
        this.books.statementLine(
          accounts.main,
          fees,
          -amountBetween(f, 9, 16),
          this.names('Bank fees'),
          'done',
          this.country.accounts.bankFees,
        );
      }
    }
    // Old invoices are settled, most in full within six weeks; a few are still open.
    for (const invoice of posted) {
      const roll = f.number.float({ min: 0, max: 1 });
      const share = roll < 0.9 ? 1 : roll < 0.96 ? 0.5 : 0;
      const payDay = workingDayFrom(addDays(invoice.invoice_date, f.number.int({ min: 3, max: 40 })));
      if (share === 0 || payDay > this.last) continue;
      this.books.pay(invoice, round2(invoice.total * share), payDay, accounts);
    }
  }

  opportunities() {
    const f = this.faker;
    const contacts = Object.values(this.data.contacts).filter(
      (c) => (c.is_customer || c.is_prospect) && c.currency === 'EUR',
    );
    const owners = [
      { id: 'user-1', model: 'user', name: f.person.fullName() },
      { id: 'user-2', model: 'user', name: f.person.fullName() },
    ];
    const topics = f.helpers.arrayElements(OPPORTUNITY_TOPICS, 10);
    topics.forEach((topic, index) => {
      const id = this.id('opportunity');
      const partner = f.helpers.arrayElement(contacts);
      const created = dayBetween(f, dayOfMonth(this.until, -11, 1), dayOfMonth(this.until, -1, 15));
      const status = index < 5 ? 'open' : index < 8 ? 'won' : index === 8 ? 'lost' : 'cancelled';
      const stage = f.helpers.arrayElement(PIPE_STAGES);
      const closed = status !== 'open';
      // Closed within two months, and before the sandbox start.
      const latestEnd = [addDays(created, 60), this.last].sort()[0] ?? this.last;
      const end = closed ? dayBetween(f, created, latestEnd) : null;
      this.data.opportunities[id] = opportunityRecord({
        id,
        source_ref: ref(this.sourceId('O'), 'opportunity'),
        name: `${this.names(topic)} - ${partner.company_name ?? partner.last_name ?? this.names('prospect')}`,
        total: round2(f.number.int({ min: 20, max: 400 }) * 100),
        status,
        stage,
        partner_id: partner.id,
        comment: f.datatype.boolean(0.3) ? this.names('Follow up after the demo') : null,
        currency: 'EUR',
        description: this.names.format(
          '{} for {}',
          this.names(topic),
          partner.company_name ?? `${partner.first_name} ${partner.last_name}`,
        ),
        pipe_name: this.names('Sales pipeline'),
        created_date: created,
        end_date: end,
        owner_ref: { ...f.helpers.arrayElement(owners) },
      });
    });
  }
}

/** A working day of a month, picked at random (the last one of the month when the pick runs past it). */
const workingDayOf = (faker: InvoicingSeeder['faker'], month: HistoryMonth): string =>
  workingDayIn(dayBetween(faker, month.first, month.last), month);

export function seedInvoicing(options: SeedInput): InvoicingDataset {
  const s = new InvoicingSeeder(options);
  s.taxes();
  s.products();
  s.contacts();
  s.paymentMethods();
  const accounts = s.bankAccounts();
  // The older history first, so that invoice numbers follow the dates.
  s.inHistory(() => s.history(accounts));
  s.invoicesAndPayments(accounts);
  s.bankActivity(accounts);
  s.opportunities();
  return s.data;
}
