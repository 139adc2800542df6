import { isoDay } from '../../../lib/calendar.js';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import type { ConnectionDatasetArgs } from '../../../platform/datasets.js';
import { type LocalNames, localNames } from '../../../platform/local-names.js';
import { drawnSpan, type SeedInput, seedInputOf, untilOf } from '../../../platform/seeding/dataset-seeder.js';
import { type Faker, fakerFor, reseed } from '../../../platform/seeding/fakers.js';
import {
  addDays,
  amountBetween,
  at,
  round2,
  weekday,
  workingDayFrom,
} from '../../../platform/seeding/finance-fakes.js';
import { activityEnd, dayOfMonth } from '../../../platform/seeding/vertical-data.js';
import type {
  InvoicingContact,
  InvoicingDataset,
  InvoicingInvoice,
  InvoicingInvoiceTypeValue,
  InvoicingProduct,
} from '../model/invoicing.records.js';
import { type InvoicingCountry, invoicingCountryOf } from './invoicing.countries.js';
import { INVOICING_NAMES } from './invoicing.names.js';
import { type Accounts, Books, type InvoicingMaker, seedInvoicing } from './invoicing.seed.js';

/**
 * The days after an Invoicing dataset's history: the business each business day draws, as it
 * happens (liveInvoicingDays), and the module's build of a dataset.
 */

/** Customer invoices a usual business day issues, and supplier invoices it receives, on average. */
const CUSTOMER_INVOICES_PER_DAY = 1.1;
const SUPPLIER_INVOICES_PER_DAY = 0.5;

/**
 * How far ahead of its day an invoice's fate reaches: a late payment at most 92 days later, a second
 * instalment after it. The days that draw business stop this long before the calendar's end (at
 * 9999-08-31), so that every payment they plan lies in it (see drawnSpan).
 */
const INVOICING_LOOK_AHEAD_DAYS = 121;

/** The first and last minute of the day at which the office issues and books invoices (09:01-17:59). */
const OFFICE_HOURS: [number, number] = [9 * 60 + 1, 17 * 60 + 59];

/**
 * What becomes of an invoice, drawn on its day, by the share of invoices it befalls: paid in full
 * before its due date, in two instalments, after its due date, partly paid (the rest stays open), or
 * left unpaid (open, and overdue after its due date).
 */
type Fate = 'on_time' | 'instalments' | 'late' | 'partly' | 'unpaid';
const FATES: Readonly<Record<'customer' | 'supplier', [Fate, number][]>> = {
  customer: [
    ['on_time', 0.55],
    ['instalments', 0.1],
    ['late', 0.15],
    ['partly', 0.08],
    ['unpaid', 0.12],
  ],
  supplier: [
    ['on_time', 0.7],
    ['instalments', 0.05],
    ['late', 0.12],
    ['partly', 0.05],
    ['unpaid', 0.08],
  ],
};

/** The share of customer (supplier) invoices a credit note later corrects, and of those refunded. */
const CREDITED = { customer: 0.05, supplier: 0.03 };
const REFUNDED = 0.7;

/**
 * The records one day after the history draws, named by the day alone: ids from (seed, connection,
 * day, kind, order of drawing), and the software's numbers with the day in them, in its country's
 * style (INV-20260115-001, BILL-20260115-001 in Belgium, FA20260115-001 in France; I20260115-001,
 * PAY20260115-001, ST20260115-001), a series apart from the INV-2026-0001 (FA2026-0001...) and I1001
 * the API gives to what a client creates, which never hold a day. A credit
 * note or a payment drawn on an invoice's day carries that day, whatever its own date.
 *
 * The day's records go to a dataset of their own (sharing the reference data), so that the day draws
 * the same whatever part of it has happened yet; a statement line, which holds only its day, has the
 * instant it comes at noted here.
 */
class DayMaker implements InvoicingMaker {
  readonly faker = fakerFor('invoicing-day');
  readonly country: InvoicingCountry;
  readonly names: LocalNames;
  data: InvoicingDataset;
  /** The instant each statement line of the day's drawing comes at. */
  readonly lineAt = new Map<string, string>();
  #day = '';
  #compact = '';
  #minted = 0;
  readonly #numbers = new Map<string, number>();

  constructor(
    readonly base: InvoicingDataset,
    readonly seed: number,
  ) {
    this.data = base;
    this.country = invoicingCountryOf(base.integrationid);
    this.names = localNames(INVOICING_NAMES, this.country.country);
  }

  /** Starts drawing `day`: the faker seeded for it alone, and an empty dataset for its records. */
  begin(day: string): void {
    reseed(this.faker, 'invoicing-day', this.seed, this.base.connectionid, day);
    this.#day = day;
    this.#compact = `${day.slice(0, 4)}${day.slice(5, 7)}${day.slice(8, 10)}`;
    this.#minted = 0;
    this.#numbers.clear();
    this.lineAt.clear();
    this.data = { ...this.base, invoices: {}, payments: {}, bank_transactions: {} };
  }

  id(kind: string): string {
    this.#minted += 1;
    return uuidFrom('invoicing-day', this.seed, this.base.connectionid, this.#day, kind, this.#minted);
  }

  /** The next count of a series of the day (its key), on 3 digits. */
  #next(key: string): string {
    const next = (this.#numbers.get(key) ?? 0) + 1;
    this.#numbers.set(key, next);
    return String(next).padStart(3, '0');
  }

  sourceId(prefix: string): string {
    return `${prefix}${this.#compact}-${this.#next(prefix)}`;
  }

  /** The number of an invoice of the day, the day standing for the year: INV-20260115-001, FA20260115-001. */
  number(type: InvoicingInvoiceTypeValue): string {
    const prefix = this.country.prefixes[type];
    return this.country.number(prefix, this.#compact, this.#next(`number:${prefix}`));
  }
}

/** What the days draw from: the dataset's partners, the services it sells and buys, its accounts. */
interface Trade {
  customers: InvoicingContact[];
  usdCustomer: InvoicingContact | undefined;
  suppliers: InvoicingContact[];
  services: InvoicingProduct[];
  accounts: Accounts;
}

function tradeOf(data: InvoicingDataset, names: LocalNames): Trade {
  const contacts = Object.values(data.contacts);
  const accounts = Object.values(data.bank_accounts);
  const account = (name: string) => {
    const found = accounts.find((a) => a.name === names(name));
    if (!found) throw new Error(`seed: no bank account ${name}`);
    return found;
  };
  return {
    customers: contacts.filter((c) => c.is_customer && c.currency === 'EUR'),
    usdCustomer: contacts.find((c) => c.currency === 'USD'),
    suppliers: contacts.filter((c) => c.is_supplier),
    // Services only: the stock of goods stays as the history leaves it.
    services: Object.values(data.products).filter((p) => p.initial_stock === null),
    accounts: {
      main: account('Current account'),
      savings: account('Savings account'),
      usd: account('USD account'),
    },
  };
}

/** How busy a business day is against a usual one: quieter in August, late December and on holidays. */
function busyness(day: string): number {
  const month = day.slice(5, 7);
  const date = day.slice(8, 10);
  if ((month === '12' && date === '25') || (month === '01' && date === '01')) return 0;
  if (month === '12' && date >= '22') return 0.3;
  return month === '08' ? 0.5 : 1;
}

/** A count of events around `mean` (Poisson): some days none, some days more. */
function countAround(faker: Faker, mean: number): number {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let count = 0;
  for (let p = faker.number.float({ min: 0, max: 1 }); p > limit; p *= faker.number.float({ min: 0, max: 1 }))
    count += 1;
  return count;
}

/** The working day `days` after `day`. */
const workingDayAfter = (day: string, days: number) => workingDayFrom(addDays(day, days));

/** An instant of `day` in the office hours (a whole minute). */
function officeTime(faker: Faker, day: string): string {
  const minute = faker.number.int({ min: OFFICE_HOURS[0], max: OFFICE_HOURS[1] });
  return at(day, Math.floor(minute / 60), minute % 60);
}

/** The instant the bank's monthly fees come on the statement: the first minute of the office hours. */
const feesTime = (day: string): string => at(day, Math.floor(OFFICE_HOURS[0] / 60), OFFICE_HOURS[0] % 60);

/**
 * One invoice of a day, with all that becomes of it: its payments (on later days, each at a whole
 * minute of 08:00-17:59, its statement line coming with it), and now and then a credit note
 * correcting its first line, refunded or not. Everything is drawn now, the later days' records
 * included; the dataset keeps those whose instant has come.
 */
function liveInvoice(
  m: DayMaker,
  books: Books,
  trade: Trade,
  type: 'customer_invoice' | 'supplier_invoice',
  day: string,
): void {
  const f = m.faker;
  const side = type === 'customer_invoice' ? 'customer' : 'supplier';
  const usd = side === 'customer' && trade.usdCustomer !== undefined && f.datatype.boolean(0.05);
  const partner = usd
    ? (trade.usdCustomer as InvoicingContact)
    : f.helpers.arrayElement(side === 'customer' ? trade.customers : trade.suppliers);
  const invoice = books.invoice(
    type,
    partner,
    day,
    'posted',
    usd ? 'USD' : 'EUR',
    undefined,
    trade.services,
    3,
  );
  const issued = officeTime(f, day);
  invoice.created_on = issued;
  invoice.last_updated_on = issued;
  const settle = (paid: InvoicingInvoice, amount: number, payDay: string) => {
    const { payment, line } = books.pay(paid, amount, payDay, trade.accounts);
    if (line) m.lineAt.set(line.id, payment.created_on);
  };
  const pay = (amount: number, payDay: string) => settle(invoice, amount, payDay);
  const roll = f.number.float({ min: 0, max: 1 });
  let fate: Fate = 'unpaid';
  let below = 0;
  for (const [name, share] of FATES[side]) {
    below += share;
    if (roll < below) {
      fate = name;
      break;
    }
  }
  // The due date is 30 days after the invoice's.
  if (fate === 'on_time') pay(invoice.total, workingDayAfter(day, f.number.int({ min: 3, max: 28 })));
  if (fate === 'late') pay(invoice.total, workingDayAfter(day, f.number.int({ min: 31, max: 90 })));
  if (fate === 'partly') {
    const share = f.number.float({ min: 0.3, max: 0.7 });
    pay(round2(invoice.total * share), workingDayAfter(day, f.number.int({ min: 5, max: 40 })));
  }
  if (fate === 'instalments') {
    const first = round2(invoice.total / 2);
    const firstDay = workingDayAfter(day, f.number.int({ min: 3, max: 20 }));
    pay(first, firstDay);
    pay(round2(invoice.total - first), workingDayAfter(firstDay, f.number.int({ min: 14, max: 30 })));
  }
  if (!f.datatype.boolean(CREDITED[side])) return;
  const creditDay = workingDayAfter(day, f.number.int({ min: 5, max: 20 }));
  const refund = side === 'customer' ? 'customer_refund' : 'supplier_refund';
  const note = books.invoice(refund, partner, creditDay, 'posted', invoice.currency, invoice);
  note.reference = invoice.invoice_number;
  const noted = officeTime(f, creditDay);
  note.created_on = noted;
  note.last_updated_on = noted;
  if (f.datatype.boolean(REFUNDED)) {
    settle(note, note.total, workingDayAfter(creditDay, f.number.int({ min: 3, max: 15 })));
  }
}

/** Whether `day` is the day the bank charges its monthly fees (the working day from the 28th). */
function isFeeDay(day: string): boolean {
  return day === workingDayFrom(dayOfMonth(day, 0, 28)) || day === workingDayFrom(dayOfMonth(day, -1, 28));
}

/**
 * The business of the days after the history: each business day (Monday to Friday) issues customer
 * invoices and receives supplier invoices, fewer in August and late December, none on Christmas and
 * New Year's day, times the world's pace; the bank charges its fees each month. Each invoice is
 * drawn on its day with what becomes of it (see liveInvoice), from the seed, the connection and the
 * day alone, whole: a day reads the same whenever it is built, and a record changes only at the
 * instants drawn for it. What a build shows is what has happened by `now` (the clock's time to the
 * minute), from the day of the dataset's first use (whose morning the history holds: the day's
 * invoices come after 09:00) on: an invoice or a credit note exists from its issue, a payment and the
 * statement line that carries it from the payment's instant, the bank's fees from the first minute of
 * their day's office hours (all whole minutes). An invoice's `last_updated_on` is the instant of its
 * last payment made by `now`, else its issue; its status and open amount follow from the payments.
 */
export function* liveInvoicingDays(
  dataset: InvoicingDataset,
  input: SeedInput,
  now: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<InvoicingDataset> {
  const until = untilOf(input);
  const days = drawnSpan(until, now.slice(0, 10), INVOICING_LOOK_AHEAD_DAYS);
  if (days.last < days.first) return dataset;
  const m = new DayMaker(dataset, input.seed);
  const trade = tradeOf(dataset, m.names);
  const books = new Books(m);
  for (let n = days.first; n <= days.last; n++) {
    const day = isoDay(n);
    const dayOfWeek = weekday(day);
    if (dayOfWeek === 0 || dayOfWeek === 6) continue;
    yield;
    m.begin(day);
    const factor = busyness(day) * pace(day);
    const customers = countAround(m.faker, CUSTOMER_INVOICES_PER_DAY * factor);
    const suppliers = countAround(m.faker, SUPPLIER_INVOICES_PER_DAY * factor);
    if (isFeeDay(day)) {
      const fees = books.statementLine(
        trade.accounts.main,
        day,
        -amountBetween(m.faker, 9, 16),
        m.names('Bank fees'),
        'done',
        m.country.accounts.bankFees,
      );
      m.lineAt.set(fees.id, feesTime(day));
    }
    for (let i = 0; i < customers; i++) liveInvoice(m, books, trade, 'customer_invoice', day);
    for (let i = 0; i < suppliers; i++) liveInvoice(m, books, trade, 'supplier_invoice', day);
    keepWhatHappened(dataset, m, now);
  }
  return dataset;
}

/**
 * Moves the records of a day's drawing whose instant has come (on or before `now`) into `dataset`;
 * an invoice's `last_updated_on` moves to each of its payments kept.
 */
function keepWhatHappened(dataset: InvoicingDataset, m: DayMaker, now: string): void {
  const drawn = m.data;
  for (const invoice of Object.values(drawn.invoices)) {
    if (invoice.created_on <= now) dataset.invoices[invoice.id] = invoice;
  }
  for (const payment of Object.values(drawn.payments)) {
    if (payment.created_on > now) continue;
    dataset.payments[payment.id] = payment;
    const invoice = own(dataset.invoices, payment.invoice_id);
    if (invoice && payment.created_on > invoice.last_updated_on) invoice.last_updated_on = payment.created_on;
  }
  for (const line of Object.values(drawn.bank_transactions)) {
    const comes = m.lineAt.get(line.id);
    if (comes !== undefined && comes <= now) dataset.bank_transactions[line.id] = line;
  }
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history up to
 * the morning of the origin's day, and the business of the days after it up to `at` (the clock's
 * time to the minute; by default that morning, when nothing of the days has happened yet).
 */
export function* invoicingDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at?: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<InvoicingDataset> {
  const input = seedInputOf(seed, args, origin);
  return yield* liveInvoicingDays(seedInvoicing(input), input, at ?? activityEnd(untilOf(input)), pace);
}

/** invoicingDatasetBuild, at once. */
export const buildInvoicingDataset = (...args: Parameters<typeof invoicingDatasetBuild>): InvoicingDataset =>
  runAtOnce(invoicingDatasetBuild(...args));
