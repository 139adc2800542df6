import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { folderIdParam, pdfNameField } from './accounting.schemas.js';

/** Bank accounts (bank journals with their ledger account) and the statements imported on them. */

export const BankAccountItemIn = z
  .object({
    code: z.string().min(1).openapi({ description: 'Code of the bank journal; unique among the journals' }),
    currency: z.string().min(1).openapi({ description: 'ISO 4217 code, e.g. EUR' }),
    account_name: z.string().nullable().optional(),
    account_number: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Number at the bank; this or the IBAN is required' }),
    iban: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'IBAN; this or account_number is required' }),
    bank_name: z.string(),
  })
  .openapi('BankAccountItemIn', { description: 'A new bank account' });

export const BankAccountItemOut = z
  .object({
    id: z.string().openapi({ description: 'Id of the bank account, the id of its journal' }),
    code: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    account_name: z.string().nullable().optional(),
    account_number: z.string().nullable().optional(),
    iban: z.string().nullable().optional(),
    bank_name: z.string().nullable().optional(),
    journal_id: z.string().nullable().optional().openapi({ description: 'The bank journal' }),
    ledger_account: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The ledger account that holds the balance of the bank account' }),
    unallocated_account: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Where transactions go while their counterpart is not known' }),
  })
  .openapi('BankAccountItemOut', { description: 'A bank account of the folder' });

export const ServicePage_BankAccountItemOut_ = servicePage(BankAccountItemOut, 'BankAccountItemOut');

export const BankAccountsQuery = pageQuery({ folder_id: folderIdParam });

export const BankTransactionCounterpartType = z
  .enum(['customer', 'supplier', 'employee'])
  .openapi('BankTransactionCounterpartType');

export const BankTransactionCounterpartItem = z
  .object({
    counterpart_type: itemOrNull(BankTransactionCounterpartType).optional(),
    id: z.string().nullable().optional().openapi({ description: 'Id of the client, supplier or employee' }),
    name: z.string().nullable().optional(),
    iban: z.string().nullable().optional(),
    bank_account: z.string().nullable().optional(),
  })
  .openapi('BankTransactionCounterpartItem', { description: 'Who the money came from or went to' });

const transaction = z.object({
  general_ledger_account: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Account to book the transaction on (without a counterpart id)' }),
  description: z.string().nullable().optional(),
  external_transaction_id: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Id at the bank; a transaction is not imported twice' }),
  amount: z.number().openapi({
    description: 'What the bank account received (positive) or paid (negative), fee and its VAT included',
  }),
  fee_amount: z.number().nullable().default(0).openapi({ description: 'Bank fee, booked on bank charges' }),
  tax_amount: z.number().nullable().default(0).openapi({ description: 'VAT on the fee, deductible' }),
  currency_exchange_rate: z.number().nullable().default(1),
  counterpart: itemOrNull(BankTransactionCounterpartItem).optional(),
});

export const BankTransactionItemIn = transaction.openapi('BankTransactionItemIn', {
  description: 'One transaction of a statement',
});

export const BankTransactionItemOut = transaction
  .extend({
    id: z.string().nullable().optional().openapi({ description: 'Id of the journal entry it booked' }),
  })
  .openapi('BankTransactionItemOut', { description: 'A transaction as booked' });

const statement = z.object({
  bank_statement_date: z.iso.date(),
  bank_account_id: z.string().min(1).openapi({ description: 'Id of the bank account' }),
  currency: z.string().min(1).openapi({ description: "The bank account's currency" }),
});

export const BankStatementItemIn = statement
  .extend({
    external_bank_statement_id: z
      .string()
      .min(1)
      .openapi({ description: 'Id of the statement at the bank; a statement is not imported twice' }),
    opening_balance: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: 'Opening balance of the bank account before the statement, kept as given' }),
    pdf: z.string().nullable().optional().openapi({ description: 'The statement as a PDF, base64-encoded' }),
    pdf_name: pdfNameField(),
    items: z.array(BankTransactionItemIn),
  })
  .openapi('BankStatementItemIn', { description: 'A bank statement to import' });

export const BankStatementItemOut = statement
  .extend({
    id: z.string().nullable().optional(),
    external_bank_statement_id: z.string().nullable().optional(),
    items: z.array(BankTransactionItemOut),
  })
  .openapi('BankStatementItemOut', { description: 'A bank statement as imported' });

export type BankAccountInInput = z.infer<typeof BankAccountItemIn>;
export type BankStatementInInput = z.infer<typeof BankStatementItemIn>;
export type BankStatementOutValue = z.infer<typeof BankStatementItemOut>;
