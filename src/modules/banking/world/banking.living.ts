import { isoDay } from '../../../lib/calendar.js';
import { uuidFrom } from '../../../lib/ids.js';
import { NORMAL_PACE, type PaceOf } from '../../../lib/pace.js';
import { runAtOnce, type Sliced } from '../../../lib/slices.js';
import type { ConnectionDatasetArgs } from '../../../platform/datasets.js';
import { drawnSpan, type SeedInput, seedInputOf, untilOf } from '../../../platform/seeding/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  type Faker,
  fakerFor,
  round2,
  structuredCommunication,
  workingDayFrom,
  workingDayUntil,
} from '../../../platform/seeding/finance-fakes.js';
import { activityEnd, monthEnd, reseed } from '../../../platform/seeding/vertical-data.js';
import type { BankingAccount, BankingDataset, BankingTransaction } from '../model/banking.records.js';
import {
  type Booking,
  businessDaysAfter,
  creditorIban,
  DIRECT_DEBITS,
  MERCHANTS,
  receiptName,
  type SeededBanking,
  seedBankingHistory,
  transactionRecord,
  vendorAccount,
} from './banking.seed.js';

/**
 * The days after a bank connection's history: the business each business day draws, as it
 * happens (liveBankingDays), and the module's build of a dataset.
 */

/** The last business day of the month of `day`. */
const lastBusinessDay = (day: string): string => workingDayUntil(monthEnd(day));

/** How many of something a day draws when it draws `mean` on average (Poisson, by Knuth's product). */
function drawCount(f: Faker, mean: number): number {
  const limit = Math.exp(-mean);
  let count = 0;
  for (let product = f.number.float(); product > limit; product *= f.number.float()) count++;
  return count;
}

/** What a business day draws on average, at the usual pace, on the current and USD accounts. */
const MEAN_PER_DAY = { customers: 0.45, suppliers: 0.5, cards: 0.9, swift: 0.05 };

/**
 * How busy a business day is against a usual one: customers pay more in the last days of the month,
 * August (the holidays) is quieter, December spends more by card.
 */
function rhythm(day: string): { customers: number; suppliers: number; cards: number } {
  const month = day.slice(5, 7);
  const season = month === '08' ? 0.6 : 1;
  return {
    customers: season * (Number(day.slice(8, 10)) >= 25 ? 1.4 : 1),
    suppliers: season,
    cards: season * (month === '12' ? 1.3 : 1),
  };
}

/** The days of the month a connection's standing orders fall on: its mandates, and its USD vendor. */
interface Standing {
  debits: { creditor: string; min: number; max: number; day: number }[];
  vendor: string;
  vendorDay: number;
}

function standingOf(f: Faker, seed: number, connectionid: string): Standing {
  reseed(f, 'banking-mandates', seed, connectionid);
  return {
    debits: DIRECT_DEBITS.map(([creditor, min, max]) => ({
      creditor,
      min,
      max,
      day: f.number.int({ min: 5, max: 15 }),
    })),
    vendor: f.helpers.arrayElement(['Amazon Web Services', 'GitHub', 'Atlassian', 'Figma']),
    vendorDay: f.number.int({ min: 1, max: 28 }),
  };
}

/** The first working day on or after the `day`-th of the month of `month`, within that month. */
function monthDay(month: string, day: number): string {
  const out = workingDayFrom(`${month.slice(0, 8)}${String(day).padStart(2, '0')}`);
  return out.slice(0, 7) === month.slice(0, 7) ? out : lastBusinessDay(month);
}

/** The days of a month its standing business falls on (worked out once a month). */
interface MonthCalendar {
  month: string;
  debits: { creditor: string; min: number; max: number; on: string }[];
  /** The salaries: the first working day from two days before the month's end. */
  payday: string;
  /** The move to savings, on the first business day of a quarter (null in the other months). */
  savings: string | null;
  /** The month's last business day: the fees, and at a quarter's end the savings' interest. */
  closing: string;
  quarterEnd: boolean;
  vendor: string;
}

function monthCalendar(day: string, standing: Standing): MonthCalendar {
  const month = Number(day.slice(5, 7));
  return {
    month: day.slice(0, 7),
    debits: standing.debits.map(({ day: on, ...debit }) => ({ ...debit, on: monthDay(day, on) })),
    payday: workingDayFrom(addDays(monthEnd(day), -2)),
    savings: month % 3 === 1 ? monthDay(day, 1) : null,
    closing: lastBusinessDay(day),
    quarterEnd: month % 3 === 0,
    vendor: monthDay(day, standing.vendorDay),
  };
}

/**
 * One business day of a connection's accounts, drawn whole from its own faker (the same draws
 * whatever the clock): the transactions are numbered in the day; one exists from the minute it is
 * made, and those a later day changes (card payments the bank books) show the change from its minute
 * on. `now` is the instant the dataset shows (the clock's time to the minute): what comes after it
 * is drawn and left out.
 */
class BankingDay {
  #made = 0;
  /** The first minute of the day a transaction may be made in. */
  readonly #from: number;

  constructor(
    readonly f: Faker,
    readonly live: SeededBanking,
    readonly day: string,
    readonly now: string,
    morning: boolean,
  ) {
    // The first day's business starts after its morning (the history's).
    this.#from = morning ? 9 * 60 + 1 : 7 * 60;
  }

  transaction(
    account: BankingAccount,
    amount: number,
    fields: Partial<BankingTransaction> & { operation_type: BankingTransaction['operation_type'] },
    instant = this.#instant(),
  ): BankingTransaction {
    const id = uuidFrom('banking-transaction', this.live.data.connectionid, this.day, this.#made++);
    const record = transactionRecord(id, account, amount, instant, at(this.day, 0), fields);
    // Made at a whole minute: there from that minute on.
    if (instant <= this.now) this.live.data.transactions[id] = record;
    return record;
  }

  #instant(): string {
    const minute = this.f.number.int({ min: this.#from, max: 19 * 60 + 59 });
    return at(this.day, Math.floor(minute / 60), minute % 60);
  }

  customer(amount: number) {
    const customer = this.f.helpers.arrayElement(this.live.parties.customers);
    this.transaction(this.live.current, amount, {
      operation_type: 'incoming_transfer',
      description: `Transfer from ${customer.name}`,
      additional_information: 'SEPA credit transfer',
      counterpart_name: customer.name,
      counterpart_reference: customer.iban,
      remittance_information: structuredCommunication(this.f),
    });
  }

  supplier() {
    const f = this.f;
    const supplier = f.helpers.arrayElement(this.live.parties.suppliers);
    this.transaction(this.live.current, -amountBetween(f, 200, 4200), {
      operation_type: 'outgoing_transfer',
      description: `Transfer to ${supplier.name}`,
      additional_information: 'SEPA credit transfer',
      counterpart_name: supplier.name,
      counterpart_reference: supplier.iban,
      remittance_information: `Invoice ${f.string.alpha({ length: 2, casing: 'upper' })}-${f.string.numeric(5)}`,
    });
  }

  /**
   * A card payment: declined now and then; otherwise pending, with the day the bank books it (a
   * business day or two later) as its value date. From the booking's minute on it is completed,
   * updated then, and some bring their receipt then.
   */
  card() {
    const f = this.f;
    const merchant = f.helpers.arrayElement(MERCHANTS);
    const amount = -amountBetween(f, 6, 420);
    const declined = f.datatype.boolean(0.03);
    const record = this.transaction(this.live.current, amount, {
      operation_type: 'card',
      status: declined ? 'declined' : 'pending',
      description: `Card payment ${merchant}`,
      additional_information: `Card **** ${f.string.numeric(4)}`,
      counterpart_name: merchant,
      tax_amount: round2((amount * 21) / 121),
    });
    if (declined) return;
    const day = businessDaysAfter(this.day, f.number.int({ min: 1, max: 2 }));
    const instant = at(day, f.number.int({ min: 6, max: 11 }), f.number.int({ min: 0, max: 59 }));
    const receipt = f.datatype.boolean(0.45)
      ? {
          id: uuidFrom('banking-attachment', this.live.data.connectionid, record.id),
          filename: receiptName(this.day, merchant),
        }
      : null;
    record.value_date = at(day, 0);
    if (instant <= this.now) book({ transaction: record, day, instant, receipt });
  }

  debit(creditor: string, min: number, max: number) {
    const f = this.f;
    const period = `${this.day.slice(5, 7)}/${this.day.slice(0, 4)}`;
    this.transaction(this.live.current, -amountBetween(f, min, max), {
      operation_type: 'direct_debit',
      description: `Direct debit ${creditor}`,
      additional_information: `SEPA direct debit, mandate ${f.string.alphanumeric({ length: 10, casing: 'upper' })}`,
      counterpart_name: creditor,
      counterpart_reference: creditorIban(creditor),
      remittance_information: `${creditor} ${period}`,
    });
  }

  salaries() {
    const period = `${this.day.slice(5, 7)}/${this.day.slice(0, 4)}`;
    for (const employee of this.live.parties.employees) {
      this.transaction(this.live.current, -amountBetween(this.f, 2300, 3400), {
        operation_type: 'outgoing_transfer',
        description: `Salary ${employee.name}`,
        additional_information: 'SEPA credit transfer',
        counterpart_name: employee.name,
        counterpart_reference: employee.iban,
        remittance_information: `Salary ${period}`,
      });
    }
  }

  fees() {
    this.transaction(this.live.current, -amountBetween(this.f, 8, 15), {
      operation_type: 'fee',
      description: 'Account management fees',
      additional_information: 'Monthly package',
    });
  }

  /** The quarter's move to the savings account: both legs at the same instant. */
  toSavings() {
    const { current, savings } = this.live;
    const amount = amountBetween(this.f, 5000, 10_000);
    const instant = this.#instant();
    this.transaction(
      current,
      -amount,
      {
        operation_type: 'outgoing_transfer',
        description: 'Transfer to savings account',
        counterpart_name: current.holder_name,
        counterpart_reference: savings.reference,
        internal_transaction: true,
      },
      instant,
    );
    this.transaction(
      savings,
      amount,
      {
        operation_type: 'incoming_transfer',
        description: 'Transfer from current account',
        counterpart_name: current.holder_name,
        counterpart_reference: current.reference,
        internal_transaction: true,
      },
      instant,
    );
  }

  interest() {
    this.transaction(this.live.savings, amountBetween(this.f, 40, 160), {
      operation_type: 'interest',
      description: 'Quarterly interest',
    });
  }

  /** A client abroad paying in USD, and the bank's charges on it. */
  swiftIncome() {
    const f = this.f;
    const client = f.company.name();
    this.transaction(this.live.usd, amountBetween(f, 1500, 6000), {
      operation_type: 'swift_income',
      description: `SWIFT transfer from ${client}`,
      additional_information: 'International transfer',
      counterpart_name: client,
      counterpart_reference: `US${f.string.numeric(18)}`,
    });
    this.transaction(this.live.usd, -amountBetween(f, 10, 25), {
      operation_type: 'fee',
      description: 'SWIFT charges',
    });
  }

  /** The monthly subscription to the supplier abroad, from the USD account. */
  vendor(vendor: string) {
    this.transaction(this.live.usd, -amountBetween(this.f, 150, 600), {
      operation_type: 'outgoing_transfer',
      description: `Transfer to ${vendor}`,
      additional_information: 'International transfer',
      counterpart_name: vendor,
      counterpart_reference: vendorAccount(vendor),
    });
  }
}

/** A pending card payment as the bank books it: completed, valued and updated at its booking. */
function book({ transaction, day, instant, receipt }: Booking): void {
  transaction.status = 'completed';
  transaction.value_date = at(day, 0);
  transaction.last_update_on = instant;
  if (receipt) transaction.attachments.push(receipt);
}

/**
 * The business of the days after the history, on every business day (Monday to Friday) from the day
 * the history ends (after its morning, which the history holds) to the day of `now` (the
 * clock's time to the minute): each day is drawn whole from the seed, the connection and the day
 * alone, so it reads the same whenever it is built, and the days already there never change when the
 * clock adds more. What a build shows is what happened up to `now`: a transaction exists from the
 * minute it is made, a card payment is pending until the minute the bank books it (a business day or
 * two later), then completed, updated at that minute. Customers pay in and suppliers are paid, cards
 * spend, in counts that follow the month and the world's pace; the direct debits fall on their
 * mandate's day, the salaries near the month's end, the fees on its last business day; a quarter
 * starts with a move to savings and ends with their interest; the USD account is paid from abroad now
 * and then and pays its supplier there monthly. The card payments the history left pending are booked
 * likewise, at their minute. Balances follow: they are derived from the transactions.
 */
export function* liveBankingDays(
  live: SeededBanking,
  input: SeedInput,
  now: string,
  pace: PaceOf = NORMAL_PACE,
): Sliced<BankingDataset> {
  const until = untilOf(input);
  const today = now.slice(0, 10);
  if (today < until) return live.data;
  for (const booking of live.bookings) if (booking.instant <= now) book(booking);
  const f = fakerFor('banking-day');
  const standing = standingOf(f, input.seed, live.data.connectionid);
  let calendar: MonthCalendar | null = null;
  // Days as numbers (days since 1970-01-01, a Thursday): a date is written out for business days only.
  const { first, last } = drawnSpan(until, today);
  for (let n = first; n <= last; n++) {
    const week = (((n + 4) % 7) + 7) % 7;
    if (week === 0 || week === 6) continue;
    yield;
    const day = isoDay(n);
    if (calendar?.month !== day.slice(0, 7)) calendar = monthCalendar(day, standing);
    reseed(f, 'banking-day', input.seed, live.data.connectionid, day);
    const business = new BankingDay(f, live, day, now, day === until);
    const factor = pace(day);
    const busy = rhythm(day);
    for (let i = drawCount(f, MEAN_PER_DAY.customers * busy.customers * factor); i > 0; i--)
      business.customer(amountBetween(f, 350, 7500));
    for (let i = drawCount(f, MEAN_PER_DAY.suppliers * busy.suppliers * factor); i > 0; i--)
      business.supplier();
    for (let i = drawCount(f, MEAN_PER_DAY.cards * busy.cards * factor); i > 0; i--) business.card();
    for (const { creditor, min, max, on } of calendar.debits)
      if (on === day) business.debit(creditor, min, max);
    if (calendar.payday === day) business.salaries();
    if (calendar.savings === day) business.toSavings();
    if (calendar.closing === day) {
      business.fees();
      if (calendar.quarterEnd) business.interest();
    }
    for (let i = drawCount(f, MEAN_PER_DAY.swift * factor); i > 0; i--) business.swiftIncome();
    if (calendar.vendor === day) business.vendor(standing.vendor);
  }
  return live.data;
}

/**
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history up to
 * the morning of the origin's day, and the business of the days after it up to `at` (the clock's
 * time to the minute; by default that morning, where the history ends) at the world's pace.
 */
export function* bankingDatasetBuild(
  seed: number,
  args: ConnectionDatasetArgs,
  at?: string,
  pace: PaceOf = NORMAL_PACE,
  origin?: string,
): Sliced<BankingDataset> {
  const input = seedInputOf(seed, args, origin);
  return yield* liveBankingDays(seedBankingHistory(input), input, at ?? activityEnd(untilOf(input)), pace);
}

/** bankingDatasetBuild, at once. */
export const buildBankingDataset = (...args: Parameters<typeof bankingDatasetBuild>): BankingDataset =>
  runAtOnce(bankingDatasetBuild(...args));
