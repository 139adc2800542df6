import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect } from 'vitest';
import type { SandboxApp } from '../../../src/app.js';
import { call, type Listening, listenOn, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/** The MCP suites' pieces: a real port (the SDK's client needs one), tokens, the SDK client. */

/** Serves the app on a free port; closing ends its MCP sessions first (their streams), then the server. */
export async function listen(app: SandboxApp): Promise<Listening> {
  const listening = await listenOn(app);
  return {
    origin: listening.origin,
    close: async () => {
      await app.services.mcp?.closeAll();
      await listening.close();
    },
  };
}

/**
 * For a test file's top level: registers an afterEach that closes every server started during the
 * test, and returns `served`, which serves a sandbox (a fresh one by default) and gives its URL.
 */
export function servedPerTest(): (s?: TestSandbox) => Promise<TestSandbox & { url: string }> {
  const open: Listening[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (s = sandbox()) => {
    const server = await listen(s.app);
    open.push(server);
    return { ...s, url: server.origin };
  };
}

/** An MCP token of the seeded sandbox key (POST /mcp-token): scopes omitted, every scope of the key. */
export async function mcpToken(s: TestSandbox, consumerId: string, scopes?: string[]): Promise<string> {
  const res = await call(s.app, 'POST', '/mcp-token', {
    token: await sandboxToken(s),
    body: { accountId: s.ids.accountId, ...s.ids.sandbox, consumerId, ...(scopes ? { scopes } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

export async function connect(
  url: string,
  token: string | null,
  options: StreamableHTTPClientTransportOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'sandbox-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    ...options,
    ...(token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}),
  });
  await client.connect(transport);
  return { client, transport };
}

interface OperationObject {
  operationId: string;
  security?: Record<string, string[]>[];
}

/** The operations of the served document that take MCP tokens, with the scopes each accepts. */
export async function mcpOperations(app: SandboxApp): Promise<{ operationId: string; scopes: string[] }[]> {
  const res = await call(app, 'GET', '/openapi.json');
  const paths = res.body.paths as Record<string, Record<string, OperationObject>>;
  const out: { operationId: string; scopes: string[] }[] = [];
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const mcp = operation.security?.find((requirement) => 'mcp_auth' in requirement);
      if (mcp) out.push({ operationId: operation.operationId, scopes: mcp.mcp_auth ?? [] });
    }
  }
  return out;
}

/** The operationIds the documented security lets a token carrying `granted` call. */
export async function documentedTools(app: SandboxApp, granted: string[]): Promise<string[]> {
  const operations = await mcpOperations(app);
  return operations
    .filter((op) => granted.includes('*') || op.scopes.some((scope) => granted.includes(scope)))
    .map((op) => op.operationId)
    .sort();
}

/** The initialize message of a bare HTTP client. */
export const initializeBody = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export const mcpHeaders = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});
