import type { FaultBook } from '../control/faults.js';
import type { RequestJournal } from '../control/requests.js';
import type { Clock } from '../lib/clock.js';
import type { IdSource } from '../lib/ids.js';
import type { LedgerFolder } from '../modules/accounting/accounting.records.js';
import type { WorldStore } from '../store/store.js';
import type { McpService } from '../surfaces/mcp/index.js';
import type { Catalogue } from './catalogue.js';
import type { Ticker } from './ticker.js';
import type { Principal, TokenService } from './tokens.js';

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
export interface AppCaches {
  /** The folders of a consumer's accounting integration, by seed, consumer and integration. */
  ledgerFolders: Map<string, LedgerFolder[]>;
}

/**
 * Values only this app knows, drawn at random when it is created and never stored or logged: what
 * proves that a request comes from the app itself (its webhook deliveries' marker) or from one of
 * its own console pages (the token of its forms).
 */
export interface AppSecrets {
  /** Sent by every webhook delivery (platform/request-policy.ts refuses a request carrying it). */
  selfMarker: string;
  /** The hidden field of every console form, checked on each console POST. */
  consoleForm: string;
}

/** The services every handler reaches through `c.var`: nothing is imported as a global. */
export interface Services {
  store: WorldStore;
  clock: Clock;
  ids: IdSource;
  catalogue: Catalogue;
  tokens: TokenService;
  config: SandboxConfig;
  /** Background work driven by the clock (see lib/ticker.ts). */
  ticker: Ticker;
  /** What the app memoizes (see AppCaches). */
  caches: AppCaches;
  /** The latest requests the API answered, in memory (see resources/sandbox/requests.ts). */
  requests: RequestJournal;
  /** The armed faults (see resources/sandbox/faults.ts). */
  faults: FaultBook;
  secrets: AppSecrets;
  /** The MCP server's sessions (`mcp.sessions()`), once registerMcp ran (see resources/mcp). */
  mcp?: McpService;
  /**
   * Origins the sandbox itself answers on (`http://127.0.0.1:4010`), filled by startSandbox once it
   * listens; add yours when serving the app by other means. Webhook urls at a control endpoint of
   * one of them are refused and never called (see resources/webhooks/own-origins.ts).
   */
  selfOrigins?: Set<string>;
}

export type AppEnv = {
  Variables: Services & {
    principal: Principal;
    /** Set by a write that creates an entity: recorded with the request's transaction. */
    createdEntityId: string | undefined;
  };
};
