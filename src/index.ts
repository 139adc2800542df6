/** Programmatic use: createApp for in-process tests, startSandbox for a listening server. */
export { createApp, DEFAULT_SEED, type CreateAppOptions, type SandboxApp } from './app.js';
export { startSandbox, StartError, type RunningSandbox, type StartOptions } from './server.js';
export { manualClock, systemClock, type Clock } from './lib/clock.js';
export { seedCredentials, type SeedCredentials } from './seed/credentials.js';
export { seedDirectory } from './seed/world.js';
export { Store, StoreFileError } from './store/store.js';
