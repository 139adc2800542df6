import type { JournalRole } from '../../model/accounting.profiles.js';
import { buildMiscellaneousOperation } from '../../model/ledger/documents.js';
import { round2 } from '../../model/ledger/money.js';
import { applyChange, buildJournalEntry, mintDocumentNumber } from '../../model/ledger/posting.js';
import {
  buildBankStatement,
  buildFinancialEntry,
  type FinancialLineDraft,
} from '../../model/ledger/treasury.js';
import type { LedgerSeeder } from '../accounting.seed.js';

/**
 * What a seeded ledger books through its bank, cash and miscellaneous journals, besides its invoices
 * and its staff.
 */

/** A financial entry of the bank or cash journal. */
export function bookFinancial(
  s: LedgerSeeder,
  date: string,
  journal: JournalRole,
  reference: string,
  items: FinancialLineDraft[],
) {
  s.at(date, 12);
  const { change } = buildFinancialEntry(
    s.ledger,
    {
      date,
      journal_id: s.journal(journal).id,
      currency: 'EUR',
      currency_exchange_rate: 1,
      reference,
      number: null,
      pdf: null,
      pdf_name: null,
      counterpart_account: null,
      items,
    },
    s.ctx,
  );
  applyChange(s.ledger, change, s.ctx.now);
}

/** A small sale over the counter, or a small purchase, through the cash journal, VAT included. */
export function bookPettyCash(s: LedgerSeeder, date: string, sale: boolean) {
  const { standardVat, words } = s.profile;
  const code = s.vatCode(sale ? standardVat.sale : standardVat.purchase);
  const untaxed = s.faker.number.float({ min: 8, max: 180, fractionDigits: 2 });
  const description = sale ? words.counterSale : words.officeSupplies;
  bookFinancial(s, date, 'cash', description, [
    {
      account_type: 'general_account',
      account: s.account(sale ? 'sales' : 'supplies'),
      force_general_account: null,
      amount: sale ? untaxed : -untaxed,
      description,
      tax: {
        tax_code: code.id,
        tax_amount: round2((untaxed * code.rate) / 100),
        vat_account: null,
        reversed_vat_account: null,
        description: null,
      },
      automated_matching_number: null,
    },
  ]);
}

/** The bank's statement of a quarter's fees (and of a half-year's interest), one entry per transaction. */
export function bookBankStatement(s: LedgerSeeder, date: string, interest: boolean) {
  const bank = s.journal('bank');
  const { words } = s.profile;
  const month = date.slice(0, 7).replace('-', '');
  const transaction = (n: number, account: string, description: string, amount: number) => ({
    general_ledger_account: account,
    description,
    external_transaction_id: `TRX-${month}-${n}`,
    amount,
    fee_amount: 0,
    tax_amount: 0,
    currency_exchange_rate: 1,
    counterpart: null,
  });
  const fees = -s.faker.number.float({ min: 6, max: 30, fractionDigits: 2 });
  const items = [transaction(1, s.account('bank_charges'), words.accountFees, fees)];
  if (interest) {
    const earned = s.faker.number.float({ min: 0.5, max: 12, fractionDigits: 2 });
    items.push(transaction(2, s.account('financial_income'), words.interest, earned));
  }
  s.at(date, 7);
  const { change } = buildBankStatement(
    s.ledger,
    {
      date,
      bank_account_id: bank.id,
      currency: 'EUR',
      external_bank_statement_id: `STM-${month}`,
      opening_balance: null,
      pdf: null,
      pdf_name: null,
      items,
    },
    s.ctx,
  );
  applyChange(s.ledger, change, s.ctx.now);
}

/** The depreciation of a quarter, as a miscellaneous operation. */
export function bookDepreciation(s: LedgerSeeder, date: string) {
  const amount = s.faker.number.int({ min: 30, max: 90 }) * 10;
  const line = (n: number, account: string, signed: number) => ({
    line_number: n,
    description: s.profile.words.depreciation(date.slice(0, 7)),
    amount: signed,
    type: 'general_account' as const,
    account_number: account,
    partner_id: null,
    analytic_account: null,
  });
  s.at(date, 16);
  const { change } = buildMiscellaneousOperation(
    s.ledger,
    {
      operation_number: null,
      currency: 'EUR',
      currency_exchange_rate: 1,
      operation_date: date,
      journal_id: s.journal('misc').id,
      status: 'posted',
      lines: [line(1, s.account('depreciation'), -amount), line(2, s.account('depreciated_asset'), amount)],
    },
    s.ctx,
  );
  applyChange(s.ledger, change, s.ctx.now);
}

/** The taxes a year is expected to owe, accrued on its last day by a journal entry. */
export function bookYearEnd(s: LedgerSeeder, date: string) {
  const od = s.journal('misc');
  const { words } = s.profile;
  const amount = s.faker.number.int({ min: 20, max: 120 }) * 50;
  s.at(date, 17);
  const numbered = mintDocumentNumber(s.ledger, od, date.slice(0, 4));
  const { change } = buildJournalEntry(
    s.ledger,
    {
      journal_id: od.id,
      number: numbered.number,
      reference: words.estimatedTaxesOf(date.slice(0, 4)),
      due_date: null,
      currency: 'EUR',
      currency_exchange_rate: 1,
      date,
      posted: true,
      pdf: null,
      pdf_name: null,
      start_date: `${date.slice(0, 4)}-01-01`,
      end_date: date,
      origin: 'journal_entry',
      items: [
        s.item('general_account', s.account('income_tax'), words.estimatedTaxes, amount, 0),
        s.item('general_account', s.account('estimated_taxes'), words.estimatedTaxes, 0, amount),
      ],
    },
    s.ctx,
  );
  applyChange(s.ledger, { ...change, counters: numbered.counters }, s.ctx.now);
}
