import { randomUUID } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, JSONRPCMessage, RequestId, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import { decodeJwt } from 'jose';
import { ApiError, errors, jsonTooDeep, messages } from '../../lib/errors.js';
import { canSee } from '../../platform/access.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../platform/body-guard.js';
import type { AppEnv, Services } from '../../platform/context.js';
import type { Principal } from '../../platform/tokens.js';
import { publicOrigin } from '../../platform/urls.js';
import { readSource } from './datalayer-source.js';
import type { OAuthState } from './oauth.domain.js';
import { resourceMetadataUrl } from './oauth.routes.js';
import type { McpSessions, Session } from './sessions.js';
import {
  BODY_ARGUMENT,
  type ToolCatalogue,
  type ToolDefinition,
  toolCatalogue,
  toolsGranted,
} from './tools.js';

/**
 * The remote MCP server at /mcp (Streamable HTTP, stateful sessions), on the SDK's low-level Server:
 * its tools are generated from JSON Schemas (tools.ts), which McpServer's zod-shaped tools would
 * only wrap again. Each session is bound to the token that opened it; each tool call is the
 * operation itself, run through the same app with the same bearer token.
 */

type McpContext = Context<AppEnv>;

type Sdk = typeof import('./sdk.js');
let sdkLoading: Promise<Sdk> | undefined;
/** The SDK, imported once per process on the first /mcp request (see sdk.ts). */
const loadSdk = (): Promise<Sdk> => {
  sdkLoading ??= import('./sdk.js');
  return sdkLoading;
};

/** Who an admitted request is: the token's principal, and what the session list shows. */
interface Admitted {
  principal: Principal & { mcp: NonNullable<Principal['mcp']> };
  token: string;
  expiresAt: number;
  identity: string;
}

/** The prefix of the keys this server puts in a result's `_meta`. */
const META = 'unified-api-sandbox';

/**
 * The 401 of /mcp: the service's error body, and the header MCP clients start their OAuth discovery
 * from (RFC 9728 section 5.1); `invalid_token` once a token was sent (RFC 6750 section 3).
 */
function unauthorized(c: McpContext, services: Services, error: ApiError, tokenSent: boolean): Response {
  const origin = publicOrigin(services.config, c.req.url);
  const challenge = [`Bearer resource_metadata="${resourceMetadataUrl(origin)}"`];
  if (tokenSent) {
    const description = (error.detail || error.message).replace(/["\\]/g, '');
    challenge.push(`error="invalid_token"`, `error_description="${description}"`);
  }
  return c.json(error.toBody(), 401, { 'www-authenticate': challenge.join(', ') });
}

/** The MCP token of the request, checked as every operation checks it, plus what /mcp needs. */
async function admit(c: McpContext, services: Services): Promise<Admitted | Response> {
  const header = c.req.header('authorization');
  let principal: Principal;
  try {
    const pending = services.tokens.authenticate(header);
    principal = pending instanceof Promise ? await pending : pending;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return unauthorized(c, services, error, /^Bearer\s+\S/i.test(header ?? ''));
    }
    throw error;
  }
  if (principal.kind !== 'mcp' || principal.mcp === null) {
    return unauthorized(c, services, errors.mcpApiToken(), true);
  }
  const consumer = services.store.world.consumers[principal.mcp.consumerid];
  if (!consumer || !canSee(principal, consumer)) {
    return unauthorized(c, services, errors.mcpTokenConsumerGone(), true);
  }
  const token = (header ?? '').trim().split(/\s+/)[1] as string;
  const expiresAt = (decodeJwt(token).exp ?? 0) * 1000;
  const mcp = principal.mcp;
  const identity = [
    principal.accountid,
    principal.envid,
    principal.clientid,
    mcp.consumerid,
    [...mcp.scopes].sort().join(' '),
  ].join('\n');
  return { principal: principal as Admitted['principal'], token, expiresAt, identity };
}

/** A JSON-RPC error answer of the transport layer (no request id: it concerns the HTTP request). */
const rpcError = (
  c: McpContext,
  status: 400 | 404 | 413 | 429,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) => c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);

/** JSON-RPC's code of an implementation-defined server error: here, the app holds all the sessions it may. */
const SERVER_FULL = -32000;
/** How long a client refused for a full server is told to wait: sessions end as their tokens expire. */
const FULL_RETRY_SECONDS = 60;

const describeJson = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why a tools/call request cannot be run (its id, and the message), or null for a well-formed one. */
function malformedToolCall(sdk: Sdk, message: JSONRPCMessage): { id: RequestId; message: string } | null {
  if (!sdk.isJSONRPCRequest(message) || message.method !== 'tools/call') return null;
  if (sdk.CallToolRequestSchema.safeParse(message).success) return null;
  const args = isRecord(message.params) ? message.params.arguments : undefined;
  if (args !== undefined && !isRecord(args)) {
    return { id: message.id, message: messages.mcpToolArgumentsNotObject(describeJson(args)) };
  }
  return { id: message.id, message: messages.mcpToolCallInvalid };
}

/**
 * The SDK checks a request against its method's schema before any handler runs, and answers a
 * failed check as an internal error (-32603): a tools/call whose arguments are a string, an array or
 * null would read as the server's fault. Such a call is the caller's, and is answered here as
 * invalid params (-32602), each request of a batch on its own; the others reach the SDK as sent.
 */
function answerMalformedToolCalls(
  sdk: Sdk,
  transport: InstanceType<Sdk['WebStandardStreamableHTTPServerTransport']>,
): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const malformed = malformedToolCall(sdk, message);
    if (malformed === null) return deliver(message, extra);
    const answer = {
      jsonrpc: '2.0' as const,
      id: malformed.id,
      error: { code: sdk.ErrorCode.InvalidParams, message: malformed.message },
    };
    // A failed send is the client gone: nothing is left to answer.
    transport.send(answer).catch(() => undefined);
  };
}

function toMcpTool(tool: ToolDefinition): Tool {
  const read = tool.method === 'GET';
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: {
      title: tool.title,
      readOnlyHint: read,
      destructiveHint: tool.method === 'DELETE',
      idempotentHint: read || tool.method === 'PUT' || tool.method === 'DELETE',
      openWorldHint: false,
    },
  };
}

/** A path parameter as one segment: `.` and `..` would move the path elsewhere, and are refused. */
function segment(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') return null;
  return encodeURIComponent(value);
}

function queryValues(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(queryValues);
  if (typeof value === 'object') return [JSON.stringify(value)];
  return [String(value)];
}

const textResult = (
  text: string,
  isError: boolean,
  structured: Record<string, unknown>,
  meta: Record<string, unknown>,
): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
  isError,
  _meta: { [META]: meta },
});

/**
 * The text of an error result: many hosts show the model only the text, not `structuredContent`, so
 * it carries everything the answer says. The first line is the message, the status and the
 * error_code when there is one; then the detail: a validation answer's fields, one per line with
 * its location, or the detail as it came.
 */
function errorText(status: number, body: Record<string, unknown>): string {
  const message = typeof body.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const code =
    typeof body.error_code === 'string' && body.error_code ? `, error_code ${body.error_code}` : '';
  const lines = [`${message} (HTTP ${status}${code})`];
  const detail = body.detail;
  if (Array.isArray(detail)) {
    for (const item of detail) {
      const issue = item as { loc?: unknown; msg?: unknown };
      lines.push(
        Array.isArray(issue.loc) && typeof issue.msg === 'string'
          ? `- ${issue.loc.join('.')}: ${issue.msg}`
          : `- ${typeof item === 'string' ? item : JSON.stringify(item)}`,
      );
    }
  } else if (typeof detail === 'string') {
    if (detail) lines.push(detail);
  } else if (detail !== undefined && detail !== null) {
    lines.push(JSON.stringify(detail));
  }
  // An answer that is not the service's error object (a bare text body): the text itself.
  if (body.message === undefined && body.result !== undefined && body.result !== null) {
    lines.push(typeof body.result === 'string' ? body.result : JSON.stringify(body.result));
  }
  return lines.join('\n');
}

export interface ToolCallContext {
  app: OpenAPIHono<AppEnv>;
  services: Services;
  token: string;
  consumerId: string;
  origin: string;
}

/**
 * Runs a tool: the operation's request, built from the arguments with the token's consumer, through
 * the app (same rules, errors, write boundary, faults and journal). A 2xx JSON answer comes back as
 * `structuredContent` (an array or a scalar as `{result}`) and as text; an error as `isError`, with
 * the whole answer in the text (see errorText).
 */
export async function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  context: ToolCallContext,
): Promise<CallToolResult> {
  let path = tool.path;
  if (tool.consumerScoped) path = path.replace('{consumer_id}', encodeURIComponent(context.consumerId));
  for (const name of tool.pathParams) {
    const value = segment(args[name]);
    if (value === null) {
      const message = messages.mcpToolArgument(name);
      return textResult(message, true, { message, status: 'error', detail: '' }, { status: null });
    }
    path = path.replace(`{${name}}`, value);
  }
  const url = new URL(path, context.origin);
  for (const name of tool.queryParams) {
    for (const value of queryValues(args[name])) url.searchParams.append(name, value);
  }
  const headers: Record<string, string> = {
    authorization: `Bearer ${context.token}`,
    accept: 'application/json',
  };
  const init: RequestInit = { method: tool.method, headers };
  if (tool.hasBody && args[BODY_ARGUMENT] !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(args[BODY_ARGUMENT]);
  }
  let res: Response;
  try {
    res = await context.app.request(new Request(url, init));
  } catch (error) {
    // A fault that drops the request: as a client sees a network failure.
    const message = error instanceof Error ? error.message : String(error);
    return textResult(message, true, { message, status: 'error', detail: '' }, { status: 0 });
  }
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const meta: Record<string, unknown> = {
    status: res.status,
    method: tool.method,
    path: url.pathname + url.search,
  };
  const structured =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : { result: res.status === 204 ? null : body };
  if (res.status >= 400) return textResult(errorText(res.status, structured), true, structured, meta);
  if (tool.method === 'GET' && tool.consumerScoped) {
    const source = readSource(
      context.services.store.world,
      context.services.catalogue,
      context.services.verticals,
      context.consumerId,
      tool.path,
    );
    if (source) meta.source = source;
  }
  return textResult(res.status === 204 ? '' : text, false, structured, meta);
}

/** The scheme of the resources: `sandbox://api/<the operation's path under the consumer>`. */
const RESOURCE_PREFIX = 'sandbox://api/';

/**
 * The read-only lists of the token's consumer as resources: the GET operations of its tools that
 * need no argument (no path parameter beyond the consumer, no required query parameter), each at
 * the operation's path under the consumer.
 */
function resourcesOf(tools: readonly ToolDefinition[]) {
  const byUri = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (tool.method !== 'GET' || !tool.consumerScoped || tool.pathParams.length > 0) continue;
    if ((tool.inputSchema.required ?? []).length > 0) continue;
    const under = tool.path.slice(tool.path.indexOf('{consumer_id}') + '{consumer_id}'.length + 1);
    byUri.set(`${RESOURCE_PREFIX}${under}`, tool);
  }
  return byUri;
}

/** The MCP Server of one session: tools and resources for the session's token. */
function sessionServer(
  {
    Server,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ReadResourceRequestSchema,
    McpError,
    ErrorCode,
  }: Sdk,
  app: OpenAPIHono<AppEnv>,
  services: Services,
  catalogue: ToolCatalogue,
  admitted: Admitted,
  info: { calls: number },
  origin: string,
): Server {
  const server = new Server(
    { name: 'unified-api-sandbox', title: 'Unified integration API (sandbox)', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions:
        "Tools of the unified integration API for one consumer (the token's): every tool is an API operation, its consumer filled in.",
    },
  );
  const grantedTools = toolsGranted(catalogue.tools, admitted.principal.mcp.scopes);
  const granted = grantedTools.map(toMcpTool);
  const resources = resourcesOf(grantedTools);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: granted }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [...resources].map(([uri, tool]) => ({
      uri,
      name: tool.name,
      title: tool.title,
      description: tool.description,
      mimeType: 'application/json',
    })),
  }));
  // Reading a resource is calling its operation with no argument: the same request as the tool's.
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const tool = resources.get(request.params.uri);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, messages.mcpResourceUnknown(request.params.uri));
    const auth = extra.authInfo;
    const result = await callTool(
      tool,
      {},
      {
        app,
        services,
        token: auth?.token ?? admitted.token,
        consumerId: admitted.principal.mcp.consumerid,
        origin: typeof auth?.extra?.origin === 'string' ? auth.extra.origin : origin,
      },
    );
    const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
    if (result.isError) throw new McpError(ErrorCode.InvalidRequest, text);
    return {
      contents: [{ uri: request.params.uri, mimeType: 'application/json', text }],
      _meta: result._meta,
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = catalogue.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, messages.mcpToolUnknown(request.params.name));
    info.calls += 1;
    const auth = extra.authInfo;
    return callTool(tool, request.params.arguments ?? {}, {
      app,
      services,
      // The token of this HTTP request (a refreshed one, say), not the one that opened the session.
      token: auth?.token ?? admitted.token,
      consumerId: admitted.principal.mcp.consumerid,
      origin: typeof auth?.extra?.origin === 'string' ? auth.extra.origin : origin,
    });
  });
  return server;
}

/** The handler of /mcp: GET (the server's event stream), POST (messages), DELETE (end of session). */
export function mcpEndpoint(
  app: OpenAPIHono<AppEnv>,
  services: Services,
  sessions: McpSessions,
  oauth: OAuthState,
) {
  return async (c: McpContext): Promise<Response> => {
    const sdk = await loadSdk();
    const admitted = await admit(c, services);
    if (admitted instanceof Response) return admitted;
    // The journal shows the caller of /mcp as it shows MCP tokens elsewhere.
    c.set('principal', admitted.principal);
    const origin = publicOrigin(services.config, c.req.url);
    const authInfo: AuthInfo = {
      token: admitted.token,
      clientId: oauth.clientOfToken(admitted.token)?.client_id ?? admitted.principal.clientid,
      scopes: [...admitted.principal.mcp.scopes],
      expiresAt: Math.floor(admitted.expiresAt / 1000),
      resource: new URL(`${origin}/mcp`),
      extra: { origin },
    };
    // A POST's body is read here (the journal keeps the JSON-RPC message) and handed over parsed.
    let request = c.req.raw;
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      const text = await c.req.text();
      // Every walk of the message (the SDK's validation) recurses per level: the app's bound.
      if (nestsDeeperThan(Buffer.from(text), MAX_JSON_DEPTH)) throw jsonTooDeep(MAX_JSON_DEPTH);
      request = new Request(c.req.raw.url, { method: 'POST', headers: c.req.raw.headers, body: text });
      try {
        parsedBody = JSON.parse(text);
      } catch {
        parsedBody = undefined; // the transport answers its parse error
      }
    }
    const options = parsedBody === undefined ? { authInfo } : { authInfo, parsedBody };

    const sessionId = c.req.header('mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another token's session does not exist for this one.
      if (!session || session.identity !== admitted.identity) {
        return rpcError(c, 404, -32001, messages.mcpSessionNotFound);
      }
      sessions.touch(session, admitted.expiresAt);
      return session.transport.handleRequest(request, options);
    }
    if (c.req.method !== 'POST' || !sdk.isInitializeRequest(parsedBody)) {
      return rpcError(c, 400, sdk.ErrorCode.ConnectionClosed, messages.mcpSessionRequired);
    }
    // The account's place is held while the initialize runs, so that concurrent ones cannot pass the cap.
    const account = admitted.principal.accountid;
    // Full: 429 for the cap of sessions, which frees itself as tokens expire; 413 for the world's bytes.
    const room = sessions.reserve(account);
    if (room === 'cap') {
      return rpcError(c, 429, SERVER_FULL, messages.mcpSessionsFull(sessions.cap), {
        'retry-after': String(FULL_RETRY_SECONDS),
      });
    }
    if (room !== true) return rpcError(c, 413, SERVER_FULL, messages.worldFull(room.used, room.limit));
    let kept = false;
    try {
      return await openSession(sdk, app, services, sessions, oauth, admitted, request, options, () => {
        kept = true;
      });
    } finally {
      if (!kept) sessions.release(account);
    }
  };
}

async function openSession(
  sdk: Sdk,
  app: OpenAPIHono<AppEnv>,
  services: Services,
  sessions: McpSessions,
  oauth: OAuthState,
  admitted: Admitted,
  request: Request,
  options: { authInfo: AuthInfo; parsedBody?: unknown },
  onKept: () => void,
): Promise<Response> {
  const catalogue = await toolCatalogue(app);
  const now = services.clock.now().toISOString();
  const client = oauth.clientOfToken(admitted.token);
  const info = {
    session_id: '',
    account_id: admitted.principal.accountid,
    consumer_id: admitted.principal.mcp.consumerid,
    client_id: admitted.principal.clientid,
    oauth_client_id: client?.client_id ?? null,
    oauth_client_name: client?.client_name ?? null,
    scopes: [...admitted.principal.mcp.scopes],
    created_at: now,
    last_used_at: now,
    expires_at: new Date(admitted.expiresAt).toISOString(),
    calls: 0,
  };
  const origin = options.authInfo.extra?.origin as string;
  const server = sessionServer(sdk, app, services, catalogue, admitted, info, origin);
  const world = services.store.world;
  const transport: InstanceType<Sdk['WebStandardStreamableHTTPServerTransport']> =
    new sdk.WebStandardStreamableHTTPServerTransport({
      // A secret of this process, like a link id: never derived from the seed.
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      maxRequestBodySize: services.config.bodyLimit,
      onsessioninitialized: (id) => {
        info.session_id = id;
        const session: Session = {
          id,
          identity: admitted.identity,
          server,
          transport,
          world,
          info,
          expiresAt: admitted.expiresAt,
        };
        sessions.add(session);
        onKept();
      },
      onsessionclosed: (id) => sessions.forget(id),
    });
  await server.connect(transport);
  answerMalformedToolCalls(sdk, transport);
  const response = await transport.handleRequest(request, options);
  // An initialize the transport refused leaves no session: nothing to keep.
  if (transport.sessionId === undefined) await server.close();
  return response;
}
