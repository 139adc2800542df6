import { z } from '@hono/zod-openapi';

/**
 * The value sets of the Accounting records that the wire names as its enumerations: the records
 * (accounting.records.ts), the generator and the wire shapes (api/accounting.schemas.ts) take them from here.
 */

export const JournalType = z
  .enum([
    'customer_invoice',
    'customer_refund',
    'supplier_invoice',
    'supplier_refund',
    'financial_operation',
    'miscellaneous_operation',
    'unknown',
  ])
  .openapi('JournalType');

export const DocumentType = z
  .enum(['invoice', 'entry'])
  .openapi('DocumentType', { description: 'The kind of record a document is attached to' });

export const InvoiceType = z
  .enum(['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'])
  .openapi('InvoiceType');

export const InvoiceApprovalStatus = z
  .enum(['unknown', 'pending', 'approved', 'rejected'])
  .openapi('InvoiceApprovalStatus');

export const AccountItemType = z
  .enum([
    'bank',
    'cash',
    'other_financial',
    'receivable',
    'payable',
    'income',
    'expense',
    'other_expense',
    'vat',
    'other',
  ])
  .openapi('AccountItemType', { description: 'What a ledger account is used for' });
