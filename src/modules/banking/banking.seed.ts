import { isoDay } from '../../lib/calendar.js';
import { uuidFrom } from '../../lib/ids.js';
import { NORMAL_PACE, type PaceOf } from '../../lib/pace.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { DatasetSeeder, drawnSpan, type SeedInput, untilOf } from '../../platform/seeding/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  belgianIban,
  dayBetween,
  type Faker,
  fakerFor,
  round2,
  structuredCommunication,
  workingDayFrom,
  workingDayIn,
  workingDayUntil,
} from '../../platform/seeding/finance-fakes.js';
import {
  activityEnd,
  addMonths,
  dayOfMonth,
  type HistoryMonth,
  historyStart,
  monthEnd,
  monthStart,
  monthsBetween,
  reseed,
} from '../../platform/seeding/vertical-data.js';
import type { BankingAccount, BankingDataset, BankingTransaction } from './banking.records.js';

/**
 * The seeded open-banking link of one connection, built from (seed, consumerid, connectionid) and its
 * `until` day alone.
 *
 * Two banks, three accounts of one company: a current account with a year of activity before
 * `until`'s month (customer transfers in, supplier transfers, salaries, card spending with receipts,
 * direct debits, bank fees, a transfer to savings) and the days of that month before `until`, a
 * savings account (the transfer and its interest) and a USD account. The last days hold pending and
 * declined card payments. Before that year, back to January 2021, the older history holds a few
 * transactions a month on the current account (customers paying, a supplier or a salary, a direct
 * debit, card spending, the fees), the savings account's quarterly interest and the USD account's
 * income and spending. Balances are not stored: they are the opening balance plus the completed
 * transactions, the opening balance being that of the history's first day.
 *
 * The business goes on after `until`: every business day adds its transactions as they are made,
 * drawn from the seed, the connection and the day alone (liveBankingDays), and the pending card
 * payments are booked a business day or two after they were made, at the booking's minute.
 */

/** The recent window: the months this many months before `until`'s, and `until`'s month. */
export const BANKING_RECENT_MONTHS = 12;

/** Banks the end user may have linked: name, BIC, country. */
const BANKS: [string, string, string][] = [
  ['BNP Paribas Fortis', 'GEBABEBBXXX', 'BE'],
  ['KBC Bank', 'KREDBEBBXXX', 'BE'],
  ['ING Belgium', 'BBRUBEBBXXX', 'BE'],
  ['Belfius Bank', 'GKCCBEBBXXX', 'BE'],
];

const MERCHANTS = [
  'Delhaize',
  'Colruyt',
  'Shell Express',
  'SNCB/NMBS',
  'Amazon EU',
  'Bol.com',
  'Brico',
  'Office Depot',
  'Le Pain Quotidien',
  'Total Energies',
  'MediaMarkt',
  'Hotel Ibis Gent',
];

const DIRECT_DEBITS: [string, number, number][] = [
  ['Proximus', 65, 95],
  ['Engie Electrabel', 180, 320],
  ['AXA Belgium', 120, 160],
  ['Telenet', 45, 70],
];

/** Some counterparts of the company: name and IBAN. */

/**
 * A completed transaction of `account`, executed (and last updated) at `executed`, valued at
 * `value`, with the fields of its kind: the history's and the days' alike.
 */
function transactionRecord(
  id: string,
  account: BankingAccount,
  amount: number,
  executed: string,
  value: string,
  fields: Partial<BankingTransaction> & { operation_type: BankingTransaction['operation_type'] },
): BankingTransaction {
  return {
    id,
    bank_account_id: account.id,
    amount: round2(amount),
    tax_amount: null,
    currency: account.currency,
    description: null,
    additional_information: null,
    counterpart_name: null,
    counterpart_reference: null,
    remittance_information: null,
    creation_date: executed,
    value_date: value,
    execution_date: executed,
    internal_transaction: false,
    last_update_on: executed,
    status: 'completed',
    attachments: [],
    ...fields,
  };
}

type Party = { name: string; iban: string };

class BankingSeeder extends DatasetSeeder<BankingDataset> {
  /** The first day of the recent window (for the default clock, 2025-01-01). */
  readonly first = addMonths(monthStart(this.until), -BANKING_RECENT_MONTHS);
  /** The last day with activity: the eve of `until`. */
  readonly last = addDays(this.until, -1);

  constructor(options: SeedInput) {
    super('banking', options, { institutions: {}, accounts: {}, transactions: {} });
  }

  institutions(): string[] {
    const picked = this.faker.helpers.arrayElements(BANKS, 2);
    return picked.map(([name, bic, country]) => {
      const id = this.id('institution');
      this.data.institutions[id] = { id, bic, country, name };
      return id;
    });
  }

  account(institution: string, description: string, currency: string, holder: string, opening: number) {
    const id = this.id('account');
    const account: BankingAccount = {
      id,
      institution_id: institution,
      currency,
      description,
      reference: belgianIban(this.faker),
      reference_type: 'IBAN',
      holder_name: holder,
      active: true,
      opening_balance: opening,
    };
    this.data.accounts[id] = account;
    return account;
  }

  transaction(
    account: BankingAccount,
    day: string,
    amount: number,
    fields: Partial<BankingTransaction> & { operation_type: BankingTransaction['operation_type'] },
  ) {
    const f = this.faker;
    const id = this.id('transaction');
    // Nothing after the eve of `until` (a month's last working days can run into `until`'s month).
    if (day > this.last) day = this.last;
    const execution = at(day, f.number.int({ min: 7, max: 19 }), f.number.int({ min: 0, max: 59 }));
    // Value date: the same working day, or the next one for transfers booked late in the day.
    const next = fields.operation_type === 'card' ? day : workingDayFrom(day);
    const valueDay = next > this.last ? day : next;
    const record = transactionRecord(id, account, amount, execution, at(valueDay, 0), fields);
    this.data.transactions[id] = record;
    return record;
  }

  parties(): { customers: Party[]; suppliers: Party[]; employees: Party[] } {
    const f = this.faker;
    const customers = Array.from({ length: 10 }, () => ({ name: f.company.name(), iban: belgianIban(f) }));
    const suppliers = Array.from({ length: 6 }, () => ({ name: f.company.name(), iban: belgianIban(f) }));
    const employees = Array.from({ length: 3 }, () => ({ name: f.person.fullName(), iban: belgianIban(f) }));
    return { customers, suppliers, employees };
  }

  activity(
    current: BankingAccount,
    savings: BankingAccount,
    usd: BankingAccount,
    { customers, suppliers, employees }: ReturnType<BankingSeeder['parties']>,
  ) {
    const f = this.faker;
    const months = Array.from({ length: BANKING_RECENT_MONTHS }, (_, i) => addMonths(this.first, i));
    for (const first of months) {
      const mm = first.slice(5, 7);
      const yyyy = first.slice(0, 4);
      const last = monthEnd(first);
      // Customers paying invoices.
      for (let i = 0; i < f.number.int({ min: 4, max: 7 }); i++) {
        const customer = f.helpers.arrayElement(customers);
        const day = workingDayFrom(dayBetween(f, first, addDays(last, -3)));
        this.transaction(current, day, amountBetween(f, 350, 7500), {
          operation_type: 'incoming_transfer',
          description: `Transfer from ${customer.name}`,
          additional_information: 'SEPA credit transfer',
          counterpart_name: customer.name,
          counterpart_reference: customer.iban,
          remittance_information: structuredCommunication(f),
        });
      }
      // Paying suppliers.
      for (let i = 0; i < f.number.int({ min: 2, max: 4 }); i++) {
        const supplier = f.helpers.arrayElement(suppliers);
        const day = workingDayFrom(dayBetween(f, first, addDays(last, -3)));
        this.transaction(current, day, -amountBetween(f, 200, 4200), {
          operation_type: 'outgoing_transfer',
          description: `Transfer to ${supplier.name}`,
          additional_information: 'SEPA credit transfer',
          counterpart_name: supplier.name,
          counterpart_reference: supplier.iban,
          remittance_information: `Invoice ${f.string.alpha({ length: 2, casing: 'upper' })}-${f.string.numeric(5)}`,
        });
      }
      // Salaries at the end of the month.
      const payday = workingDayFrom(addDays(last, -2));
      for (const employee of employees) {
        this.transaction(current, payday, -amountBetween(f, 2300, 3400), {
          operation_type: 'outgoing_transfer',
          description: `Salary ${employee.name}`,
          additional_information: 'SEPA credit transfer',
          counterpart_name: employee.name,
          counterpart_reference: employee.iban,
          remittance_information: `Salary ${mm}/${yyyy}`,
        });
      }
      // Direct debits.
      for (const [creditor, min, max] of DIRECT_DEBITS) {
        const day = workingDayFrom(
          `${yyyy}-${mm}-${String(f.number.int({ min: 5, max: 15 })).padStart(2, '0')}`,
        );
        this.transaction(current, day, -amountBetween(f, min, max), {
          operation_type: 'direct_debit',
          description: `Direct debit ${creditor}`,
          additional_information: `SEPA direct debit, mandate ${f.string.alphanumeric({ length: 10, casing: 'upper' })}`,
          counterpart_name: creditor,
          counterpart_reference: creditorIban(creditor),
          remittance_information: `${creditor} ${mm}/${yyyy}`,
        });
      }
      // Card spending, some with their receipt attached.
      for (let i = 0; i < f.number.int({ min: 3, max: 6 }); i++) {
        this.card(current, workingDayFrom(dayBetween(f, first, last)), 'completed');
      }
      // Bank fees.
      this.transaction(current, workingDayFrom(last), -amountBetween(f, 8, 15), {
        operation_type: 'fee',
        description: 'Account management fees',
        additional_information: 'Monthly package',
      });
    }
    const move = amountBetween(f, 8000, 15000);
    const moveDay = monthEnd(addMonths(this.until, -7));
    this.transaction(current, moveDay, -move, {
      operation_type: 'outgoing_transfer',
      description: 'Transfer to savings account',
      counterpart_name: current.holder_name,
      counterpart_reference: savings.reference,
      internal_transaction: true,
    });
    this.transaction(savings, moveDay, move, {
      operation_type: 'incoming_transfer',
      description: 'Transfer from current account',
      counterpart_name: current.holder_name,
      counterpart_reference: current.reference,
      internal_transaction: true,
    });
    for (const quarter of months.filter((m) => Number(m.slice(5, 7)) % 3 === 0).map(monthEnd)) {
      this.transaction(savings, quarter, amountBetween(f, 40, 160), {
        operation_type: 'interest',
        description: 'Quarterly interest',
      });
    }
    for (const day of [
      dayOfMonth(this.until, -10, 12),
      dayOfMonth(this.until, -6, 8),
      dayOfMonth(this.until, -2, 19),
    ]) {
      const client = f.company.name();
      this.transaction(usd, workingDayFrom(day), amountBetween(f, 1500, 6000), {
        operation_type: 'swift_income',
        description: `SWIFT transfer from ${client}`,
        additional_information: 'International transfer',
        counterpart_name: client,
        counterpart_reference: `US${f.string.numeric(18)}`,
      });
    }
    this.transaction(usd, dayOfMonth(this.until, -2, 28), -25, {
      operation_type: 'fee',
      description: 'SWIFT charges',
    });
    // The days of `until`'s month before it: a few transfers, and card payments still pending.
    for (const day of [-10, -8, -6, -3].map((days) => workingDayFrom(addDays(this.until, days)))) {
      if (day > this.last) continue;
      const customer = f.helpers.arrayElement(customers);
      this.transaction(current, day, amountBetween(f, 500, 5000), {
        operation_type: 'incoming_transfer',
        description: `Transfer from ${customer.name}`,
        additional_information: 'SEPA credit transfer',
        counterpart_name: customer.name,
        counterpart_reference: customer.iban,
        remittance_information: structuredCommunication(f),
      });
    }
    this.card(current, addDays(this.until, -2), 'declined');
    this.card(current, addDays(this.until, -2), 'pending');
    this.card(current, this.last, 'pending');
  }

  /**
   * The older history, from its faker and ids (see `inHistory`): months wholly before the recent
   * window. The current account spends a little more than it earns, so that its balance comes down
   * over the years to where the recent window starts it.
   */
  history(
    current: BankingAccount,
    savings: BankingAccount,
    usd: BankingAccount,
    { customers, suppliers, employees }: ReturnType<BankingSeeder['parties']>,
  ) {
    const f = this.faker;
    const partner = (list: Party[]) => f.helpers.arrayElement(list);
    const within = (month: HistoryMonth) => workingDayIn(dayBetween(f, month.first, month.last), month);
    for (const month of monthsBetween(historyStart(this.until), this.first)) {
      const [yyyy, mm] = month.month.split('-');
      for (let i = 0; i < f.number.int({ min: 1, max: 2 }); i++) {
        const customer = partner(customers);
        this.transaction(current, within(month), amountBetween(f, 300, 3200), {
          operation_type: 'incoming_transfer',
          description: `Transfer from ${customer.name}`,
          additional_information: 'SEPA credit transfer',
          counterpart_name: customer.name,
          counterpart_reference: customer.iban,
          remittance_information: structuredCommunication(f),
        });
      }
      // A supplier or a salary, alternately.
      const even = Number(mm) % 2 === 0;
      const payee = even ? partner(employees) : partner(suppliers);
      this.transaction(current, within(month), -amountBetween(f, even ? 2300 : 1800, even ? 3400 : 4200), {
        operation_type: 'outgoing_transfer',
        description: even ? `Salary ${payee.name}` : `Transfer to ${payee.name}`,
        additional_information: 'SEPA credit transfer',
        counterpart_name: payee.name,
        counterpart_reference: payee.iban,
        remittance_information: even
          ? `Salary ${mm}/${yyyy}`
          : `Invoice ${f.string.alpha({ length: 2, casing: 'upper' })}-${f.string.numeric(5)}`,
      });
      // A direct debit every other month, each creditor in turn.
      if (!even) {
        const [creditor, min, max] = DIRECT_DEBITS[Math.floor(Number(mm) / 2) % DIRECT_DEBITS.length] as [
          string,
          number,
          number,
        ];
        this.transaction(current, within(month), -amountBetween(f, min, max), {
          operation_type: 'direct_debit',
          description: `Direct debit ${creditor}`,
          additional_information: `SEPA direct debit, mandate ${f.string.alphanumeric({ length: 10, casing: 'upper' })}`,
          counterpart_name: creditor,
          counterpart_reference: creditorIban(creditor),
          remittance_information: `${creditor} ${mm}/${yyyy}`,
        });
      }
      if (f.datatype.boolean(0.6)) this.card(current, within(month), 'completed');
      this.transaction(current, workingDayIn(month.last, month), -amountBetween(f, 8, 15), {
        operation_type: 'fee',
        description: 'Account management fees',
        additional_information: 'Monthly package',
      });
      if (Number(mm) % 3 === 0) {
        this.transaction(savings, month.last, amountBetween(f, 40, 160), {
          operation_type: 'interest',
          description: 'Quarterly interest',
        });
      }
      // Twice a year, a client abroad pays in USD, spent on a supplier there a few weeks later.
      if (mm === '04' || mm === '10') {
        const client = f.company.name();
        const income = amountBetween(f, 1500, 6000);
        this.transaction(
          usd,
          workingDayIn(dayBetween(f, month.first, addDays(month.first, 14)), month),
          income,
          {
            operation_type: 'swift_income',
            description: `SWIFT transfer from ${client}`,
            additional_information: 'International transfer',
            counterpart_name: client,
            counterpart_reference: `US${f.string.numeric(18)}`,
          },
        );
        const vendor = f.helpers.arrayElement(['Amazon Web Services', 'GitHub', 'Atlassian', 'Figma']);
        this.transaction(
          usd,
          workingDayIn(month.last, month),
          -round2(income * f.number.float({ min: 1, max: 1.05 })),
          {
            operation_type: 'outgoing_transfer',
            description: `Transfer to ${vendor}`,
            additional_information: 'International transfer',
            counterpart_name: vendor,
            counterpart_reference: vendorAccount(vendor),
          },
        );
      }
    }
  }

  card(account: BankingAccount, day: string, status: BankingTransaction['status']) {
    const f = this.faker;
    const merchant = f.helpers.arrayElement(MERCHANTS);
    const amount = -amountBetween(f, 6, 420);
    const receipt = status === 'completed' && f.datatype.boolean(0.45);
    const record = this.transaction(account, day, amount, {
      operation_type: 'card',
      status,
      description: `Card payment ${merchant}`,
      additional_information: `Card **** ${f.string.numeric(4)}`,
      counterpart_name: merchant,
      tax_amount: round2((amount * 21) / 121),
    });
    if (receipt) {
      record.attachments.push({ id: this.id('attachment'), filename: receiptName(day, merchant) });
      record.last_update_on = at(addDays(day, 1), 9);
    }
  }
}

/** A stable account number for a supplier abroad (the same across its transfers and datasets). */
const vendorAccount = (vendor: string): string => `US${fakerFor('vendor', vendor).string.numeric(18)}`;

/** A stable IBAN for a well-known creditor (the same across its debits and datasets). */
const creditorIban = (creditor: string): string => belgianIban(fakerFor('creditor', creditor));

/** A connection's history, and what the days after it draw on: its accounts and counterparts. */
interface SeededBanking {
  data: BankingDataset;
  current: BankingAccount;
  savings: BankingAccount;
  usd: BankingAccount;
  parties: Parties;
  /** The card payments the history left pending, and when the bank books them. */
  bookings: Booking[];
}

type Parties = ReturnType<BankingSeeder['parties']>;

/** When the bank books a pending card payment: its day, its instant and the receipt it brings. */
interface Booking {
  transaction: BankingTransaction;
  day: string;
  instant: string;
  receipt: { id: string; filename: string } | null;
}

function seedBankingHistory(options: SeedInput): SeededBanking {
  const s = new BankingSeeder(options);
  const [first, second] = s.institutions();
  const holder = s.faker.company.name();
  const opening = (min: number, max: number) => amountBetween(s.faker, min, max);
  const current = s.account(first ?? '', 'Current account', 'EUR', holder, opening(20_000, 40_000));
  const savings = s.account(first ?? '', 'Savings account', 'EUR', holder, opening(30_000, 80_000));
  const usd = s.account(second ?? '', 'USD account', 'USD', holder, opening(2_000, 8_000));
  const parties = s.parties();
  s.inHistory(() => s.history(current, savings, usd, parties));
  // The opening balances are those of the history's first day: the recent window starts where the
  // history leaves each account, as it did before the history existed.
  for (const account of [current, savings, usd]) {
    const moved = Object.values(s.data.transactions)
      .filter((t) => t.bank_account_id === account.id && t.status === 'completed')
      .reduce((sum, t) => sum + Math.round(t.amount * 100), 0);
    account.opening_balance = round2(account.opening_balance - moved / 100);
  }
  s.activity(current, savings, usd, parties);
  // The card payments still pending on the first morning are booked a business day or two later, not
  // before that morning (drawn last: the records above draw what they drew before).
  const firstBooking = workingDayFrom(s.until);
  const bookings = Object.values(s.data.transactions)
    .filter((t) => t.status === 'pending')
    .map((transaction): Booking => {
      const made = transaction.execution_date.slice(0, 10);
      const after = businessDaysAfter(made, s.faker.number.int({ min: 1, max: 2 }));
      const day = after < firstBooking ? firstBooking : after;
      const instant = at(
        day,
        s.faker.number.int({ min: 10, max: 15 }),
        s.faker.number.int({ min: 0, max: 59 }),
      );
      const receipt = s.faker.datatype.boolean(0.45)
        ? {
            id: uuidFrom('banking-attachment', s.data.connectionid, 'history', transaction.id),
            filename: receiptName(made, transaction.counterpart_name ?? ''),
          }
        : null;
      return { transaction, day, instant, receipt };
    });
  return { data: s.data, current, savings, usd, parties, bookings };
}

/** A connection's dataset as its history leaves it on the morning of its first use. */
export function seedBanking(options: SeedInput): BankingDataset {
  return seedBankingHistory(options).data;
}

/** The file name of a card payment's receipt. */
const receiptName = (day: string, merchant: string): string =>
  `receipt-${day}-${merchant.replace(/\W+/g, '-').toLowerCase()}.pdf`;

/** The business day `count` business days after `day`. */
function businessDaysAfter(day: string, count: number): string {
  let out = day;
  for (let i = 0; i < count; i++) out = workingDayFrom(addDays(out, 1));
  return out;
}

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
 * of the dataset's first use (after its morning, which the history holds) to the day of `now` (the
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
export function liveBankingDays(
  live: SeededBanking,
  input: SeedInput,
  now: string,
  pace: PaceOf = NORMAL_PACE,
): BankingDataset {
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
 * Builds one connection's dataset from the seed (the vertical module's `build`): its history, and the
 * business of the days after it up to `at` (the clock's time to the minute; by default the morning of
 * the first use, where the history ends) at the world's pace.
 */
export const buildBankingDataset = (
  seed: number,
  args: ConnectionDatasetArgs,
  at: string = activityEnd(untilOf(args)),
  pace: PaceOf = NORMAL_PACE,
): BankingDataset => liveBankingDays(seedBankingHistory({ seed, ...args }), { seed, ...args }, at, pace);
