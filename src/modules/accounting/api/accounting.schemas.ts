import { z } from '@hono/zod-openapi';
import { itemOrNull } from '../../../platform/openapi.js';
import {
  AddressItemOut,
  AddressType,
  ItemAttachmentInfoAttachment,
  ItemAttachmentInfoOut,
  ItemAttachmentInfoStatus,
} from '../../../platform/wire.js';

// Shapes other verticals share too (platform/wire.ts), re-exported for this module's files.
export {
  AddressItemOut,
  AddressType,
  ItemAttachmentInfoAttachment,
  ItemAttachmentInfoOut,
  ItemAttachmentInfoStatus,
};

/**
 * Wire shapes shared by the accounting groups, and the parameters every accounting route takes.
 * The schemas carry the reference's names; each group's own shapes live in <group>.schemas.ts.
 */

export { BoolParam } from '../../integrations/index.js';

export const ConsumerIdParam = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
});

/** folder_id: required when the integration holds several folders (see accountingLedger in accounting.context.ts). */
export const folderIdParam = z
  .string()
  .optional()
  .openapi({
    param: { name: 'folder_id', in: 'query' },
    description: 'Id of the accounting folder; required when the connection reaches several folders',
  });

export const FolderQuery = z.object({ folder_id: folderIdParam });

/** Parses a BoolParam value ('true' / 'false'; absent means the default). */
export const isTrue = (value: string | null | undefined, fallback = false): boolean =>
  value === undefined || value === null ? fallback : value === 'true';

export const AddressItemIn = z
  .object({
    address_type: AddressType,
    name: z.string().nullable().optional(),
    number: z.string().nullable().optional(),
    box: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
    mobile: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    street: z.string(),
    city: z.string(),
    postal_code: z.string(),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('AddressItemIn', { description: 'An address given when a partner is created' });

export const BankAccountRoutingType = z
  .enum(['unknown', 'ach', 'sort_code', 'bsb', 'transit', 'ifsc', 'clabe'])
  .openapi('BankAccountRoutingType');

export const RoutingCodeItem = z
  .object({
    type: BankAccountRoutingType.optional(),
    value: z.string().nullable().optional(),
  })
  .openapi('RoutingCodeItem', { description: 'A national routing code of a bank account' });

export const BankAccountsItem = z
  .object({
    is_primary: z.boolean().nullable().optional(),
    currency: z.string().nullable().optional(),
    iban: z.string().nullable().optional(),
    bic_swift: z.string().nullable().optional(),
    account_number: z.string().nullable().optional(),
    routing_code: itemOrNull(RoutingCodeItem).optional(),
  })
  .openapi('BankAccountsItem', { description: 'A bank account of a partner' });

export const AnalyticDistributionDetail = z
  .object({
    analytic_account: z.string().openapi({ description: 'Id of an analytic account of the plan' }),
    percentage: z.number().openapi({ description: 'Whole percentage; the parts of one plan add up to 100' }),
  })
  .openapi('AnalyticDistributionDetail');

export const AnalyticDistribution = z
  .object({
    analytic_plan: z.string().openapi({ description: 'Id of the analytic plan' }),
    analytic_accounts: z.array(AnalyticDistributionDetail),
  })
  .openapi('AnalyticDistribution', { description: 'How an amount is split over the accounts of one plan' });

export const AccountToCreate = z
  .object({
    account_number: z.string().min(1),
    account_name: z.string().min(1),
  })
  .openapi('AccountToCreate', { description: 'A general account to create if it does not exist' });

export type AddressItemInInput = z.infer<typeof AddressItemIn>;
export type AddressItemOutValue = z.infer<typeof AddressItemOut>;
export type AnalyticDistributionValue = z.infer<typeof AnalyticDistribution>;

/** The name of a PDF file to create, where the software keeps one (letters, digits, - _ and spaces). */
export const pdfNameField = () =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[a-zA-Z0-9\-_ ]{1,196}(?:.pdf)?$/)
    .nullable()
    .optional()
    .openapi({ description: 'Name of the PDF file, where the software keeps one' });
