import { z } from '@hono/zod-openapi';
import { servicePage } from '../../../lib/pagination.js';
import { PaymentPaymentStatus, Ref } from '../../../platform/wire.js';
import { BankTransactionStatus, LinkedDocumentType } from '../model/invoicing.values.js';

/**
 * Wire shapes of the Invoicing payments, payment methods, bank accounts and bank transactions, under
 * the reference's names (re-exported by invoicing.schemas.ts with the vertical's other shapes).
 */

// ---- payments, payment methods, bank accounts and bank transactions ------------------------------

export const InvoicingPaymentItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    status: PaymentPaymentStatus,
    description: z.string(),
    amount: z.number(),
    currency: z.string(),
    payment_date: z.iso.datetime({ offset: true }),
    partner_id: z.string().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    payment_method_name: z.string().nullable().optional(),
    invoice_id: z.string().nullable().optional(),
    invoice_number: z.string().nullable().optional(),
    date: z.iso.datetime({ offset: true }).optional().openapi({
      description:
        'payment_date again, under the name the official Node client reads; always served. Not in the reference, whose schema allows further properties.',
    }),
  })
  .openapi('InvoicingPaymentItem', { description: 'A payment of an invoice' });

export const ServicePage_InvoicingPaymentItem_ = servicePage(InvoicingPaymentItem, 'InvoicingPaymentItem');

export const InvoicingPaymentItemIn = z
  .object({
    amount: z
      .number()
      .openapi({ description: 'Not negative; more than the open amount overpays the invoice' }),
    payment_method_id: z.string().nullable().optional(),
    invoice_id: z.string(),
    date: z.iso.date(),
    description: z.string().nullable().optional(),
    currency: z.string().openapi({ description: 'Currency of the payment' }),
  })
  .openapi('InvoicingPaymentItemIn', { description: 'A payment to register against an invoice' });

export const InvoicingPaymentItemUpdate = z
  .object({
    amount: z.number().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    date: z.iso.date().nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .openapi('InvoicingPaymentItemUpdate', { description: 'Fields of a payment to change (null: unchanged)' });

export const InvoicingPaymentMethodItem = z
  .object({ id: z.string(), source_ref: Ref, name: z.string() })
  .openapi('InvoicingPaymentMethodItem', { description: 'A way to pay' });

export const ServicePage_InvoicingPaymentMethodItem_ = servicePage(
  InvoicingPaymentMethodItem,
  'InvoicingPaymentMethodItem',
);

export const InvoicingBankAccountItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    name: z.string(),
    iban: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    balance: z.number().nullable().optional().openapi({ description: 'After the done transactions' }),
  })
  .openapi('InvoicingBankAccountItem', { description: 'A bank account kept in the software' });

export const ServicePage_InvoicingBankAccountItem_ = servicePage(
  InvoicingBankAccountItem,
  'InvoicingBankAccountItem',
);

export const LinkedDocument = z
  .object({ id: z.string(), source_ref: Ref, amount: z.number(), type: LinkedDocumentType })
  .openapi('LinkedDocument', { description: 'A document a bank transaction settles' });

export const InvoicingBankTransactionItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    status: BankTransactionStatus,
    bank_account_id: z.string(),
    amount: z.number().openapi({ description: 'Positive in, negative out' }),
    date: z.iso.date(),
    description: z.string().nullable().optional(),
    currency: z.string(),
    currency_exchange_rate: z.number().nullable().optional(),
    accounting_code: z.string().nullable().optional(),
    linked_documents: z.array(LinkedDocument).nullable().optional(),
  })
  .openapi('InvoicingBankTransactionItem', { description: 'A line of a bank statement' });

export const ServicePage_InvoicingBankTransactionItem_ = servicePage(
  InvoicingBankTransactionItem,
  'InvoicingBankTransactionItem',
);
