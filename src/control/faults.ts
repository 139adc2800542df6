import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errors } from '../lib/errors.js';
import type { AppEnv } from '../platform/context.js';
import { emptyResponse, errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import type { FaultBook } from './faults.domain.js';
import { FaultInputSchema, FaultSchema } from './faults.schema.js';
import { admin } from './sandbox.routes.js';

/**
 * The control endpoints of fault injection (/__sandbox/faults): the rules and what they do are in
 * faults.domain.ts, their wire shapes in faults.schema.ts.
 */

export {
  FAULT_OVERHEAD_BYTES,
  FaultBook,
  faultErrorBody,
  MAX_FAULTS,
  rotatedSecret,
  UNANSWERED_HEADER,
} from './faults.domain.js';
export {
  type Fault,
  type FaultControl,
  type FaultRule,
  FaultRuleError,
  MAX_FAULT_HOLD_MS,
  MAX_WEBHOOK_FAULT_SECONDS,
} from './faults.schema.js';

const tags = ['Sandbox control'];

const FaultIdParam = z.object({
  id: z
    .string()
    .max(40)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'Id of the fault' }),
});

export const addFault = createRoute({
  method: 'post',
  path: '/__sandbox/faults',
  operationId: 'sandbox_add_fault',
  tags,
  summary:
    'Arm a fault: matching requests get an error status, a delay, a dropped connection or no answer; matching webhook deliveries are duplicated, delayed, reordered, lost then sent again, followed by a stale one or signed after a secret rotation',
  ...admin,
  request: { body: jsonBody(FaultInputSchema, 'What to match, what to do, how often') },
  responses: { 200: jsonContent(FaultSchema, 'The armed fault'), ...errorResponses([401, 413, 422]) },
});

export const listFaults = createRoute({
  method: 'get',
  path: '/__sandbox/faults',
  operationId: 'sandbox_list_faults',
  tags,
  summary: 'List the armed faults, oldest first (exhausted ones too, until removed)',
  ...admin,
  responses: { 200: jsonContent(z.array(FaultSchema), 'The faults'), ...errorResponses([401]) },
});

export const getFault = createRoute({
  method: 'get',
  path: '/__sandbox/faults/{id}',
  operationId: 'sandbox_get_fault',
  tags,
  summary: 'Get one fault with its counters',
  ...admin,
  request: { params: FaultIdParam },
  responses: { 200: jsonContent(FaultSchema, 'The fault'), ...errorResponses([401, 404, 422]) },
});

export const removeFault = createRoute({
  method: 'delete',
  path: '/__sandbox/faults/{id}',
  operationId: 'sandbox_remove_fault',
  tags,
  summary: 'Remove a fault (the requests its time-out holds are then answered normally)',
  ...admin,
  request: { params: FaultIdParam },
  responses: { 204: emptyResponse('The fault is removed'), ...errorResponses([401, 404, 422]) },
});

export const clearFaults = createRoute({
  method: 'delete',
  path: '/__sandbox/faults',
  operationId: 'sandbox_clear_faults',
  tags,
  summary: 'Remove every fault',
  ...admin,
  responses: { 204: emptyResponse('No fault is armed'), ...errorResponses([401]) },
});

export function registerFaultControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(addFault, (c) => c.json(c.get('faults').arm(c.req.valid('json')), 200));

  app.openapi(listFaults, (c) => c.json(c.get('faults').list(), 200));

  app.openapi(getFault, (c) => {
    const fault = c.get('faults').get(c.req.valid('param').id);
    if (!fault) throw errors.faultNotFound();
    return c.json(fault, 200);
  });

  app.openapi(removeFault, (c) => {
    if (!c.get('faults').remove(c.req.valid('param').id)) throw errors.faultNotFound();
    return c.body(null, 204);
  });

  app.openapi(clearFaults, (c) => {
    c.get('faults').clear();
    return c.body(null, 204);
  });
}

declare module '../platform/context.js' {
  interface Services {
    /** The armed faults (see control/faults.ts). */
    faults: FaultBook;
  }
}
