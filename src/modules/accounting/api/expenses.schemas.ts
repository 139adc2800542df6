import { z } from '@hono/zod-openapi';
import { pdfNameField } from './accounting.schemas.js';

/** Expense notes of employees. */

export const ExpenseLineItem = z
  .object({
    total: z.number(),
    untaxed_amount: z.number(),
    tax_amount: z.number().openapi({ description: 'tax_rate % of untaxed_amount, to the cent' }),
    description: z.string().nullable().optional(),
    account_number: z.string().openapi({ description: 'The expense account' }),
    tax_rate: z.number().openapi({ description: 'The rate of the VAT code, e.g. 21' }),
    tax_id: z.string().openapi({ description: 'Id of a purchase VAT code' }),
  })
  .openapi('ExpenseLineItem', { description: 'One line of an expense note' });

const expense = z.object({
  employee_id: z.string(),
  total: z.number(),
  untaxed_amount: z.number(),
  tax_amount: z.number(),
  reference: z.string().nullable().optional(),
  number: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Unique in the journal; left out, the next number of the journal' }),
  currency: z.string(),
  currency_exchange_rate: z.number().nullable().default(1),
  date: z.iso.date(),
  pdf: z.string().nullable().optional().openapi({ description: 'A PDF, base64-encoded' }),
  pdf_name: pdfNameField(),
  lines: z.array(ExpenseLineItem).min(1),
});

export const ExpenseItemIn = expense.openapi('ExpenseItemIn', { description: 'An expense note to book' });

export const ExpenseItemOut = expense
  .extend({ id: z.string().openapi({ description: 'Id of the journal entry' }) })
  .openapi('ExpenseItemOut', { description: 'An expense note as booked' });

export type ExpenseInput = z.infer<typeof ExpenseItemIn>;
export type ExpenseOut = z.infer<typeof ExpenseItemOut>;
