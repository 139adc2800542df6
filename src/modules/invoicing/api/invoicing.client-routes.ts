import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { clientRoute } from '../../../lib/client-routes.js';
import { own } from '../../../lib/own.js';
import type { AppEnv } from '../../../platform/context.js';
import {
  emptyResponse,
  errorResponses,
  itemOrNull,
  jsonBody,
  jsonContent,
  scopesFor,
  secured,
} from '../../../platform/openapi.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { requireActiveConnection, verticalFailure } from '../../../platform/vertical-connection.js';
import { CustomPathParams, registerCustomRoutes } from '../../custom/index.js';
import type { InvoicingDataset, InvoicingOpportunity } from '../model/invoicing.records.js';
import { OpportunityStatus } from '../model/invoicing.values.js';
import { nextSourceId } from '../world/invoicing.seed.js';
import { deletePaymentRecord, toOpportunityItem, type WriteContext } from './invoicing.domain.js';
import * as routes from './invoicing.routes.js';
import { ConsumerIdParam, FieldRef, OpportunityItem, PaymentIdParam } from './invoicing.schemas.js';
import { invoicing } from './invoicing.vertical.js';

/**
 * Invoicing routes the official clients call beyond the published document (see
 * lib/client-routes.ts): creating an opportunity, deleting a payment, and the connector's custom
 * routes. Each write is covered as the published operation it extends.
 */

const base = '/consumers/{consumer_id}/invoicing';
const errors = errorResponses([400, 401, 404, 422]);
const fail = verticalFailure;

export const OpportunityItemIn = z
  .object({
    name: z.string().min(1),
    total: z.number().nullable().optional().openapi({ description: 'Expected revenue (default 0)' }),
    probability: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: 'Chance of winning, in percent (default: 100 when won, else 0)' }),
    status: itemOrNull(OpportunityStatus).optional().openapi({ description: 'Default: open' }),
    partner_id: z.string().nullable().optional().openapi({ description: 'Id of a contact' }),
    comment: z.string().nullable().optional(),
    currency: z.string().nullable().optional().openapi({ description: 'ISO 4217 code' }),
    description: z.string().nullable().optional(),
    pipe_status: z.string().nullable().optional(),
    pipe_name: z.string().nullable().optional(),
    created_date: z.iso.date().nullable().optional().openapi({ description: 'Default: today' }),
    due_date: z.iso.date().nullable().optional(),
    end_date: z.iso.date().nullable().optional(),
    is_won: z.boolean().nullable().optional(),
    owner_ref: itemOrNull(FieldRef).optional(),
  })
  .openapi('OpportunityItemIn', { description: 'A new sales opportunity' });

export const createOpportunity = createRoute({
  method: 'post',
  path: `${base}/opportunities`,
  operationId: 'invoicing_create_opportunity',
  tags: ['Invoicing', 'Opportunities'],
  summary: 'Create a sales opportunity',
  ...clientRoute(
    'The opportunity as GET .../opportunities/{opportunity_id} answers it. Covered as listing the opportunities.',
  ),
  ...secured('consumer', scopesFor('invoicing', 'opportunities', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(OpportunityItemIn, 'The new opportunity') },
  responses: { 200: jsonContent(OpportunityItem, 'The created opportunity'), ...errors },
});

export const deletePayment = createRoute({
  method: 'delete',
  path: `${base}/payments/{payment_id}`,
  operationId: 'invoicing_delete_payment',
  tags: ['Invoicing', 'Payments'],
  summary: 'Delete a payment',
  ...clientRoute(
    'The invoice it paid is open again by its amount. A payment that does not exist is refused with 400, as its update is. Covered as updating a payment.',
  ),
  ...secured('consumer', scopesFor('invoicing', 'payments', 'write')),
  request: { params: PaymentIdParam },
  responses: { 204: emptyResponse('The payment was deleted'), ...errors },
});

/**
 * A new opportunity: a contact of the software as partner, and a probability that is a percentage
 * (the software's own constraint); the amount, currency and dates are taken as given.
 */
export function createOpportunityRecord(
  data: InvoicingDataset,
  input: z.infer<typeof OpportunityItemIn>,
  ctx: WriteContext,
): InvoicingOpportunity {
  if (input.partner_id && !Object.hasOwn(data.contacts, input.partner_id)) {
    throw fail(`partner_id '${input.partner_id}' is not a contact of the software`);
  }
  const total = input.total ?? 0;
  const status = input.status ?? 'open';
  const probability = input.probability ?? (status === 'won' ? 100 : 0);
  if (!(probability >= 0 && probability <= 100)) {
    throw fail(`probability ${probability} must be a percentage, from 0 to 100`);
  }
  const created = input.created_date ?? ctx.now.slice(0, 10);
  const partner = input.partner_id ? own(data.contacts, input.partner_id) : undefined;
  const id = ctx.mint('invoicing-opportunity');
  const opportunity: InvoicingOpportunity = {
    id,
    source_ref: { id: nextSourceId(data, 'O'), model: 'opportunity' },
    name: input.name,
    total: Math.round(total * 100) / 100,
    probability,
    status,
    partner_id: input.partner_id ?? null,
    comment: input.comment ?? null,
    currency: input.currency ?? partner?.currency ?? null,
    description: input.description ?? null,
    pipe_status: input.pipe_status ?? null,
    pipe_name: input.pipe_name ?? null,
    created_date: created,
    due_date: input.due_date ?? null,
    end_date: input.end_date ?? null,
    is_won: input.is_won ?? (status === 'open' ? null : status === 'won'),
    owner_ref: input.owner_ref
      ? {
          id: input.owner_ref.id ?? null,
          model: input.owner_ref.model ?? null,
          name: input.owner_ref.name ?? null,
        }
      : null,
  };
  data.opportunities[id] = opportunity;
  return opportunity;
}

export function registerInvoicingClientRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    createOpportunity,
    operation(
      invoicing,
      { ...createOpportunity, operationId: routes.getOpportunities.operationId },
      async (c, { data }) => {
        const ctx = {
          mint: (kind: string) => c.get('ids').next(kind),
          now: c.get('clock').now().toISOString(),
        };
        const opportunity = createOpportunityRecord(data, c.req.valid('json'), ctx);
        c.set('createdEntityId', opportunity.id);
        return c.json(toOpportunityItem(opportunity), 200);
      },
    ),
  );

  app.openapi(
    deletePayment,
    operation(
      invoicing,
      { ...deletePayment, operationId: routes.updatePayment.operationId },
      async (c, { data }) => {
        deletePaymentRecord(data, c.req.valid('param').payment_id, writeContext(c));
        return c.body(null, 204);
      },
    ),
  );

  registerCustomRoutes(app, {
    prefix: `${base}/custom`,
    operationId: 'invoicing_custom',
    tag: 'Invoicing',
    methods: ['get', 'post', 'patch'],
    scopes: {
      read: scopesFor('invoicing', null, 'read'),
      write: scopesFor('invoicing', null, 'write'),
      area: 'invoicing',
    },
    params: CustomPathParams,
    open: (c) => requireActiveConnection(c, 'Invoicing'),
  });
}
