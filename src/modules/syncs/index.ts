import type { OpenAPIHono } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { jsonBodySchemaOf, type ValidationResult, validationFailure } from '../../platform/openapi.js';
import type { TickTask } from '../../platform/ticker.js';
import { registerLogs } from './logs.js';
import { tick } from './simulation/engine.js';
import { registerSyncClientRoutes } from './syncs.client-routes.js';
import * as handlers from './syncs.handlers.js';
import * as routes from './syncs.routes.js';

/**
 * Validation hook of PATCH /consumers/{consumer_id}/syncs/{syncid}: a body that is not a list is
 * refused with the service's own 422 message; a list with bad items gets the validation body.
 */
function listBodyHook(result: ValidationResult): undefined {
  if (result.success || !result.error) return undefined;
  if (result.target === 'json' && !Array.isArray(result.data)) throw errors.bodyShouldBeList();
  throw validationFailure(result, jsonBodySchemaOf(routes.updateConsumerSync));
}

export function registerSyncs(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listSyncs, handlers.listSyncsHandler);
  app.openapi(routes.createSync, handlers.createSyncHandler);
  app.openapi(routes.getSync, handlers.getSyncHandler);
  app.openapi(routes.createFlow, handlers.createFlowHandler);
  app.openapi(routes.sendCustomEvent, handlers.sendCustomEventHandler);
  app.openapi(routes.reportLocalRun, handlers.reportLocalRunHandler);
  app.openapi(routes.listSyncExecutions, handlers.listSyncExecutionsHandler);
  app.openapi(routes.getExecution, handlers.getExecutionHandler);
  app.openapi(routes.listConsumerExecutions, handlers.listConsumerExecutionsHandler);
  app.openapi(routes.createConsumerSync, handlers.createConsumerSyncHandler);
  app.openapi(routes.getConsumerSync, handlers.getConsumerSyncHandler);
  app.openapi(routes.updateConsumerSync, handlers.updateConsumerSyncHandler, listBodyHook);
  app.openapi(routes.enableFlow, handlers.enableFlowHandler);
  app.openapi(routes.disableFlow, handlers.disableFlowHandler);
  app.openapi(routes.updateFlowConfig, handlers.updateFlowConfigHandler);
  registerLogs(app);
  registerSyncClientRoutes(app);
}

/** Background task: executions end, scheduled flows and datalayer syncs run as the sandbox clock moves. */
export function automationTask(services: Services): TickTask {
  return async (store) => {
    await tick({ ...services, store });
  };
}

// What other modules use of this one.
export { seedAutomation } from './automation.seed.js';
// The control endpoints of the automation (/__sandbox/failures, /__sandbox/executions), and what the
// console reuses of them.
export {
  armFailurePlan,
  clearFailurePlans,
  FailurePlanInput,
  registerAutomationControl,
} from './automation-control.js';
export { newestFirst } from './executions.domain.js';
export { nextRun, parseCron } from './simulation/cron.js';
export type { SimServices } from './simulation/engine.js';
export { DATALAYER_SCHEDULE, queueExecution, statusOf } from './simulation/engine.js';
export {
  apisOf,
  createConsumerSyncLink,
  createSync,
  enableFlow,
  flowsOf,
  replaceMappings,
  requireFlow,
} from './syncs.domain.js';
export {
  CreateConsumerSyncItem,
  CreateSyncItem,
  EmptyObject,
  EnableFlowConsumer,
  ReadSyncMappingItem,
  TriggerResponse,
} from './syncs.schemas.js';
