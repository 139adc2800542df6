import { z } from '@hono/zod-openapi';
import { folderIdParam } from './accounting.schemas.js';

/** The FEC export (French legal format of the general ledger): one row per line of a posted entry. */

export const FECItemOut = z
  .object({
    JournalCode: z.string(),
    JournalLib: z.string(),
    EcritureNum: z.string().openapi({ description: 'Number of the entry in its journal' }),
    EcritureDate: z.iso.date(),
    CompteNum: z.string(),
    CompteLib: z.string(),
    CompAuxNum: z.string().openapi({ description: 'Code of the client or supplier (or employee), or empty' }),
    CompAuxLib: z.string(),
    PieceRef: z.string().openapi({ description: 'The invoice number, or the reference of the entry' }),
    PieceDate: z.iso.date(),
    Debit: z.number().openapi({ description: "In the folder's currency" }),
    Credit: z.number().openapi({ description: "In the folder's currency" }),
    EcritureLet: z.string().openapi({ description: 'Matching numbers of the line, or empty' }),
    DateLet: z.iso.date().nullable(),
    ValidDate: z.iso.date().nullable(),
    Montantdevise: z.number().openapi({ description: 'Amount in the foreign currency, or 0' }),
    Idevise: z.string().openapi({ description: 'The foreign currency, or empty' }),
  })
  .openapi('FECItemOut', { description: 'One line of the FEC export' });

export const FecQuery = z.object({
  folder_id: folderIdParam,
  date_from: z.iso.date().openapi({ param: { name: 'date_from', in: 'query', required: true } }),
  date_to: z.iso.date().openapi({ param: { name: 'date_to', in: 'query', required: true } }),
});
