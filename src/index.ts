/** Programmatic use: createApp for in-process tests, startSandbox for a listening server. */
export { type CreateAppOptions, createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
export { type Clock, manualClock, systemClock } from './lib/clock.js';
export type { CorsOrigins } from './lib/cors.js';
export {
  type Fault,
  type FaultControl,
  type FaultRule,
  FaultRuleError,
  MAX_FAULT_HOLD_MS,
} from './resources/sandbox/faults.js';
export {
  FixtureError,
  type FixtureResult,
  type FixtureSource,
  loadFixtures,
} from './resources/sandbox/fixtures.control.js';
export { fixtureJsonSchema } from './resources/sandbox/fixtures.schema.js';
export {
  DEFAULT_REQUEST_JOURNAL_SIZE,
  formatRequestLine,
  type RequestEntry,
  type RequestFilter,
  type RequestSummary,
} from './resources/sandbox/requests.js';
export type { SandboxClock } from './resources/sandbox/sandbox.domain.js';
export { type SeedCredentials, seedCredentials } from './seed/credentials.js';
export { type SeedDirectory, seedDirectory } from './seed/world.js';
export { type RunningSandbox, StartError, type StartOptions, startSandbox } from './server.js';
export { Store, StoreFileError } from './store/store.js';
