import type { Clock } from '../lib/clock.js';
import type { IdSource } from '../lib/ids.js';
import type { WorldStore } from '../store/store.js';
import type { Catalogue } from './catalogue.js';
import type { DriftFollowing } from './drift.js';
import type { SandboxSelf } from './self.js';
import type { Ticker } from './ticker.js';
import type { Principal, TokenService } from './tokens.js';
import type { AnyVerticalModule } from './vertical-module.js';

/** Settings of one sandbox app, fixed when it is created. */
export interface SandboxConfig {
  seed: number;
  /** Base url to put in links and logo urls; by default the origin of each request. */
  publicUrl: string | null;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** When set, the control endpoints under /__sandbox need it as a bearer token. */
  adminToken: string | null;
}

/**
 * Values an app derives from its world and keeps to save work, rebuilt at will: they belong to the
 * app, never to the process, so two apps of one process share nothing.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each module that keeps a cache adds it here (declare module)
export interface AppCaches {}

/**
 * Values only this app knows, drawn at random when it is created and never stored or logged: what
 * proves that a request comes from one of its own console pages (the key of its form tokens).
 */
export interface AppSecrets {
  /** Keys the hidden field of every console form, checked on each console POST. */
  consoleForm: string;
}

/**
 * The services every handler reaches through `c.var`: nothing is imported as a global. The layers
 * above add theirs by declaration merging (the request journal and the faults in control/, the MCP
 * sessions in surfaces/), so this file names none of them.
 */
export interface Services {
  store: WorldStore;
  clock: Clock;
  ids: IdSource;
  catalogue: Catalogue;
  tokens: TokenService;
  config: SandboxConfig;
  /** Background work driven by the clock (see platform/ticker.ts). */
  ticker: Ticker;
  /** What the app memoizes (see AppCaches). */
  caches: AppCaches;
  secrets: AppSecrets;
  /** The verticals the app was composed of (src/verticals.ts), for what loops over them. */
  verticals: readonly AnyVerticalModule[];
  /**
   * The sandbox itself (platform/self.ts): the addresses it answers on and the marker of its
   * deliveries, shared by every world of one server. startSandbox records where it listens; when
   * serving the app by other means, record yours (`self.answersOn('http://127.0.0.1:8080')`).
   */
  self: SandboxSelf;
  /** The entries of a drift file the app follows (platform/drift.ts), when it was given one. */
  drift?: DriftFollowing;
}

export type AppEnv = {
  Variables: Services & {
    principal: Principal;
    /** Set by a write that creates an entity: recorded with the request's transaction. */
    createdEntityId: string | undefined;
  };
};
