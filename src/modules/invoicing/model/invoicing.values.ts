import { z } from '@hono/zod-openapi';

/**
 * The value sets of the Invoicing records that the wire names as its enumerations: the records
 * (invoicing.records.ts), the generator and the wire shapes (api/invoicing.schemas.ts) take them from here.
 */

export const ContactGender = z.enum(['H', 'F', 'N/A']).openapi('ContactGender');

export const AddressTypeInvoicing = z
  .enum(['main', 'delivery', 'invoice', 'other'])
  .openapi('AddressTypeInvoicing', { description: 'What an address is used for' });

export const InvoicingCreateInvoiceType = z
  .enum(['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'])
  .openapi('InvoicingCreateInvoiceType');

export const InvoicingDocumentType = z
  .enum(['customer_document', 'supplier_document', 'employee_expense'])
  .openapi('InvoicingDocumentType');

export const OpportunityStatus = z
  .enum(['open', 'won', 'lost', 'cancelled', 'closed'])
  .openapi('OpportunityStatus');

export const BankTransactionStatus = z.enum(['draft', 'done']).openapi('BankTransactionStatus');

export const LinkedDocumentType = z.enum(['invoice', 'other']).openapi('LinkedDocumentType');
