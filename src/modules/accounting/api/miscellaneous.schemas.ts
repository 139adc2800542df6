import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { ConsumerIdParam, folderIdParam } from './accounting.schemas.js';

/** Miscellaneous operations: entries of the miscellaneous-operation journals, given line by line. */

export const MiscellaneousOperationLineType = z
  .enum(['customer_account', 'supplier_account', 'general_account'])
  .openapi('MiscellaneousOperationLineType', { description: 'What the line books on' });

export const MiscellaneousOperationStatusIn = z
  .enum(['draft', 'posted'])
  .openapi('MiscellaneousOperationStatusIn', { description: 'Book the operation as a draft or posted' });

export const MiscellaneousOperationStatusOut = z
  .enum(['cancelled', 'draft', 'posted', 'matched'])
  .openapi('MiscellaneousOperationStatusOut', {
    description: 'matched: posted, and its client and supplier lines are fully matched',
  });

export const MiscellaneousOperationLine = z
  .object({
    line_number: z
      .number()
      .int()
      .nullable()
      .default(1)
      .openapi({ description: 'Lines are booked in this order' }),
    description: z.string().nullable().optional(),
    amount: z.number().openapi({ description: 'Positive for a credit, negative for a debit' }),
    type: MiscellaneousOperationLineType,
    account_number: z
      .string()
      .openapi({ description: 'Account of the chart; the receivable or payable account of a partner line' }),
    partner_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The client or supplier of a customer_account or supplier_account line' }),
    analytic_account: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Id of an analytic account, taking 100 % of the line' }),
  })
  .openapi('MiscellaneousOperationLine', { description: 'One line of a miscellaneous operation' });

export const MiscellaneousOperationIn = z
  .object({
    operation_number: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Unique in the journal; left out, the next number of the journal' }),
    currency: z.string(),
    currency_exchange_rate: z.number().nullable().default(1),
    lines: z.array(MiscellaneousOperationLine),
    operation_date: z.iso.date(),
    journal_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Left out: the only miscellaneous-operation journal of the folder' }),
    status: itemOrNull(MiscellaneousOperationStatusIn).default('posted'),
  })
  .openapi('MiscellaneousOperationIn', { description: 'A balanced miscellaneous operation' });

export const MiscellaneousOperationOut = z
  .object({
    operation_number: z.string().nullable().optional(),
    currency: z.string(),
    currency_exchange_rate: z.number().nullable().default(1),
    lines: z.array(MiscellaneousOperationLine),
    operation_date: z.iso.date().nullable().default('1970-01-01'),
    journal_id: z.string(),
    status: MiscellaneousOperationStatusOut,
    id: z.string().openapi({ description: 'Id of the operation, the id of its journal entry' }),
  })
  .openapi('MiscellaneousOperationOut', { description: 'A miscellaneous operation as booked' });

export const ServicePage_MiscellaneousOperationOut_ = servicePage(
  MiscellaneousOperationOut,
  'MiscellaneousOperationOut',
);

export const MiscellaneousOperationsQuery = pageQuery({
  folder_id: folderIdParam,
  date_from: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_from', in: 'query' } }),
  date_to: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_to', in: 'query' } }),
  journal_ids: z
    .string()
    .optional()
    .openapi({
      param: { name: 'journal_ids', in: 'query' },
      description: 'Comma-separated ids of miscellaneous-operation journals',
    }),
});

export const OperationIdParam = ConsumerIdParam.extend({
  operation_id: z
    .string()
    .openapi({ param: { name: 'operation_id', in: 'path' }, description: 'Id of the operation' }),
});

export type MiscellaneousOperationInput = z.infer<typeof MiscellaneousOperationIn>;
export type MiscellaneousOperationOutValue = z.infer<typeof MiscellaneousOperationOut>;
