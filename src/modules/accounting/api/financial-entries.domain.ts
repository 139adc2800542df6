import { errors } from '../../../lib/errors.js';
import type { FinancialEntryDraft } from '../model/ledger/treasury.js';
import type {
  FinancialEntryInput,
  FinancialEntryOldInput,
  FinancialEntryOldOut,
  FinancialEntryOut,
} from './financial-entries.schemas.js';

/** Financial entries: both input shapes turned into one draft, and the answers built from the booking. */

const fail = errors.accountingFailure;

export function draftOf(
  input: FinancialEntryInput,
  counterpartAccount: string | undefined,
): FinancialEntryDraft {
  return {
    date: input.date,
    journal_id: input.journal_id,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    reference: input.reference ?? null,
    number: input.number ?? null,
    pdf: input.pdf ?? null,
    pdf_name: input.pdf_name ?? null,
    counterpart_account: counterpartAccount || null,
    items: input.items.map((item) => ({
      account_type: item.account_type,
      account: item.account,
      force_general_account: null,
      amount: item.amount,
      description: item.description ?? null,
      tax: item.tax_info
        ? {
            tax_code: item.tax_info.tax_code,
            tax_amount: item.tax_info.tax_amount,
            vat_account: item.tax_info.vat_account ?? null,
            reversed_vat_account: item.tax_info.reversed_vat_account ?? null,
            description: item.tax_info.description ?? null,
          }
        : null,
      automated_matching_number: item.automated_matching_number ?? null,
    })),
  };
}

/**
 * The deprecated shape: a general line names its account; a third-party line names the partner (or
 * employee) in partner_id and its receivable, payable or employee account in account_number (the
 * partner_id of a general line is not used).
 */
export function draftOfOld(
  input: FinancialEntryOldInput,
  counterpartAccount: string | undefined,
): FinancialEntryDraft {
  return {
    date: input.date,
    journal_id: input.journal_id,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    reference: input.reference ?? null,
    number: input.number ?? null,
    pdf: input.pdf ?? null,
    pdf_name: null,
    counterpart_account: counterpartAccount || null,
    items: input.items.map((item, i) => {
      const general = item.type === 'general_account';
      if (!general && !item.partner_id) throw fail(`items[${i}]: a ${item.type} line needs its partner_id`);
      return {
        account_type: item.type,
        account: general ? item.account_number : (item.partner_id as string),
        force_general_account: general ? null : item.account_number,
        amount: item.amount,
        description: item.description ?? null,
        tax: null,
        automated_matching_number: null,
      };
    }),
  };
}

export function toFinancialEntryOut(
  input: FinancialEntryInput,
  booked: { id: string; number: string; counterpartAccount: string; rate: number },
): FinancialEntryOut {
  return {
    id: booked.id,
    number: booked.number,
    date: input.date,
    journal_id: input.journal_id,
    currency: input.currency,
    // The rate booked: in the folder's own currency, 1 whatever was given.
    currency_exchange_rate: booked.rate,
    reference: input.reference ?? null,
    items: input.items.map((item) => ({
      account_type: item.account_type,
      account: item.account,
      amount: item.amount,
      description: item.description ?? null,
      tax_info: item.tax_info ?? null,
      automated_matching_number: item.automated_matching_number ?? null,
      counterpart_account: booked.counterpartAccount,
    })),
  };
}

export function toFinancialEntryOldOut(
  input: FinancialEntryOldInput,
  booked: { id: string; number: string; counterpartAccount: string; rate: number },
): FinancialEntryOldOut {
  return {
    id: booked.id,
    number: booked.number,
    date: input.date,
    journal_id: input.journal_id,
    currency: input.currency,
    currency_exchange_rate: booked.rate,
    reference: input.reference ?? null,
    items: input.items.map((item) => ({
      type: item.type,
      account_number: item.account_number,
      partner_id: item.partner_id ?? null,
      amount: item.amount,
      description: item.description ?? null,
      counterpart_account: booked.counterpartAccount,
    })),
  };
}
