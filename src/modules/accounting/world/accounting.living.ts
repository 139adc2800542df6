import { isoDay, weekday } from '../../../lib/calendar.js';
import { uuidFrom } from '../../../lib/ids.js';
import { own } from '../../../lib/own.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import type { Sliced } from '../../../lib/slices.js';
import { drawnSpan } from '../../../platform/seeding/dataset-seeder.js';
import { addDays, type Faker, fakerFor, pick, reseed } from '../../../platform/seeding/vertical-data.js';
import { dayDocumentNumber } from '../model/accounting.profiles.js';
import type {
  InvoiceTypeValue,
  LedgerEmployee,
  LedgerEntry,
  LedgerInvoice,
  LedgerInvoiceLine,
  LedgerJournal,
  LedgerMatching,
  LedgerPaymentMethod,
  LedgerRecord,
} from '../model/accounting.records.js';
import { bookYearOf } from '../model/ledger/derived.js';
import { fromCents, round2, toCents } from '../model/ledger/money.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
  defaultInvoiceJournal,
  type EntryDraft,
  type InvoiceDraft,
  type LedgerChange,
  type PostingContext,
} from '../model/ledger/posting.js';
import type { LedgerSeeder, SeededLedger } from './accounting.seed.js';
import { salaryAccrual, salaryPaymentDraft } from './seed/payroll.js';

/**
 * The business of an accounting folder after its history (see docs/living-world.md): each business
 * day the company issues sales invoices and receives purchase invoices, booked in their journals by
 * the posting functions the API's writes use (so every entry balances, with its VAT lines and its
 * line on the partner's account). Each invoice is drawn on its day with its fate: paid through the
 * bank on a later day (a payment entry matched against it, so that its open amount drops to 0 and it
 * reads as paid), paid late, paid in part, or left open and overdue; now and then a credit note
 * corrects it first. Salaries are accrued on the 25th and paid on the 28th, as in the history, and the
 * recent invoices the history left open are paid on the day it planned.
 *
 * A day's draws depend only on the seed, the folder and the day, so a day reads the same whenever the
 * ledger is built, and the days already there never change when the clock adds more, but at the
 * instants their fates planned: a payment or a credit note moves the invoice's and its entry's
 * last_updated_on to its own instant, which is what updated_after finds. Each day is drawn whole, and
 * the ledger holds what happened up to the instant it is built for (the clock's time to the minute):
 * from the day of the ledger's first use (after its morning, which the history holds) to the clock's,
 * every document, payment and matching is booked at its own instant (a whole minute), so that an
 * invoice reads open until the minute its payment or credit note comes, and nothing is there before
 * the minute it is issued. The numbers the days give (VEN/2026/0611-01 in a Belgian folder,
 * FA2026-0611-01 in a French one: the journal, the book year, the day and its rank; matchings
 * M20260611-01) are never those the API gives a client's documents (VEN/2026/0001, FA2026-0001,
 * M000001), and the days' records take none of the ledger's counters, so a client's writes replayed
 * over a ledger built for a later day keep their numbers. Business days are those of the folder's
 * country.
 */

/** Sales invoices and purchase invoices a usual business day issues and receives, on average. */
const SALES_PER_DAY = 0.9;
const PURCHASES_PER_DAY = 0.6;

/** The hours of the office (invoices, credit notes) and of the bank (payments), in minutes. */
const OFFICE_OPENS = 8 * 60;
const OFFICE_CLOSES = 18 * 60;
const BANK_OPENS = 7 * 60;
const BANK_CLOSES = 19 * 60;
/** The history holds the first day's morning: the days after it start after 09:00. */
const MORNING = 9 * 60;
/** When salaries are accrued (on the 25th) and paid (on the 28th). */
const SALARY_ACCRUAL = 15 * 60;
const SALARY_PAYMENT = 10 * 60;

/**
 * Monday to Friday, the public holidays of a fixed date (MM-DD) of the folder's country excepted (see
 * accounting.profiles.ts): on those no invoice is issued, no bank books a payment.
 */
function isBusinessDay(day: string, holidays: ReadonlySet<string>): boolean {
  const dayOfWeek = weekday(day);
  return dayOfWeek !== 0 && dayOfWeek !== 6 && !holidays.has(day.slice(5));
}

/** How busy a business day is against a usual one: summer holidays and the end of the year are quieter. */
function season(day: string): number {
  const month = day.slice(5, 7);
  if (month === '08') return 0.6;
  if (month === '07') return 0.8;
  if (month === '12' && day.slice(8) >= '20') return 0.5;
  return 1;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant `minute` minutes after midnight (UTC) of a day. */
const instantOf = (day: string, minute: number) =>
  `${day}T${pad2(Math.floor(minute / 60))}:${pad2(minute % 60)}:00.000Z`;

/** A whole count whose mean is `mean`: what a day draws of something that happens `mean` times a day. */
const countOf = (faker: Faker, mean: number) =>
  Math.floor(faker.number.float({ min: 0, max: 2 * mean }) + faker.number.float({ min: 0, max: 1 }));

/** Something booked on a day, at its minute. */
interface DayEvent {
  minute: number;
  run: (instant: string) => void;
}

/**
 * The fates of the invoices, by the roll of each (cumulative shares): 5 % credited, then the rest
 * paid on time; 65 % paid on time (between a third of the term and the due date); 15 % paid 3 to 45
 * days late; 5 % half paid on time, the rest left open; the last 10 % (and every rejected purchase)
 * left open.
 */
const FATES = { credited: 0.05, onTime: 0.7, late: 0.85, part: 0.9 } as const;

/** The share of the history's recent invoices paid on the day it planned; the others stay open. */
const LATER_PAID = 0.8;

/** What the business of the days after the history books, and the numbers each day gave. */
class LivingLedger {
  readonly ledger: LedgerRecord;
  readonly seeder: LedgerSeeder;
  /** Events planned for the days still to book, by day. */
  readonly #planned = new Map<string, DayEvent[]>();
  /** The numbers a day gave so far, by journal (and `M` for matchings). */
  readonly #ranks = new Map<string, number>();
  readonly #journals: Record<InvoiceTypeValue, LedgerJournal>;
  readonly #methods: LedgerPaymentMethod[];
  readonly #staff: LedgerEmployee[];
  /** The matchings of each line, those of the history and those the days book. */
  readonly #matchings = new Map<string, LedgerMatching[]>();

  constructor(
    readonly seeded: SeededLedger,
    /** The last day drawn (whole: its events after `through` are planned and not booked). */
    readonly last: string,
    /** The instant the ledger is built for: what happens after it is not booked. */
    readonly through: string,
  ) {
    this.seeder = seeded.seeder;
    this.ledger = seeded.seeder.ledger;
    const journal = (type: InvoiceTypeValue) => defaultInvoiceJournal(this.ledger, type);
    this.#journals = {
      customer_invoice: journal('customer_invoice'),
      customer_refund: journal('customer_refund'),
      supplier_invoice: journal('supplier_invoice'),
      supplier_refund: journal('supplier_refund'),
    };
    this.#methods = Object.values(this.ledger.payment_methods);
    this.#staff = Object.values(this.ledger.employees).filter((e) => e.active);
    for (const matching of Object.values(this.ledger.matchings)) this.#matched(matching);
  }

  #matched(matching: LedgerMatching): void {
    for (const { line_id } of matching.allocations) {
      const known = this.#matchings.get(line_id);
      if (known) known.push(matching);
      else this.#matchings.set(line_id, [matching]);
    }
  }

  /**
   * The ledger as a posting of the days reads it: all of it but its entries and matchings, of which
   * only `entries` (those the posting settles) and their matchings. The posting functions check a
   * document against the whole ledger, which would make a year of days quadratic; what they read of
   * the entries is the open amounts of those they settle and the numbers taken in a journal, and the
   * numbers the days give are their own (a journal, a day and its rank), never taken before.
   */
  #view(entries: LedgerEntry[] = []): LedgerRecord {
    const matchings: Record<string, LedgerMatching> = {};
    for (const entry of entries) {
      for (const line of entry.lines) {
        for (const matching of this.#matchings.get(line.id) ?? []) matchings[matching.number] = matching;
      }
    }
    return { ...this.ledger, entries: Object.fromEntries(entries.map((e) => [e.id, e])), matchings };
  }

  /** Adds a checked change to the ledger. */
  #apply(change: LedgerChange, now: string): void {
    applyChange(this.ledger, change, now);
    for (const matching of change.matchings ?? []) this.#matched(matching);
  }

  /**
   * The day itself when the bank works then, else the next day it does. A day after the last one
   * drawn is left as it is: nothing is booked on it.
   */
  #bankDay(day: string): string {
    if (day > this.last || !ISO_DAY.test(day)) return day;
    let out = day;
    while (!isBusinessDay(out, this.seeder.profile.holidays)) out = addDays(out, 1);
    return out;
  }

  #entryOf(invoice: LedgerInvoice): LedgerEntry {
    return own(this.ledger.entries, invoice.entry_id) as LedgerEntry;
  }

  get #options() {
    return this.seeder.options;
  }

  /**
   * Plans an event on a day, unless the day is after the last one drawn; on the first day, after
   * its morning (the history's).
   */
  plan(day: string, at: number, run: (instant: string) => void): void {
    if (day > this.last || !ISO_DAY.test(day)) return;
    const minute = day === this.seeder.calendar.until && at <= MORNING ? MORNING + 1 : at;
    const events = this.#planned.get(day);
    if (events) events.push({ minute, run });
    else this.#planned.set(day, [{ minute, run }]);
  }

  /**
   * Books the events of a day in the order of their minutes (those of one minute as they were
   * planned), up to `through`: those after it have not happened yet. Booking draws nothing, so what
   * is left out changes nothing of what is booked.
   */
  book(day: string): void {
    const events = this.#planned.get(day);
    if (!events) return;
    this.#planned.delete(day);
    this.#ranks.clear();
    events.sort((a, b) => a.minute - b.minute);
    for (const event of events) {
      const instant = instantOf(day, event.minute);
      if (instant > this.through) return;
      event.run(instant);
    }
  }

  /** Ids of one document of a day, from the day, its rank and its part alone. */
  context(now: string, ...parts: (string | number)[]): PostingContext {
    const { seed, folder } = this.#options;
    let minted = 0;
    return { now, mint: (kind) => uuidFrom('accounting-day', seed, folder.id, ...parts, kind, ++minted) };
  }

  /** The next number of a journal on a day: CODE/YEAR/MMDD-NN in a Belgian folder (see dayDocumentNumber). */
  number(journal: LedgerJournal, day: string): string {
    const rank = (this.#ranks.get(journal.id) ?? 0) + 1;
    this.#ranks.set(journal.id, rank);
    const year = bookYearOf(this.ledger, day)?.name ?? day.slice(0, 4);
    return dayDocumentNumber(this.ledger, journal, year, day, rank);
  }

  /** The change with its matchings numbered by the day (M20260611-01), and the matching counter left alone. */
  numbered(change: LedgerChange, day: string): LedgerChange {
    const counters = Object.fromEntries(
      Object.entries(change.counters ?? {}).filter(([key]) => key !== 'matching'),
    );
    const matchings = (change.matchings ?? []).map((matching) => {
      const rank = (this.#ranks.get('M') ?? 0) + 1;
      this.#ranks.set('M', rank);
      return { ...matching, number: `M${day.replaceAll('-', '')}-${pad2(rank)}` };
    });
    return { ...change, counters, matchings };
  }

  /** Books an invoice (or a credit note) as drawn, numbered by its day. */
  issue(draft: InvoiceDraft, ctx: PostingContext): LedgerInvoice {
    const journal = this.#journals[draft.invoice_type];
    const { invoice, change } = buildInvoice(
      this.#view(),
      { ...draft, journal_id: journal.id, invoice_number: this.number(journal, draft.invoice_date) },
      ctx,
    );
    this.#apply(change, ctx.now);
    return invoice;
  }

  /** A credit note on an invoice, matched against it. */
  credit(invoice: LedgerInvoice, draft: InvoiceDraft, ctx: PostingContext): LedgerInvoice {
    const refund = this.issue(draft, ctx);
    const { change } = buildMatching(
      this.#view([this.#entryOf(invoice), this.#entryOf(refund)]),
      [invoice.entry_id, refund.entry_id],
      invoice.partner_id,
      ctx,
      draft.invoice_date,
    );
    this.#apply(this.numbered(change, draft.invoice_date), ctx.now);
    return refund;
  }

  /** Pays `cents` of an invoice through the payment method's bank journal, matched against it. */
  pay(invoice: LedgerInvoice, cents: number, method: LedgerPaymentMethod, day: string, ctx: PostingContext) {
    const journal = own(this.ledger.journals, method.journal_id) as LedgerJournal;
    const { change } = buildInvoicePayment(
      this.#view([this.#entryOf(invoice)]),
      {
        date: day,
        payment_method_id: method.id,
        currency: invoice.currency,
        currency_exchange_rate: 1,
        reference: invoice.payment_communication ?? invoice.invoice_number,
        number: this.number(journal, day),
        items: [{ invoice_id: invoice.id, amount: fromCents(cents) }],
      },
      ctx,
    );
    this.#apply(this.numbered(change, day), ctx.now);
  }

  /** Books a journal entry drawn by the seeder, numbered by its day in its journal. */
  entry(draft: (number: string) => EntryDraft, journal: LedgerJournal, day: string, ctx: PostingContext) {
    const { change } = buildJournalEntry(this.#view(), draft(this.number(journal, day)), ctx);
    this.#apply(change, ctx.now);
  }

  /** A transfer mostly, a direct debit now and then. */
  method(faker: Faker): LedgerPaymentMethod {
    const [transfer, debit] = this.#methods;
    return faker.helpers.weightedArrayElement([
      { weight: 8, value: transfer as LedgerPaymentMethod },
      { weight: 2, value: (debit ?? transfer) as LedgerPaymentMethod },
    ]);
  }

  /**
   * Draws the invoices of a business day and their fates. `first` is the first minute the day takes
   * (the morning of the first day is the history's).
   */
  invoices(faker: Faker, day: string, factor: number, first: number): void {
    const { clients, suppliers } = this.seeded;
    const sales = clients.length ? countOf(faker, SALES_PER_DAY * factor) : 0;
    const purchases = suppliers.length ? countOf(faker, PURCHASES_PER_DAY * factor) : 0;
    for (let i = 0; i < sales + purchases; i++) {
      const sale = i < sales;
      const partner = pick(faker, sale ? clients : suppliers);
      const term = this.seeder.term();
      const minute = faker.number.int({ min: first, max: OFFICE_CLOSES });
      const draft = this.seeder.invoiceDraft(
        sale ? 'customer_invoice' : 'supplier_invoice',
        partner,
        day,
        term,
      );
      const issued: { invoice?: LedgerInvoice } = {};
      this.plan(day, minute, (now) => {
        issued.invoice = this.issue(draft, this.context(now, day, i, 'invoice'));
      });
      // The fate, drawn whatever it turns out to be, so that every invoice draws alike.
      const roll = faker.number.float({ min: 0, max: 1 });
      const onTime = addDays(day, faker.number.int({ min: Math.ceil(term.days / 3), max: term.days }));
      const late = addDays(draft.due_date, faker.number.int({ min: 3, max: 45 }));
      const creditOn = this.#bankDay(addDays(day, faker.number.int({ min: 2, max: 9 })));
      const method = this.method(faker);
      const payMinute = faker.number.int({ min: BANK_OPENS, max: BANK_CLOSES });
      const creditMinute = faker.number.int({ min: OFFICE_OPENS, max: OFFICE_CLOSES });
      if (draft.approval_status === 'rejected' || roll >= FATES.part) continue;
      const total = toCents(draft.total);
      if (roll < FATES.credited) {
        // Credited, then what is left paid (nothing, when the credit note takes the whole invoice).
        const refund = this.creditDraft(draft, creditOn);
        this.plan(creditOn, creditMinute, (now) => {
          if (issued.invoice) this.credit(issued.invoice, refund, this.context(now, day, i, 'credit'));
        });
        const rest = total - toCents(refund.total);
        const paidOn = this.#bankDay(onTime > creditOn ? onTime : addDays(creditOn, 1));
        if (rest <= 0) continue;
        this.plan(paidOn, payMinute, (now) => {
          if (issued.invoice)
            this.pay(issued.invoice, rest, method, paidOn, this.context(now, day, i, 'payment'));
        });
        continue;
      }
      const paidOn = this.#bankDay(roll < FATES.onTime || roll >= FATES.late ? onTime : late);
      const cents = roll >= FATES.late ? toCents(round2(draft.total / 2)) : total;
      this.plan(paidOn, payMinute, (now) => {
        if (issued.invoice)
          this.pay(issued.invoice, cents, method, paidOn, this.context(now, day, i, 'payment'));
      });
    }
  }

  /** The credit note of one unit of an invoice's first line, dated `date`. */
  creditDraft(invoice: InvoiceDraft, date: string): InvoiceDraft {
    const type = invoice.invoice_type === 'customer_invoice' ? 'customer_refund' : 'supplier_refund';
    const first = invoice.lines[0] as LedgerInvoiceLine;
    const untaxed = round2(Math.min(first.unit_price, first.untaxed_amount));
    const reversed = own(this.ledger.vat_codes, first.tax_code)?.reversed ?? false;
    const tax = reversed ? 0 : round2((untaxed * first.tax_rate) / 100);
    const line: LedgerInvoiceLine = {
      ...first,
      line_number: 1,
      quantity: 1,
      unit_price: untaxed,
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: round2(untaxed + tax),
      description: this.seeder.profile.words.creditNoteOf(date),
    };
    const partner = own(this.ledger.partners, invoice.partner_id ?? '');
    if (!partner) throw new Error(`accounting: no partner ${invoice.partner_id}`);
    return this.seeder.invoiceDraft(type, partner, date, this.seeder.term(), [line]);
  }

  /** The salaries of a month, accrued on its 25th (the staff's nets drawn then) and paid on its 28th. */
  salaries(faker: Faker, day: string): void {
    if (this.#staff.length === 0) return;
    const month = day.slice(0, 7);
    const staff = this.#staff;
    const nets = staff.map(() => faker.number.float({ min: 1900, max: 2900, fractionDigits: 2 }));
    const od = this.seeder.journal('misc');
    const bank = this.seeder.journal('bank');
    this.plan(day, SALARY_ACCRUAL, (now) => {
      const accrual = (number: string) => salaryAccrual(this.seeder, od, number, month, staff, nets);
      this.entry(accrual, od, day, this.context(now, day, 'salaries'));
    });
    const paidOn = `${month}-28`;
    this.plan(paidOn, SALARY_PAYMENT, (now) => {
      const payment = (number: string) =>
        salaryPaymentDraft(this.seeder, bank, number, month, paidOn, staff, nets);
      this.entry(payment, bank, paidOn, this.context(now, day, 'salary-payment'));
    });
  }

  /**
   * The salaries the history accrued on the 25th of its last month and left to pay on the 28th, when
   * its last day falls between them.
   */
  unpaidSalaries(until: string): void {
    const day = Number(until.slice(8, 10));
    if (day <= 25 || day > 28) return;
    const month = until.slice(0, 7);
    const od = this.seeder.journal('misc');
    const accrued = Object.values(this.ledger.entries).find(
      (e) => e.origin === 'salary' && e.journal_id === od.id && e.date === `${month}-25`,
    );
    if (!accrued) return;
    const lines = accrued.lines.filter((l) => l.employee_id !== null);
    const staff = lines.map((l) => own(this.ledger.employees, l.employee_id ?? '') as LedgerEmployee);
    const nets = lines.map((l) => l.credit);
    const bank = this.seeder.journal('bank');
    const paidOn = `${month}-28`;
    this.plan(paidOn, SALARY_PAYMENT, (now) => {
      const payment = (number: string) =>
        salaryPaymentDraft(this.seeder, bank, number, month, paidOn, staff, nets);
      this.entry(payment, bank, paidOn, this.context(now, paidOn, 'history-salary-payment'));
    });
  }

  /** The payments of the history's recent invoices planned after its last day, each with its own fate. */
  laterPayments(): void {
    const faker = fakerFor('accounting-later');
    const { seed, folder } = this.#options;
    for (const { invoice, date } of this.seeded.later) {
      reseed(faker, 'accounting-later', seed, folder.id, invoice.id);
      const paid = faker.number.float({ min: 0, max: 1 }) < LATER_PAID;
      const method = this.method(faker);
      const minute = faker.number.int({ min: BANK_OPENS, max: BANK_CLOSES });
      if (!paid) continue;
      const paidOn = this.#bankDay(date);
      this.plan(paidOn, minute, (now) => {
        this.pay(invoice, toCents(invoice.total), method, paidOn, this.context(now, invoice.id, 'payment'));
      });
    }
  }
}

/**
 * Books the business of the days after a seeded ledger's history as it stands at `at` (an ISO
 * instant, the clock's time to the minute; a day alone stands for its midnight), at the world's pace
 * (see the top of this file): the days up to `at`'s are drawn whole, and what they planned is booked
 * up to `at`.
 */
export function* liveLedgerDays(
  seeded: SeededLedger,
  at: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<LedgerRecord> {
  const { seeder } = seeded;
  const { until } = seeder.calendar;
  const through = at.length === 10 ? `${at}T00:00:00.000Z` : at;
  const days = drawnSpan(until, through.slice(0, 10));
  // Nothing happens before the first minute after the first day's morning.
  if (days.last < days.first || through < instantOf(until, MORNING + 1)) return seeder.ledger;
  const living = new LivingLedger(seeded, isoDay(days.last), through);
  const { seed, folder } = seeder.options;
  const faker = fakerFor('accounting-day');
  const stream = { faker, ctx: seeder.ctx };
  seeder.use(stream);
  living.laterPayments();
  living.unpaidSalaries(until);
  const { holidays } = seeder.profile;
  for (let n = days.first; n <= days.last; n++) {
    yield;
    const day = isoDay(n);
    const business = isBusinessDay(day, holidays);
    const payday = day.slice(8) === '25';
    if (business || payday) reseed(faker, 'accounting-day', seed, folder.id, day);
    if (business) {
      const first = day === until ? MORNING + 1 : OFFICE_OPENS;
      living.invoices(faker, day, season(day) * pace(day), first);
    }
    if (payday) living.salaries(faker, day);
    living.book(day);
  }
  return seeder.ledger;
}
