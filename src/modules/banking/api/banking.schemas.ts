import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam, itemOrNull } from '../../../platform/openapi.js';
import {
  AttachmentItemOut,
  ItemAttachmentInfoOut,
  ServicePage_AttachmentItemOut_,
} from '../../../platform/wire.js';
import { BankingTransactionStatus, OperationType } from '../model/banking.values.js';

/** Wire shapes of the Banking vertical (bank accounts read through an open-banking link). */

/** Attachments are the accounting vertical's wire shape (one PDF, base64). */
export { AttachmentItemOut, ConsumerIdParam, ServicePage_AttachmentItemOut_ };

export const BankingFinancialInstitutionItem = z
  .object({
    id: z.string(),
    bic: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
    name: z.string(),
  })
  .openapi('BankingFinancialInstitutionItem', { description: 'A bank the end user gave access to' });

export const ServicePage_BankingFinancialInstitutionItem_ = servicePage(
  BankingFinancialInstitutionItem,
  'BankingFinancialInstitutionItem',
);

export const BankingAccountItem = z
  .object({
    id: z.string(),
    currency: z.string(),
    current_balance: z.number().openapi({ description: 'After the completed transactions' }),
    current_balance_last_update_date: z.iso.datetime({ offset: true }).nullable().optional(),
    available_balance: z
      .number()
      .openapi({ description: 'The current balance less the pending outgoing transactions' }),
    available_balance_last_update_date: z.iso.datetime({ offset: true }).nullable().optional(),
    description: z.string(),
    reference: z.string().openapi({ description: 'The account number, of the kind reference_type says' }),
    reference_type: z.string(),
    holder_name: z.string().nullable().optional(),
    active: z.boolean().nullable().optional(),
  })
  .openapi('BankingAccountItem', { description: 'A bank account' });

export const ServicePage_BankingAccountItem_ = servicePage(BankingAccountItem, 'BankingAccountItem');

export const BankingTransactionItem = z
  .object({
    id: z.string(),
    bank_account_id: z.string().nullable().optional(),
    amount: z.number().openapi({ description: 'Positive in, negative out' }),
    tax_amount: z.number().nullable().optional(),
    currency: z.string(),
    description: z.string().nullable().optional(),
    additional_information: z.string().nullable().optional(),
    counterpart_name: z.string().nullable().optional(),
    counterpart_reference: z.string().nullable().optional(),
    remittance_information: z.string().nullable().optional(),
    creation_date: z.iso.datetime({ offset: true }),
    value_date: z.iso.datetime({ offset: true }),
    execution_date: z.iso.datetime({ offset: true }),
    internal_transaction: z.boolean().nullable().optional(),
    operation_type: itemOrNull(OperationType).optional(),
    last_update_on: z.iso.datetime({ offset: true }).nullable().optional(),
    status: itemOrNull(BankingTransactionStatus).optional(),
    opening_balance: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: 'Balance of the account before this completed transaction' }),
    attachments_info: ItemAttachmentInfoOut.optional(),
  })
  .openapi('BankingTransactionItem', { description: 'A transaction of a bank account' });

export const ServicePage_BankingTransactionItem_ = servicePage(
  BankingTransactionItem,
  'BankingTransactionItem',
);

export const BankingCounterPartItem = z
  .object({
    name: z.string().nullable().optional(),
    reference: z.string().nullable().optional(),
    details: z.string().nullable().optional(),
  })
  .openapi('BankingCounterPartItem', { description: 'A counterpart found in the transactions' });

export const ServicePage_BankingCounterPartItem_ = servicePage(
  BankingCounterPartItem,
  'BankingCounterPartItem',
);

export const BankingOpeningBalanceItem = z
  .object({
    account_id: z.string(),
    date: z.iso.date(),
    opening_balance: z.number().nullable().optional(),
    currency: z.string().nullable().optional(),
  })
  .openapi('BankingOpeningBalanceItem', { description: 'The balance of an account at the start of a day' });

export const TransactionFilterDateType = z
  .enum(['value_date', 'execution_date'])
  .openapi('TransactionFilterDateType');

const dateQuery = (name: string, description: string) =>
  z.iso
    .date()
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

const accountIdQuery = z
  .string()
  .openapi({ param: { name: 'account_id', in: 'query' }, description: 'Id of the bank account' });

export const PageOnlyQuery = pageQuery({});

export const TransactionsQuery = pageQuery({
  account_id: accountIdQuery,
  date_from: dateQuery('date_from', 'Transactions on or after this day'),
  date_to: dateQuery('date_to', 'Transactions on or before this day'),
  date_type: TransactionFilterDateType.optional().openapi({
    param: { name: 'date_type', in: 'query' },
    description: 'Which date date_from and date_to apply to (default value_date)',
  }),
  updated_after: dateQuery('updated_after', 'Transactions changed on or after this day'),
});

export const CounterpartsQuery = pageQuery({
  account_id: accountIdQuery.optional(),
  date_from: dateQuery('date_from', 'Counterparts of the transactions on or after this day'),
  date_to: dateQuery('date_to', 'Counterparts of the transactions on or before this day'),
});

export const AttachmentsQuery = pageQuery({
  transaction_id: z
    .string()
    .openapi({ param: { name: 'transaction_id', in: 'query' }, description: 'Id of the transaction' }),
});

export const OpeningBalanceQuery = pageQuery({
  account_id: accountIdQuery,
  date: z.iso.date().openapi({ param: { name: 'date', in: 'query' }, description: 'The day' }),
});

export type BankingAccountOut = z.infer<typeof BankingAccountItem>;
export type BankingTransactionOut = z.infer<typeof BankingTransactionItem>;
export type TransactionsQueryInput = z.infer<typeof TransactionsQuery>;
