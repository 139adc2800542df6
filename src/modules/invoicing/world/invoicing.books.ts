import { own } from '../../../lib/own.js';
import type { LocalNames } from '../../../platform/local-names.js';
import type { Faker } from '../../../platform/seeding/fakers.js';
import { addDays, at, round2, structuredCommunication } from '../../../platform/seeding/finance-fakes.js';
import type { SourceRefValue } from '../../../store/world.js';
import type {
  InvoicingAnalyticDistribution,
  InvoicingBankAccount,
  InvoicingBankTransaction,
  InvoicingContact,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceLine,
  InvoicingInvoiceTypeValue,
  InvoicingPayment,
  InvoicingProduct,
  InvoicingTax,
} from '../model/invoicing.records.js';
import {
  type InvoicingCountry,
  invoicingCountryOf,
  type PartnerCountry,
  type ProductTaxKind,
} from './invoicing.countries.js';

/**
 * The books of a seeded invoicing software (see invoicing.seed): how its records are numbered, the
 * tables its products, payment methods and pipeline are drawn from, and Books, which writes its
 * invoice lines, invoices, payments and bank statement lines.
 */

export const ref = (id: string, model: string): SourceRefValue => ({ id, model });

/** The software's own number of a new record (its source_ref id): C1001, C1002... per prefix. */
export function nextSourceId(data: InvoicingDataset, prefix: string): string {
  const key = `source:${prefix}`;
  const next = (own(data.counters, key) ?? 0) + 1;
  data.counters[key] = next;
  return `${prefix}${1000 + next}`;
}

/**
 * The next number of an invoice series, per type and year, as the software of the dataset's country
 * numbers it: INV-2025-0001, CN-2026-0001 in Belgium; FA2026-0001, AV2026-0001 in France; 2026-0001,
 * CN2026-0001 in the Netherlands...
 */
export function nextInvoiceNumber(
  data: InvoicingDataset,
  type: InvoicingInvoiceTypeValue,
  day: string,
): string {
  const { prefixes, number } = invoicingCountryOf(data.integrationid);
  const year = day.slice(0, 4);
  const key = `${prefixes[type]}-${year}`;
  data.counters[key] = (own(data.counters, key) ?? 0) + 1;
  return number(prefixes[type], year, String(own(data.counters, key)).padStart(4, '0'));
}

/**
 * Name, code, unit, category, price, tax (the standard rate, or the reduced rate of its kind in the
 * country), stock (null: a service).
 */
export const PRODUCTS: [string, string, string, string, number, ProductTaxKind, number | null][] = [
  ['Consulting (hour)', 'SRV-CONS', 'hour', 'Services', 95, 'standard', null],
  ['Project management (day)', 'SRV-PM', 'day', 'Services', 650, 'standard', null],
  ['On-site training (session)', 'SRV-TRAIN', 'session', 'Services', 480, 'standard', null],
  ['Website maintenance (month)', 'SRV-MAINT', 'month', 'Services', 120, 'standard', null],
  ['Software licence (year)', 'SRV-LIC', 'year', 'Services', 1200, 'standard', null],
  ['Support plan (month)', 'SRV-SUP', 'month', 'Services', 79, 'standard', null],
  ['Laptop stand', 'GDS-STAND', 'unit', 'Goods', 39.9, 'standard', 60],
  ['USB-C docking station', 'GDS-DOCK', 'unit', 'Goods', 129, 'standard', 40],
  ['Ergonomic office chair', 'GDS-CHAIR', 'unit', 'Goods', 349, 'standard', 45],
  ['Noise-cancelling headset', 'GDS-HEAD', 'unit', 'Goods', 189, 'standard', 50],
  ['A4 paper (box of 5 reams)', 'GDS-PAPER', 'box', 'Goods', 24.5, 'standard', 150],
  ['Technical handbook', 'GDS-BOOK', 'unit', 'Goods', 45, 'books', 80],
  ['Office plant', 'GDS-PLANT', 'unit', 'Goods', 29, 'plants', 50],
  ['Renovation works (hour)', 'SRV-RENO', 'hour', 'Services', 55, 'works', null],
];

export const PAYMENT_METHODS = ['Bank transfer', 'Credit card', 'Cash', 'Direct debit'] as const;

export const ANALYTIC: InvoicingAnalyticDistribution['analytic_accounts'] = [
  { analytic_account_code: 'SALES', analytic_account_name: 'Sales', percentage: 100 },
  { analytic_account_code: 'OPS', analytic_account_name: 'Operations', percentage: 100 },
  { analytic_account_code: 'RND', analytic_account_name: 'Research and development', percentage: 100 },
];

export const OPPORTUNITY_TOPICS = [
  'Website redesign',
  'ERP roll-out',
  'Annual support contract',
  'Office equipment renewal',
  'Staff training programme',
  'Cloud migration',
  'Data analytics dashboard',
  'Security audit',
  'Mobile application',
  'E-shop integration',
  'Licence renewal',
  'Process automation',
];

/** What makes new records of a dataset: its faker, and how the records are named and numbered. */
export interface InvoicingMaker {
  readonly data: InvoicingDataset;
  readonly faker: Faker;
  /** The software of the dataset's country: its taxes, numbers, journals and accounts. */
  readonly country: InvoicingCountry;
  /** What the software names, in its country's language. */
  readonly names: LocalNames;
  /** The id of a new record of a kind. */
  id(kind: string): string;
  /** The software's own number of a new record (its source_ref id). */
  sourceId(prefix: string): string;
  /** The number of a new invoice of a type, dated `day`. */
  number(type: InvoicingInvoiceTypeValue, day: string): string;
}

/** The bank accounts of a dataset: the current account, the savings account, the USD account. */
/** A partner of a company outside Belgium, of its own country (see InvoicingSeeder.partner). */
export interface Partner {
  country: PartnerCountry;
  vat: string | null;
  company: string | null;
  phone: string | null;
  mobile: string | null;
  language: string;
  place: { street: string; city: string; postal_code: string };
}

export interface Accounts {
  main: InvoicingBankAccount;
  savings: InvoicingBankAccount;
  usd: InvoicingBankAccount;
}

/**
 * How the software's documents are drawn: invoice lines and invoices, their payments and the bank
 * statement lines that carry them, with the faker and the numbering of `m` (the seeded history's, or
 * a day's after it).
 */
export class Books {
  constructor(readonly m: InvoicingMaker) {}

  /** A customer invoice's payment communication: the structured one drawn, where the country has it. */
  communication(structured: string): string | null {
    return this.m.country.structuredCommunication ? structured : null;
  }

  taxByCode(code: string): InvoicingTax {
    const tax = Object.values(this.m.data.taxes).find((t) => t.code === code);
    if (!tax) throw new Error(`seed: unknown tax ${code}`);
    return tax;
  }

  method(drawn: (typeof PAYMENT_METHODS)[number]): string {
    const name = this.m.names(drawn);
    const found = Object.values(this.m.data.payment_methods).find((m) => m.name === name);
    if (!found) throw new Error(`seed: unknown payment method ${name}`);
    return found.id;
  }

  line(type: InvoicingInvoiceTypeValue, product: InvoicingProduct, quantity: number): InvoicingInvoiceLine {
    const f = this.m.faker;
    const tax = product.tax_id ? own(this.m.data.taxes, product.tax_id) : undefined;
    const sale = type.startsWith('customer');
    const unitPrice = sale ? (product.unit_price ?? 0) : (product.cost ?? 0);
    const gross = round2(unitPrice * quantity);
    const discount = sale && f.datatype.boolean(0.15) ? round2(gross * 0.1) : 0;
    const untaxed = round2(gross - discount);
    const rate = tax?.rate ?? 0;
    const taxAmount = round2((untaxed * rate) / 100);
    const goods = product.initial_stock !== null;
    const { accounts } = this.m.country;
    const split = f.datatype.boolean(0.2);
    const drawn = f.helpers.arrayElement(ANALYTIC);
    const { names } = this.m;
    const analytic = { ...drawn, analytic_account_name: names(drawn.analytic_account_name) };
    return {
      description: product.name,
      unit_price: unitPrice,
      quantity,
      discount_amount: discount,
      tax_amount: taxAmount,
      untaxed_amount: untaxed,
      total: round2(untaxed + taxAmount),
      tax_rate: rate,
      account_number: sale
        ? goods
          ? accounts.salesGoods
          : accounts.salesServices
        : goods
          ? accounts.purchaseGoods
          : accounts.purchaseServices,
      tax_id: tax?.id ?? null,
      tax_exemption_reason: rate === 0 ? this.m.country.exemption.exempt : null,
      unit_of_measure: product.unit,
      product_id: product.id,
      product_code: product.code,
      product_name: product.name,
      analytic_distribution: [
        {
          analytic_plan_code: 'DEPT',
          analytic_accounts: split
            ? [
                { analytic_account_code: 'SALES', analytic_account_name: names('Sales'), percentage: 60 },
                { analytic_account_code: 'OPS', analytic_account_name: names('Operations'), percentage: 40 },
              ]
            : [analytic],
        },
      ],
    };
  }

  invoice(
    type: InvoicingInvoiceTypeValue,
    partner: InvoicingContact,
    day: string,
    status: InvoicingInvoice['status'],
    currency = 'EUR',
    credited?: InvoicingInvoice,
    products = Object.values(this.m.data.products),
    maxLines = 4,
  ): InvoicingInvoice {
    const f = this.m.faker;
    const sale = type.startsWith('customer');
    const count = f.number.int({ min: 1, max: maxLines });
    const picked = f.helpers.arrayElements(products, count);
    const firstLine = credited?.lines[0];
    // A credit note takes back the first line of the invoice it corrects.
    const lines = firstLine
      ? [
          {
            ...structuredClone(firstLine),
            description: this.m.names.format('Credit: {}', firstLine.description ?? '').trim(),
          },
        ]
      : picked.map((product) => {
          const quantity =
            product.initial_stock === null
              ? f.number.int({ min: 1, max: product.unit === this.m.names('hour') ? 24 : 3 })
              : f.number.int({ min: 1, max: sale ? 3 : 10 });
          return this.line(type, product, quantity);
        });
    if (currency !== 'EUR') {
      for (const line of lines) {
        // An export: no VAT of the company's country.
        const exempt = this.taxByCode(this.m.country.exportTax);
        line.tax_id = exempt.id;
        line.tax_rate = 0;
        line.tax_amount = 0;
        line.total = line.untaxed_amount;
        line.tax_exemption_reason = this.m.country.exemption.export;
      }
    }
    const untaxed = round2(lines.reduce((sum, l) => sum + l.untaxed_amount, 0));
    const taxAmount = round2(lines.reduce((sum, l) => sum + l.tax_amount, 0));
    const id = this.m.id('invoice');
    const number = this.m.number(type, day);
    const journal = sale ? this.m.country.journals.sale : this.m.country.journals.purchase;
    const invoice: InvoicingInvoice = {
      id,
      source_ref: ref(this.m.sourceId('I'), 'invoice'),
      invoice_type: type,
      status,
      currency,
      currency_exchange_rate: currency === 'EUR' ? 1 : 0.92,
      invoice_date: day,
      due_date: addDays(day, 30),
      accounting_date: day,
      untaxed_amount: untaxed,
      tax_amount: taxAmount,
      total: round2(untaxed + taxAmount),
      lines,
      partner_id: partner.id,
      invoice_number: number,
      reference: sale
        ? f.datatype.boolean(0.3)
          ? `PO-${f.string.numeric(6)}`
          : null
        : `${f.string.alpha({ length: 2, casing: 'upper' })}-${f.string.numeric(6)}`,
      // Drawn in every country, so that a day draws alike everywhere; only Belgium's invoices carry it.
      payment_communication: sale && !credited ? this.communication(structuredCommunication(f)) : null,
      customer_memo: sale && f.datatype.boolean(0.2) ? this.m.names('Thank you for your business.') : null,
      journal_ref: { id: journal.id, model: 'journal', name: journal.name },
      italian_specificities: null,
      payment_method_id: this.method(
        currency === 'EUR' && f.datatype.boolean(0.15) ? 'Direct debit' : 'Bank transfer',
      ),
      created_on: at(day, 9),
      last_updated_on: at(day, 9),
    };
    this.m.data.invoices[id] = invoice;
    return invoice;
  }

  /** A payment of `amount` on `day`, and (for bank transfers) the statement line that carries it. */
  pay(
    invoice: InvoicingInvoice,
    amount: number,
    day: string,
    accounts: Accounts,
  ): { payment: InvoicingPayment; line: InvoicingBankTransaction | undefined } {
    const f = this.m.faker;
    const sale = invoice.invoice_type.startsWith('customer');
    const refund = invoice.invoice_type.endsWith('refund');
    const byCard = sale && !refund && invoice.currency === 'EUR' && f.datatype.boolean(0.15);
    const methodId = byCard
      ? this.method('Credit card')
      : (invoice.payment_method_id ?? this.method('Bank transfer'));
    const id = this.m.id('payment');
    const partner = invoice.partner_id ? own(this.m.data.contacts, invoice.partner_id) : undefined;
    const partnerName =
      partner?.company_name ??
      ([partner?.first_name, partner?.last_name].filter(Boolean).join(' ') || 'unknown');
    const stamp = at(day, f.number.int({ min: 8, max: 17 }), f.number.int({ min: 0, max: 59 }));
    const payment: InvoicingPayment = {
      id,
      source_ref: ref(this.m.sourceId('PAY'), 'payment'),
      status: 'completed',
      description: this.m.names.format('Payment of {}', invoice.invoice_number),
      amount,
      currency: invoice.currency,
      payment_date: stamp,
      payment_method_id: methodId,
      invoice_id: invoice.id,
      created_on: stamp,
      last_updated_on: stamp,
    };
    this.m.data.payments[id] = payment;
    if (byCard) return { payment, line: undefined };
    // Money comes in for customer invoices and supplier credit notes, goes out otherwise.
    const incoming = sale !== refund;
    const account = invoice.currency === 'USD' ? accounts.usd : accounts.main;
    const transactionId = this.m.id('bank-transaction');
    const line: InvoicingBankTransaction = {
      id: transactionId,
      source_ref: ref(this.m.sourceId('ST'), 'bank_statement_line'),
      status: 'done',
      bank_account_id: account.id,
      amount: incoming ? amount : -amount,
      date: day,
      description: `${invoice.invoice_number} ${partnerName}`,
      currency: invoice.currency,
      currency_exchange_rate: invoice.currency_exchange_rate,
      accounting_code: null,
      linked_documents: [{ id: invoice.id, source_ref: { ...invoice.source_ref }, amount, type: 'invoice' }],
    };
    this.m.data.bank_transactions[transactionId] = line;
    return { payment, line };
  }

  /** A bank statement line; `other`: an internal transfer, linked to no invoice. */
  statementLine(
    account: InvoicingBankAccount,
    day: string,
    amount: number,
    description: string,
    status: 'draft' | 'done',
    accountingCode: string | null,
    other = false,
  ): InvoicingBankTransaction {
    const id = this.m.id('bank-transaction');
    const line: InvoicingBankTransaction = {
      id,
      source_ref: ref(this.m.sourceId('ST'), 'bank_statement_line'),
      status,
      bank_account_id: account.id,
      amount,
      date: day,
      description,
      currency: account.currency ?? 'EUR',
      currency_exchange_rate: account.currency === 'USD' ? 0.92 : 1,
      accounting_code: accountingCode,
      linked_documents: other
        ? [
            {
              id: `transfer-${id.slice(0, 8)}`,
              source_ref: ref(`TR-${id.slice(0, 8)}`, 'transfer'),
              amount: Math.abs(amount),
              type: 'other',
            },
          ]
        : [],
    };
    this.m.data.bank_transactions[id] = line;
    return line;
  }
}
