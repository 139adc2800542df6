import { uuidFrom } from '../../../lib/ids.js';
import { DatasetSeeder, type SeedInput } from '../../../platform/seeding/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  belgianIban,
  dayBetween,
  fakerFor,
  round2,
  structuredCommunication,
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
import type { BankingAccount, BankingDataset, BankingTransaction } from '../model/banking.records.js';

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

export const MERCHANTS = [
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

export const DIRECT_DEBITS: [string, number, number][] = [
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
export function transactionRecord(
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

  /** A month of the current account's activity in the recent window, from its first day. */
  recentMonth(
    current: BankingAccount,
    first: string,
    { customers, suppliers, employees }: ReturnType<BankingSeeder['parties']>,
  ) {
    const f = this.faker;
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

  activity(
    current: BankingAccount,
    savings: BankingAccount,
    usd: BankingAccount,
    { customers, suppliers, employees }: ReturnType<BankingSeeder['parties']>,
  ) {
    const f = this.faker;
    const months = Array.from({ length: BANKING_RECENT_MONTHS }, (_, i) => addMonths(this.first, i));
    for (const first of months) this.recentMonth(current, first, { customers, suppliers, employees });
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
export const vendorAccount = (vendor: string): string => `US${fakerFor('vendor', vendor).string.numeric(18)}`;

/** A stable IBAN for a well-known creditor (the same across its debits and datasets). */
export const creditorIban = (creditor: string): string => belgianIban(fakerFor('creditor', creditor));

/** A connection's history, and what the days after it draw on: its accounts and counterparts. */
export interface SeededBanking {
  data: BankingDataset;
  current: BankingAccount;
  savings: BankingAccount;
  usd: BankingAccount;
  parties: Parties;
  /** The card payments the history left pending, and when the bank books them. */
  bookings: Booking[];
}

export type Parties = ReturnType<BankingSeeder['parties']>;

/** When the bank books a pending card payment: its day, its instant and the receipt it brings. */
export interface Booking {
  transaction: BankingTransaction;
  day: string;
  instant: string;
  receipt: { id: string; filename: string } | null;
}

export function seedBankingHistory(options: SeedInput): SeededBanking {
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
export const receiptName = (day: string, merchant: string): string =>
  `receipt-${day}-${merchant.replace(/\W+/g, '-').toLowerCase()}.pdf`;

/** The business day `count` business days after `day`. */
export function businessDaysAfter(day: string, count: number): string {
  let out = day;
  for (let i = 0; i < count; i++) out = workingDayFrom(addDays(out, 1));
  return out;
}
