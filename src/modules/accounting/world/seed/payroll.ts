import { pick } from '../../../../platform/seeding/vertical-data.js';
import type { LedgerEmployee, LedgerJournal } from '../../model/accounting.records.js';
import { buildExpense } from '../../model/ledger/documents.js';
import { fromCents, round2, sumCents } from '../../model/ledger/money.js';
import {
  applyChange,
  buildJournalEntry,
  type EntryDraft,
  mintDocumentNumber,
} from '../../model/ledger/posting.js';
import type { LedgerSeeder } from '../accounting.seed.js';
import { bookFinancial } from './treasury.js';

/** What a seeded ledger books of its staff: salaries, expense notes and their reimbursement. */

/** Monthly salaries, accrued in the miscellaneous journal; returns their payment from the bank. */
export function bookSalaries(
  s: LedgerSeeder,
  month: string,
  staff = Object.values(s.ledger.employees).filter((e) => e.active),
): (date: string) => void {
  const od = s.journal('misc');
  const nets = staff.map(() => s.faker.number.float({ min: 1900, max: 2900, fractionDigits: 2 }));
  s.at(`${month}-25`, 8);
  const accrued = mintDocumentNumber(s.ledger, od, month.slice(0, 4));
  const { change } = buildJournalEntry(
    s.ledger,
    salaryAccrual(s, od, accrued.number, month, staff, nets),
    s.ctx,
  );
  applyChange(s.ledger, { ...change, counters: accrued.counters }, s.ctx.now);
  return (paidOn) => bookSalaryPayment(s, month, paidOn, staff, nets);
}

export function bookSalaryPayment(
  s: LedgerSeeder,
  month: string,
  paidOn: string,
  staff: LedgerEmployee[],
  nets: number[],
) {
  const bank = s.journal('bank');
  s.at(paidOn, 8);
  const paid = mintDocumentNumber(s.ledger, bank, paidOn.slice(0, 4));
  const payment = buildJournalEntry(
    s.ledger,
    salaryPaymentDraft(s, bank, paid.number, month, paidOn, staff, nets),
    s.ctx,
  );
  applyChange(s.ledger, { ...payment.change, counters: paid.counters }, s.ctx.now);
}

/** The entry of the `journal` (miscellaneous) that accrues a month's salaries, the staff's nets on the 25th. */
export function salaryAccrual(
  s: LedgerSeeder,
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
  const { words } = s.profile;
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
      s.item('general_account', s.account('gross_salaries'), words.grossSalaries(month), gross, 0),
      s.item('general_account', s.account('withholding'), words.withheld, 0, withheld),
      ...staff.map((e, i) => s.item('employee_account', e.id, words.netSalary(e.name), 0, nets[i] ?? 0)),
    ],
  };
}

/** The entry of the `journal` (the bank) that pays a month's salaries on `paidOn`. */
export function salaryPaymentDraft(
  s: LedgerSeeder,
  journal: LedgerJournal,
  number: string,
  month: string,
  paidOn: string,
  staff: LedgerEmployee[],
  nets: number[],
): EntryDraft {
  const netTotal = round2(nets.reduce((t, n) => t + n, 0));
  const { words } = s.profile;
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
      ...staff.map((e, i) => s.item('employee_account', e.id, words.salary(e.name), nets[i] ?? 0, 0)),
      s.item('general_account', s.account('bank'), words.salaries(month), 0, netTotal),
    ],
  };
}

/** An expense note of an employee, booked in the miscellaneous journal; returns what is owed. */
export function bookExpense(s: LedgerSeeder, date: string, employee: LedgerEmployee): number {
  const { faker, ledger, profile } = s;
  const code = s.vatCode(profile.standardVat.purchase);
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
  s.at(date, 11);
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
    s.ctx,
  );
  applyChange(ledger, change, s.ctx.now);
  return total;
}

/** An employee's expenses paid back from the bank. */
export function bookReimbursement(s: LedgerSeeder, date: string, employee: LedgerEmployee, amount: number) {
  const { words } = s.profile;
  bookFinancial(s, date, 'bank', words.expensesOf(employee.name), [
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
