/**
 * Programmatic use: createApp for in-process tests, startSandbox for a listening server, startProxy
 * for a recording proxy in front of the real service.
 */
export { type CreateAppOptions, createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
export {
  type Fault,
  type FaultControl,
  type FaultRule,
  FaultRuleError,
  MAX_FAULT_HOLD_MS,
  MAX_FAULTS,
} from './control/faults.js';
export {
  FixtureError,
  type FixtureResult,
  type FixtureSource,
  loadFixtures,
} from './control/fixtures.control.js';

import { fixtureJsonSchema as fixtureJsonSchemaOf } from './control/fixtures.schema.js';
import { VERTICALS } from './verticals.js';

/** The JSON Schema of fixture documents, as GET /__sandbox/fixtures/schema serves it. */
export function fixtureJsonSchema(): Record<string, unknown> {
  return fixtureJsonSchemaOf(VERTICALS);
}
export {
  FINDING_KINDS,
  type Finding,
  type FindingKindName,
  failing,
  parseFailOn,
  type ReadinessReport,
  reportOf,
  toJUnit,
  toMarkdown,
} from './control/report/index.js';
export {
  DEFAULT_REQUEST_JOURNAL_SIZE,
  formatRequestLine,
  type RequestEntry,
  type RequestFilter,
  type RequestSummary,
} from './control/requests/index.js';
export type { SandboxClock } from './control/sandbox.domain.js';
export { type SeedDirectory, seedDirectory } from './control/seeded-world.js';
export type {
  WorldCreatedValue as CreatedWorld,
  WorldDirectory,
  WorldSummaryValue as WorldSummary,
} from './control/worlds.js';
export { type Clock, manualClock, systemClock } from './lib/clock.js';
export type { CorsOrigins } from './lib/cors.js';
export { type SeedCredentials, seedCredentials } from './platform/credentials.js';
export {
  DRIFT_KINDS,
  type DriftEntry,
  DriftFileError,
  type DriftFinding,
  type DriftKind,
  type DriftReport,
  driftFailing,
  driftFileText,
  driftToJUnit,
  driftToMarkdown,
  type OperationSummary,
  ProxyError,
  type ProxyOptions,
  type RunningProxy,
  readDriftFile,
  startProxy,
} from './proxy/index.js';
export { type RunningSandbox, StartError, type StartOptions, startSandbox } from './server.js';
export { Store, StoreFileError } from './store/store.js';
