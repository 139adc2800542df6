import { DatasetSeeder, type SeedInput } from '../../seed/dataset-seeder.js';
import {
  addDays,
  amountBetween,
  at,
  belgianIban,
  dayBetween,
  fakerFor,
  LAST_SEEDED_DAY,
  round2,
  structuredCommunication,
  workingDayFrom,
} from '../../seed/finance-fakes.js';
import type { BankingAccount, BankingDataset, BankingTransaction } from './banking.records.js';

/**
 * The seeded open-banking link of one connection, built from (seed, consumerid, connectionid) alone.
 *
 * Two banks, three accounts of one company: a current account with a year of activity (customer
 * transfers in, supplier transfers, salaries, card spending with receipts, direct debits, bank fees,
 * a transfer to savings), a savings account (the transfer and its interest) and a USD account. The
 * last days hold pending and declined card payments. Balances are not stored: they are the opening
 * balance plus the completed transactions.
 */

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

class BankingSeeder extends DatasetSeeder<BankingDataset> {
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
    const execution = at(day, f.number.int({ min: 7, max: 19 }), f.number.int({ min: 0, max: 59 }));
    // Value date: the same working day, or the next one for transfers booked late in the day.
    const valueDay = fields.operation_type === 'card' ? day : workingDayFrom(day);
    const record: BankingTransaction = {
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
      creation_date: execution,
      value_date: at(valueDay, 0),
      execution_date: execution,
      internal_transaction: false,
      last_update_on: execution,
      status: 'completed',
      attachments: [],
      ...fields,
    };
    this.data.transactions[id] = record;
    return record;
  }

  activity(current: BankingAccount, savings: BankingAccount, usd: BankingAccount) {
    const f = this.faker;
    const customers = Array.from({ length: 10 }, () => ({ name: f.company.name(), iban: belgianIban(f) }));
    const suppliers = Array.from({ length: 6 }, () => ({ name: f.company.name(), iban: belgianIban(f) }));
    const employees = Array.from({ length: 3 }, () => ({ name: f.person.fullName(), iban: belgianIban(f) }));

    for (let month = 1; month <= 12; month++) {
      const mm = String(month).padStart(2, '0');
      const first = `2025-${mm}-01`;
      const last = addDays(month === 12 ? '2026-01-01' : `2025-${String(month + 1).padStart(2, '0')}-01`, -1);
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
          remittance_information: `Salary ${mm}/2025`,
        });
      }
      // Direct debits.
      for (const [creditor, min, max] of DIRECT_DEBITS) {
        const day = workingDayFrom(
          `2025-${mm}-${String(f.number.int({ min: 5, max: 15 })).padStart(2, '0')}`,
        );
        this.transaction(current, day, -amountBetween(f, min, max), {
          operation_type: 'direct_debit',
          description: `Direct debit ${creditor}`,
          additional_information: `SEPA direct debit, mandate ${f.string.alphanumeric({ length: 10, casing: 'upper' })}`,
          counterpart_name: creditor,
          counterpart_reference: creditorIban(creditor),
          remittance_information: `${creditor} ${mm}/2025`,
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
    const moveDay = '2025-06-30';
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
    for (const quarter of ['2025-03-31', '2025-06-30', '2025-09-30', '2025-12-31']) {
      this.transaction(savings, quarter, amountBetween(f, 40, 160), {
        operation_type: 'interest',
        description: 'Quarterly interest',
      });
    }
    for (const day of ['2025-03-12', '2025-07-08', '2025-11-19']) {
      const client = f.company.name();
      this.transaction(usd, workingDayFrom(day), amountBetween(f, 1500, 6000), {
        operation_type: 'swift_income',
        description: `SWIFT transfer from ${client}`,
        additional_information: 'International transfer',
        counterpart_name: client,
        counterpart_reference: `US${f.string.numeric(18)}`,
      });
    }
    this.transaction(usd, '2025-11-28', -25, { operation_type: 'fee', description: 'SWIFT charges' });
    // January 2026 up to the sandbox start: a few transfers, and card payments still pending.
    for (const day of ['2026-01-05', '2026-01-07', '2026-01-09', '2026-01-12']) {
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
    this.card(current, '2026-01-13', 'declined');
    this.card(current, '2026-01-13', 'pending');
    this.card(current, LAST_SEEDED_DAY, 'pending');
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
      record.attachments.push({
        id: this.id('attachment'),
        filename: `receipt-${day}-${merchant.replace(/\W+/g, '-').toLowerCase()}.pdf`,
      });
      record.last_update_on = at(addDays(day, 1), 9);
    }
  }
}

/** A stable IBAN for a well-known creditor (the same across its debits and datasets). */
const creditorIban = (creditor: string): string => belgianIban(fakerFor('creditor', creditor));

export function seedBanking(options: SeedInput): BankingDataset {
  const s = new BankingSeeder(options);
  const [first, second] = s.institutions();
  const holder = s.faker.company.name();
  const opening = (min: number, max: number) => amountBetween(s.faker, min, max);
  const current = s.account(first ?? '', 'Current account', 'EUR', holder, opening(20_000, 40_000));
  const savings = s.account(first ?? '', 'Savings account', 'EUR', holder, opening(30_000, 80_000));
  const usd = s.account(second ?? '', 'USD account', 'USD', holder, opening(2_000, 8_000));
  s.activity(current, savings, usd);
  return s.data;
}
