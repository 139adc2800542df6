import { z } from '@hono/zod-openapi';

export const DatalayerEnableBody = z
  .object({
    from_date: z.iso
      .date()
      .nullable()
      .optional()
      .openapi({ description: 'Sync data from this date; default a year back' }),
    fiscal_years_back: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .openapi({ description: 'Accounting: sync from the start of the book year this many years back' }),
    full_history: z.boolean().optional().openapi({ description: 'Sync the whole history; default false' }),
    entity_filter: z
      .record(z.string(), z.array(z.string()))
      .nullable()
      .optional()
      .openapi({ description: 'Only these entities of the connection, by kind (e.g. folder_ids)' }),
  })
  .openapi('DatalayerEnableBody');

export const DatalayerRefreshBody = z
  .object({
    force_from_date: z.iso
      .date()
      .nullable()
      .optional()
      .openapi({ description: 'Sync again from this date, whatever the settings say' }),
  })
  .openapi('DatalayerRefreshBody');

export const DatalayerParams = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
  connection_id: z
    .uuid()
    .openapi({ param: { name: 'connection_id', in: 'path' }, description: 'Id of the connection' }),
});

export type DatalayerEnableInput = z.infer<typeof DatalayerEnableBody>;
export type DatalayerRefreshInput = z.infer<typeof DatalayerRefreshBody>;
