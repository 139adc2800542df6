import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Clock } from '../../lib/clock.js';
import type { WorldFullError, WorldQuota } from '../../store/store.js';
import type { World } from '../../store/world.js';

/**
 * The MCP sessions of one app: each is an MCP Server and its Streamable HTTP transport, bound to the
 * identity of the token that opened it (key, consumer, scopes). They live in memory, bounded per
 * account (past `limit`, the account's own least recently used session is closed: one tenant never
 * closes another's), in all (at `cap`, a new session is refused rather than taken from someone), and
 * by the world's bytes, which each session counts toward (MCP_SESSION_BYTES).
 * They are closed on DELETE /mcp, when the token they run on has expired, and when the world is
 * replaced (reset, a fixture with `replace: true`): the last two are noticed at the next look (any
 * /mcp request, `sessions()`).
 */

/** A session as `services.mcp.sessions()` lists it (for a console): read-only copies. */
export interface McpSessionInfo {
  session_id: string;
  account_id: string;
  consumer_id: string;
  /** The API key the token was minted with. */
  client_id: string;
  /** The OAuth client, for a token of the OAuth flow; null for a token of POST /mcp-token. */
  oauth_client_id: string | null;
  oauth_client_name: string | null;
  scopes: string[];
  /** Sandbox times (ISO). */
  created_at: string;
  last_used_at: string;
  /** When the latest token used on the session expires: the session ends with it. */
  expires_at: string;
  /** tools/call requests answered. */
  calls: number;
}

/** What other code may ask of the MCP server (Services.mcp). */
export interface McpService {
  /** The open sessions, oldest use first. */
  sessions(): McpSessionInfo[];
  /** Closes every session. */
  closeAll(): Promise<void>;
}

/** Sessions one account may hold at once: past it, its own least recently used one is closed. */
export const MAX_SESSIONS_PER_ACCOUNT = 100;
/** Sessions the app holds at once, every account together: past it, a new session is refused. */
export const MAX_SESSIONS = 1000;
/**
 * What a session costs in memory (its MCP server, transport and handlers: about 69 KB were measured
 * a session), counted in the world's bytes: a world over HTTP holds as many as its share allows.
 */
export const MCP_SESSION_BYTES = 72 * 1024;

export interface Session {
  readonly id: string;
  readonly identity: string;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** The world the session was opened on: another one means a reset. */
  readonly world: World;
  readonly info: McpSessionInfo;
  expiresAt: number;
}

const accountOf = (session: Session): string => session.info.account_id;

export class McpSessions implements McpService {
  /** Least recently used first. */
  readonly #sessions = new Map<string, Session>();
  /** Sessions of each account whose initialize is under way: they hold their place against the bounds. */
  readonly #opening = new Map<string, number>();
  /** The world's bound on bytes, which the sessions count toward, once `countIn` was called. */
  #quota: WorldQuota | null = null;

  /**
   * `limit`: sessions per account; `cap`: sessions in all. Plain fields, so that a test can lower
   * them on a running app.
   */
  constructor(
    private readonly clock: Clock,
    private readonly currentWorld: () => World,
    public limit = MAX_SESSIONS_PER_ACCOUNT,
    public cap = MAX_SESSIONS,
  ) {}

  /** Counts the sessions (those opening included) in the world's bytes, MCP_SESSION_BYTES each. */
  countIn(quota: WorldQuota): void {
    this.#quota = quota;
    quota.holdOutside(() => (this.#sessions.size + this.#openingCount()) * MCP_SESSION_BYTES);
  }

  #openingCount(): number {
    let opening = 0;
    for (const count of this.#opening.values()) opening += count;
    return opening;
  }

  /**
   * Room for a new session of the account, before its initialize runs: the account's own least
   * recently used sessions are closed down to its limit; 'cap' when the app holds its cap of sessions
   * even so (no other account's session is closed to make room), the world's refusal when one more
   * would take it past its bytes. A true must be followed by `add` or `release`.
   */
  reserve(accountId: string): true | 'cap' | WorldFullError {
    this.sweep();
    this.#makeRoom(accountId);
    if (this.#sessions.size + this.#openingCount() >= this.cap) return 'cap';
    const full = this.#quota?.refusal(MCP_SESSION_BYTES);
    if (full) return full;
    this.#opening.set(accountId, (this.#opening.get(accountId) ?? 0) + 1);
    return true;
  }

  /** Gives back the place of a session whose initialize did not open it. */
  release(accountId: string): void {
    const opening = (this.#opening.get(accountId) ?? 0) - 1;
    if (opening > 0) this.#opening.set(accountId, opening);
    else this.#opening.delete(accountId);
  }

  /** Keeps a new session (its reservation, if any, is spent), within its account's limit. */
  add(session: Session): void {
    const account = accountOf(session);
    if (this.#opening.has(account)) this.release(account);
    this.#makeRoom(account);
    this.#sessions.set(session.id, session);
  }

  /** Closes the account's least recently used sessions until one more fits within its limit. */
  #makeRoom(accountId: string): void {
    const own = [...this.#sessions.values()].filter((session) => accountOf(session) === accountId);
    let held = own.length + (this.#opening.get(accountId) ?? 0);
    for (const session of own) {
      if (held < this.limit) break;
      held -= 1;
      void this.close(session.id);
    }
  }

  /** The open session of this id, after closing those that ended. */
  get(id: string): Session | undefined {
    this.sweep();
    return this.#sessions.get(id);
  }

  /** A request on the session: it becomes the most recently used, and lives as long as its token. */
  touch(session: Session, expiresAt: number): void {
    session.expiresAt = expiresAt;
    session.info.expires_at = new Date(expiresAt).toISOString();
    session.info.last_used_at = this.clock.now().toISOString();
    this.#sessions.delete(session.id);
    this.#sessions.set(session.id, session);
  }

  async close(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    await session.server.close();
  }

  /** Forgets a session the transport closed itself (DELETE /mcp). */
  forget(id: string): void {
    this.#sessions.delete(id);
  }

  /** Closes the sessions whose token expired, and all of them when the world was replaced. */
  sweep(): void {
    const now = this.clock.now().getTime();
    const world = this.currentWorld();
    for (const session of [...this.#sessions.values()]) {
      if (session.expiresAt <= now || session.world !== world) void this.close(session.id);
    }
  }

  sessions(): McpSessionInfo[] {
    this.sweep();
    return [...this.#sessions.values()].map((session) => ({
      ...session.info,
      scopes: [...session.info.scopes],
    }));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)));
  }

  get size(): number {
    return this.#sessions.size;
  }
}

declare module '../../platform/context.js' {
  interface Services {
    /** The MCP server's sessions (`mcp.sessions()`), once registerMcp ran (see surfaces/mcp). */
    mcp?: McpService;
  }
}
