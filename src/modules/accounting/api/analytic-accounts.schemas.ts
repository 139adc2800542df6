import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam, folderIdParam } from './accounting.schemas.js';

/** Analytic accounts, in the single-plan shape and with their plan (Multiple Analytic Plans). */

export const AnalyticAccountItemIn = z
  .object({
    active: z.boolean().nullable().default(true),
    code: z.string().min(1).openapi({ description: 'Unique within its plan' }),
    name: z.string().min(1),
    currency: z.string().openapi({ description: 'ISO 4217 code, e.g. EUR' }),
  })
  .openapi('AnalyticAccountItemIn', { description: 'A new analytic account' });

export const AnalyticAccountItemUpdate = z
  .object({
    active: z.boolean().nullable().optional().openapi({ description: 'Left out: unchanged' }),
    code: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
  })
  .openapi('AnalyticAccountItemUpdate', { description: 'The fields to change; those left out stay' });

export const AnalyticAccountItemOut = z
  .object({
    id: z.string(),
    active: z.boolean(),
    code: z.string().nullable().optional(),
    name: z.string(),
    currency: z.string().nullable().optional(),
    balance: z
      .number()
      .nullable()
      .default(0)
      .openapi({ description: 'debit - credit of the posted lines the account takes a share of' }),
    credit: z.number().nullable().default(0),
    debit: z.number().nullable().default(0),
  })
  .openapi('AnalyticAccountItemOut', { description: 'An analytic account with its figures' });

export const AnalyticAccountItemOutMultiAnalyticPlans = AnalyticAccountItemOut.extend({
  analytic_plan: z.string().openapi({ description: 'Id of the plan of the account' }),
}).openapi('AnalyticAccountItemOutMultiAnalyticPlans', {
  description: 'An analytic account with its plan and its figures',
});

export const ServicePage_AnalyticAccountItemOut_ = servicePage(
  AnalyticAccountItemOut,
  'AnalyticAccountItemOut',
);
export const ServicePage_AnalyticAccountItemOutMultiAnalyticPlans_ = servicePage(
  AnalyticAccountItemOutMultiAnalyticPlans,
  'AnalyticAccountItemOutMultiAnalyticPlans',
);

export const AnalyticAccountsQuery = pageQuery({ folder_id: folderIdParam });

const analyticPlanParam = z
  .string()
  .openapi({ param: { name: 'analytic_plan', in: 'path' }, description: 'Id of the analytic plan' });
const analyticAccountIdParam = z
  .string()
  .openapi({ param: { name: 'analytic_account_id', in: 'path' }, description: 'Id of the analytic account' });

export const AnalyticPlanParam = ConsumerIdParam.extend({ analytic_plan: analyticPlanParam });
export const AnalyticAccountIdParam = ConsumerIdParam.extend({ analytic_account_id: analyticAccountIdParam });
export const AnalyticAccountInPlanParam = AnalyticAccountIdParam.extend({ analytic_plan: analyticPlanParam });

export type AnalyticAccountInInput = z.infer<typeof AnalyticAccountItemIn>;
export type AnalyticAccountUpdateInput = z.infer<typeof AnalyticAccountItemUpdate>;
export type AnalyticAccountOut = z.infer<typeof AnalyticAccountItemOutMultiAnalyticPlans>;
