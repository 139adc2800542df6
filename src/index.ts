/** Programmatic use: createApp for in-process tests, startSandbox for a listening server. */
export { type CreateAppOptions, createApp, DEFAULT_SEED, type SandboxApp } from './app.js';
export { type Clock, manualClock, systemClock } from './lib/clock.js';
export { type SeedCredentials, seedCredentials } from './seed/credentials.js';
export { seedDirectory } from './seed/world.js';
export { type RunningSandbox, StartError, type StartOptions, startSandbox } from './server.js';
export { Store, StoreFileError } from './store/store.js';
