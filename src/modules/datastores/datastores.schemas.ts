import { z } from '@hono/zod-openapi';

export const COLUMN_TYPES = ['text', 'number', 'integer', 'boolean', 'date', 'datetime'] as const;

export const DatastoreStatus = z
  .enum(['active', 'inactive'])
  .openapi('DatastoreStatus', { description: 'Whether a datastore is in use' });

export const DatastoreColumn = z
  .object({
    name: z.string().openapi({ description: 'Key of the column in the data' }),
    title: z.string().openapi({ description: 'Label of the column' }),
    type: z.enum(COLUMN_TYPES).openapi({
      description:
        'Values the column takes: text (string), number, integer, boolean, date (YYYY-MM-DD), datetime (ISO 8601)',
    }),
    optional: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: 'Whether the column may be left out (or null); default false' }),
  })
  .openapi('DatastoreColumn');

export const DatastoreDef = z
  .object({
    columns: z.array(DatastoreColumn).openapi({ description: 'The columns of the data' }),
    search_column: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The column the data is indexed by, if any' }),
  })
  .openapi('DatastoreDef');

export const DataStoreItem = z
  .object({
    id: z.string().openapi({ description: 'Id of the datastore (a uuid)' }),
    name: z.string().openapi({ description: 'Name of the datastore, unique in the account' }),
    status: DatastoreStatus.optional(),
    definition: DatastoreDef,
  })
  .openapi('DataStoreItem');

export const DataItem = z
  .object({
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "One row: an object keyed by the datastore's column names" }),
  })
  .openapi('DataItem');

export const DataItemOut = z
  .object({
    data: z.record(z.string(), z.unknown()).openapi({ description: 'The row' }),
    id: z.string().openapi({ description: 'Id of the row (datastoredataid)' }),
    created_on: z.iso.datetime().openapi({ description: 'When the row was added' }),
    modified_on: z.iso.datetime().openapi({ description: 'When the row was last changed' }),
  })
  .openapi('DataItemOut');

export const DatastoresQuery = z.object({
  status: DatastoreStatus.optional().openapi({ description: 'Only the datastores of this status' }),
});

const consumerId = z
  .uuid()
  .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' });
const datastoreId = z
  .uuid()
  .openapi({ param: { name: 'datastoreid', in: 'path' }, description: 'Id of the datastore' });

export const DatastoreDataParams = z.object({ consumer_id: consumerId, datastoreid: datastoreId });

export const DatastoreRowParams = DatastoreDataParams.extend({
  datastoredataid: z
    .uuid()
    .openapi({ param: { name: 'datastoredataid', in: 'path' }, description: 'Id of the row' }),
});

const instant = z.iso.datetime({ offset: true, local: true });

export const DatastoreDataQuery = z.object({
  date_from: instant.optional().openapi({
    description: 'Only rows added at or after this instant (UTC when it has no offset)',
  }),
  date_to: instant.optional().openapi({
    description: 'Only rows added at or before this instant (UTC when it has no offset)',
  }),
  executionid: z.string().optional().openapi({ description: 'Only the rows written by this execution' }),
});

export type ColumnType = (typeof COLUMN_TYPES)[number];
export type DataStoreItemOut = z.infer<typeof DataStoreItem>;
export type DataItemInput = z.infer<typeof DataItem>;
export type DataItemOutput = z.infer<typeof DataItemOut>;
export type DatastoreDataFilters = z.infer<typeof DatastoreDataQuery>;
