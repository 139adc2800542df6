import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Clock } from '../../lib/clock.js';
import type { World } from '../../store/world.js';

/**
 * The MCP sessions of one app: each is an MCP Server and its Streamable HTTP transport, bound to the
 * identity of the token that opened it (key, consumer, scopes). They live in memory, at most
 * `limit` of them (past it, the least recently used is closed), and are closed on DELETE /mcp, when
 * the token they run on has expired, and when the world is replaced (reset, a fixture with
 * `replace: true`): the last two are noticed at the next look (any /mcp request, `sessions()`).
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

export const DEFAULT_MAX_SESSIONS = 100;

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

export class McpSessions implements McpService {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly clock: Clock,
    private readonly currentWorld: () => World,
    readonly limit = DEFAULT_MAX_SESSIONS,
  ) {}

  /** Keeps a new session, closing the least recently used one past the limit. */
  add(session: Session): void {
    while (this.#sessions.size >= this.limit) {
      const oldest = this.#sessions.keys().next();
      if (oldest.done) break;
      void this.close(oldest.value);
    }
    this.#sessions.set(session.id, session);
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
