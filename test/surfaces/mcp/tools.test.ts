import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { seedWorld } from '../../../src/control/seeded-world.js';
import { errors, messages } from '../../../src/lib/errors.js';
import { Store } from '../../../src/store/store.js';
import { McpSessions, type Session } from '../../../src/surfaces/mcp/sessions.js';
import { toolsFromDocument } from '../../../src/surfaces/mcp/tools.js';
import { call, SEED, sandbox, sandboxToken, tokenFor } from '../../helpers.js';
import { connect, documentedTools, initializeBody, mcpHeaders, mcpToken, servedPerTest } from './helpers.js';

const served = servedPerTest();

const toolResult = (result: unknown) => result as CallToolResult;

/** The body of a raw answer: the service's error envelope, or a JSON-RPC error. */
const bodyOf = async (res: Response) =>
  (await res.json()) as { message?: string; error?: { message: string } };

describe('MCP server: tools of the token', () => {
  it('lists exactly the documented operations of the token’s scopes, for one scope, a few, and all', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const cases: { scopes: string[] | undefined; granted: string[] }[] = [
      { scopes: ['consumers.read'], granted: ['consumers.read'] },
      { scopes: ['accounting.invoices.read'], granted: ['accounting.invoices.read'] },
      { scopes: ['accounting', 'connections.read'], granted: ['accounting', 'connections.read'] },
      // No scopes asked for: every scope of the seeded key, which holds '*'.
      { scopes: undefined, granted: ['*'] },
    ];
    const counts: number[] = [];
    for (const { scopes, granted } of cases) {
      const { client } = await connect(s.url, await mcpToken(s, consumer, scopes));
      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      const expected = await documentedTools(s.app, granted);
      expect(expected.length).toBeGreaterThan(0);
      expect(listed).toEqual(expected);
      counts.push(listed.length);
      await client.close();
    }
    // The document's operations that take MCP tokens, all of them and no other, for '*'.
    const all = await documentedTools(s.app, ['*']);
    expect(counts.at(-1)).toBe(all.length);
    expect(counts[0]).toBeLessThan(counts[2] as number);
  });

  it('describes each tool from its operation: summary, parameters without consumer_id, the body', async () => {
    const s = await served();
    const { client } = await connect(s.url, await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string));
    const tools = (await client.listTools()).tools;
    const update = tools.find((tool) => tool.name === 'consumers_update_consumer');
    expect(update?.description).toContain('Update one consumer');
    expect(update?.inputSchema.required).toEqual(['body']);
    expect(Object.keys(update?.inputSchema.properties ?? {})).toEqual(['body']);
    // The body's $ref is resolved from the document's components.
    const body = update?.inputSchema.properties?.body as { properties?: Record<string, unknown> };
    expect(Object.keys(body.properties ?? {})).toContain('name');
    expect(JSON.stringify(tools)).not.toContain('#/components/');
    expect(JSON.stringify(tools)).not.toContain('"consumer_id"');
    const client_ = tools.find((tool) => tool.name === 'accounting_get_client');
    expect(client_?.inputSchema.required).toContain('client_id');
    expect(client_?.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it('builds a bounded schema for recursive and deep components', () => {
    const tools = toolsFromDocument({
      paths: {
        '/consumers/{consumer_id}/tree': {
          post: {
            operationId: 'tree_post',
            summary: 'A tree',
            security: [{ bearerAuth: [] }, { mcp_auth: ['trees'] }],
            parameters: [{ name: 'consumer_id', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
          },
        },
      },
    });
    expect(tools.map((tool) => tool.name)).toEqual(['tree_post']);
    const text = JSON.stringify(tools[0]?.inputSchema);
    expect(text).not.toContain('$ref');
    expect(text).toContain('not expanded');
    expect(tools[0]?.consumerScoped).toBe(true);
  });
});

describe('MCP server: calls', () => {
  it('runs a read and a write through the API: the write is seen by the API and journaled', async () => {
    const store = Store.memory(seedWorld(SEED, 'default'));
    const commits: string[][] = [];
    store.onCommit((collections) => commits.push([...collections]));
    const s = await served({ app: createApp({ seed: SEED, store }), ids: sandbox().ids });
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer, ['consumers']));
    const read = toolResult(await client.callTool({ name: 'consumers_get_consumer', arguments: {} }));
    expect(read.isError).toBe(false);
    expect(read.structuredContent?.consumerid).toBe(consumer);
    expect(JSON.parse((read.content[0] as { text: string }).text)).toEqual(read.structuredContent);

    const write = toolResult(
      await client.callTool({
        name: 'consumers_update_consumer',
        arguments: { body: { name: 'Renamed by an agent' } },
      }),
    );
    expect(write.isError).toBe(false);
    expect(write.structuredContent?.name).toBe('Renamed by an agent');
    // The operation's own write, committed once: POST /mcp holds no write around it.
    expect(commits).toEqual([['consumers']]);
    const api = await call(s.app, 'GET', `/consumers/${consumer}`, { token: await sandboxToken(s) });
    expect(api.body.name).toBe('Renamed by an agent');

    // The inner calls are journaled as the operations they are, as made with an MCP token.
    const journal = s.app.services.requests.list({ path: `/consumers/${consumer}` });
    expect(journal.map((entry) => entry.method)).toEqual(['GET', 'PATCH', 'GET']);
    const patch = journal.find((entry) => entry.method === 'PATCH');
    expect(patch?.request.headers.authorization).toBe('mcp');
    expect(patch?.status).toBe(200);
    // The outer /mcp requests too, with their JSON-RPC message.
    const outer = s.app.services.requests.list({ path: '/mcp', method: 'POST' });
    expect(outer.some((entry) => (entry.request.body as { method?: string })?.method === 'tools/call')).toBe(
      true,
    );

    // The console lists the session: its id, consumer, scopes and the two tool calls.
    const [session] = s.app.services.mcp?.sessions() ?? [];
    expect(session).toMatchObject({ consumer_id: consumer, scopes: ['consumers'], calls: 2 });
    const page = await s.app.request('/console/mcp-sessions');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(session?.session_id);
    expect(html).toContain(`href="/console/consumers/${consumer}"`);
    expect(html).toMatch(/<td>2<\/td>\s*<\/tr>/);
    expect(await (await s.app.request('/console')).text()).toContain('href="/console/mcp-sessions"');
    await client.close();
  });

  it('answers a service error as isError with the service’s message, and writes nothing', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer, ['consumers']));
    const before = await call(s.app, 'GET', `/consumers/${consumer}`, { token: await sandboxToken(s) });
    const result = toolResult(
      await client.callTool({ name: 'consumers_update_consumer', arguments: { body: { name: '   ' } } }),
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.message).toBe(errors.consumerNameInvalid().message);
    expect((result.content[0] as { text: string }).text).toContain(messages.consumerNameInvalid);
    expect(result._meta?.['unified-api-sandbox']).toMatchObject({ status: 400 });
    const after = await call(s.app, 'GET', `/consumers/${consumer}`, { token: await sandboxToken(s) });
    expect(after.body).toEqual(before.body);
    // A missing required body: the service's own validation answer.
    const missing = toolResult(await client.callTool({ name: 'consumers_update_consumer', arguments: {} }));
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent?.message).toBe('Validation error');
    await client.close();
  });

  it('does not list a tool outside the token’s scopes, and the service refuses to run it', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer, ['consumers.read']));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('consumers_get_consumer');
    expect(names).not.toContain('consumers_update_consumer');
    const refused = toolResult(
      await client.callTool({ name: 'consumers_update_consumer', arguments: { body: { name: 'Nope' } } }),
    );
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.message).toBe(errors.scopeDenied(['consumers']).message);
    expect(refused.structuredContent?.detail).toBe(errors.scopeDenied(['consumers']).detail);
    const api = await call(s.app, 'GET', `/consumers/${consumer}`, { token: await sandboxToken(s) });
    expect(api.body.name).not.toBe('Nope');
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      messages.mcpToolUnknown('no_such_tool'),
    );
    await client.close();
  });

  it('marks reads of a connection on the datalayer with the source and the last sync', async () => {
    const s = await served();
    // The sync consumer's accounting connection has its datalayer enabled (seed); the showcase's not.
    const onDatalayer = await connect(s.url, await mcpToken(s, s.ids.syncConsumerId, ['accounting.read']));
    const direct = await connect(
      s.url,
      await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string, ['accounting.read']),
    );
    const api = await sandboxToken(s);
    const connections = await call(s.app, 'GET', `/consumers/${s.ids.syncConsumerId}/connections`, {
      token: api,
    });
    const datalayer = s.app.services.store.world.datalayer_syncs;
    const enabled = (connections.body as { connectionid: string }[]).find(
      (connection) => datalayer[connection.connectionid]?.enabled,
    );
    expect(enabled).toBeDefined();
    const fromDatalayer = toolResult(
      await onDatalayer.client.callTool({ name: 'accounting_get_journals', arguments: {} }),
    );
    expect(fromDatalayer.isError).toBe(false);
    expect(fromDatalayer._meta?.['unified-api-sandbox']).toMatchObject({
      source: {
        source: 'datalayer',
        connection_id: enabled?.connectionid,
        last_sync_at: datalayer[enabled?.connectionid as string]?.last_refresh_at,
      },
    });
    const fromConnection = toolResult(
      await direct.client.callTool({ name: 'accounting_get_journals', arguments: {} }),
    );
    expect(fromConnection._meta?.['unified-api-sandbox']).toMatchObject({ source: { source: 'connection' } });
    // The same records either way: the API's answer.
    const journals = await call(s.app, 'GET', `/consumers/${s.ids.syncConsumerId}/accounting/journals`, {
      token: api,
    });
    expect(fromDatalayer.structuredContent).toEqual(journals.body);
    await onDatalayer.client.close();
    await direct.client.close();
  });
});

describe('MCP server: resources', () => {
  it('lists the argument-free reads of the token’s scopes as resources, read as the API answers them', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.INVOICING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer, ['invoicing.read']));
    const { resources } = await client.listResources();
    // Exactly the GET tools of the scope that take no argument.
    const tools = (await client.listTools()).tools.filter(
      (tool) => tool.annotations?.readOnlyHint === true && (tool.inputSchema.required ?? []).length === 0,
    );
    expect(resources.map((r) => r.name).sort()).toEqual(tools.map((t) => t.name).sort());
    const invoices = resources.find((r) => r.name === 'invoicing_get_invoices');
    expect(invoices?.uri).toBe('sandbox://api/invoicing/invoices');
    const read = await client.readResource({ uri: invoices?.uri as string });
    const api = await call(s.app, 'GET', `/consumers/${consumer}/invoicing/invoices`, {
      token: await sandboxToken(s),
    });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(api.body);
    // Another scope's lists are not resources of this token.
    expect(resources.some((r) => r.uri.startsWith('sandbox://api/accounting/'))).toBe(false);
    await expect(client.readResource({ uri: 'sandbox://api/accounting/clients' })).rejects.toThrow(
      messages.mcpResourceUnknown('sandbox://api/accounting/clients'),
    );
    await client.close();
  });
});

describe('MCP server: input bounds', () => {
  it('refuses a body past the app’s limit or nested past its depth, before any session', async () => {
    const s = await served({ app: createApp({ seed: SEED, bodyLimit: 4096 }), ids: sandbox().ids });
    const token = await mcpToken(s, s.ids.verticalConsumers.ACCOUNTING as string);
    const large = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders(token),
      body: JSON.stringify({ ...initializeBody, padding: 'x'.repeat(5000) }),
    });
    expect(large.status).toBe(413);
    expect((await bodyOf(large)).message).toBe(messages.payloadTooLarge(4096));
    const deep = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders(token),
      body: `${'['.repeat(100)}${']'.repeat(100)}`,
    });
    expect(deep.status).toBe(422);
    expect(s.app.services.mcp?.sessions()).toEqual([]);
  });

  it('answers every tool called with malformed arguments with a result, never an internal error', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    // Deleting or renaming the token's own consumer ends what the token reaches: left out here.
    const tools = names.filter((name) => !/delete_consumer|update_consumer/.test(name));
    expect(tools.length).toBeGreaterThan(100);
    const junk = [
      { body: [] },
      { page: -1, size: 1e9, date_from: 'garbage' },
      { folder_id: '../..', id: ['a'] },
    ];
    const failures: string[] = [];
    for (const name of tools) {
      for (const args of junk) {
        const result = toolResult(await client.callTool({ name, arguments: args }));
        const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
        if (/Internal server error|"status":5\d\d/.test(text))
          failures.push(`${name} ${JSON.stringify(args)}`);
      }
    }
    expect(failures).toEqual([]);
    // The session is still there and the consumer still reachable.
    const read = toolResult(await client.callTool({ name: 'consumers_get_consumer', arguments: {} }));
    expect(read.structuredContent?.consumerid).toBe(consumer);
    await client.close();
  }, 120_000);
});

describe('MCP server: authentication', () => {
  async function initialize(url: string, token?: string) {
    return fetch(`${url}/mcp`, {
      method: 'POST',
      headers: mcpHeaders(token),
      body: JSON.stringify(initializeBody),
    });
  }

  it('answers 401 with WWW-Authenticate to no token, an API token, a forged or foreign token', async () => {
    const s = await served();
    const metadata = `Bearer resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp"`;
    const none = await initialize(s.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(metadata);
    expect((await bodyOf(none)).message).toBe(messages.missingToken);

    const api = await initialize(s.url, await sandboxToken(s));
    expect(api.status).toBe(401);
    expect(api.headers.get('www-authenticate')).toMatch(new RegExp(`^${metadata}, error="invalid_token"`));
    expect((await bodyOf(api)).message).toBe(messages.mcpApiToken);

    // A token of another sandbox (another seed: another environment and signing secret).
    const other = sandbox({ seed: SEED + 1 });
    const foreign = await initialize(
      s.url,
      await mcpToken(other, other.ids.verticalConsumers.ACCOUNTING as string),
    );
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await bodyOf(foreign)).message).toBe(messages.invalidToken);

    // The production key's MCP token of a sandbox consumer does not exist: /mcp-token refuses it.
    const production = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.production });
    const refused = await call(s.app, 'POST', '/mcp-token', {
      token: production,
      body: {
        accountId: s.ids.accountId,
        ...s.ids.production,
        consumerId: s.ids.verticalConsumers.ACCOUNTING,
      },
    });
    expect(refused.status).toBe(401);
  });

  it('refuses an expired token once the sandbox clock moves on, and closes its session', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer, ['consumers.read']));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(s.app.services.mcp?.sessions()).toHaveLength(1);
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 30 * 60 } });
    expect(moved.status).toBe(200);
    expect(s.app.services.mcp?.sessions()).toEqual([]);
    const failure = await client.listTools().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(401);
    expect(String(failure)).toContain(messages.invalidToken);
    await client.close();
  });
});

describe('MCP server: sessions and isolation', () => {
  it('never reaches another consumer: ids of another consumer, a consumer_id argument, a path escape', async () => {
    const s = await served();
    const own = s.ids.verticalConsumers.ACCOUNTING as string;
    const other = s.ids.syncConsumerId;
    const api = await sandboxToken(s);
    const theirs = (await call(s.app, 'GET', `/consumers/${other}/connections`, { token: api })).body as {
      connectionid: string;
      name: string;
    }[];
    const target = theirs[0]?.connectionid as string;
    const { client } = await connect(s.url, await mcpToken(s, own, ['connections', 'consumers.read']));

    // Another consumer's connection, through the token's consumer: the API's own 404.
    const update = toolResult(
      await client.callTool({
        name: 'connections_update_connection',
        arguments: { connection_id: target, connectionid: target, body: { name: 'Taken over' } },
      }),
    );
    expect(update.isError).toBe(true);
    const viaApi = await call(s.app, 'PATCH', `/consumers/${own}/connections/${target}`, {
      token: api,
      body: { name: 'Taken over' },
    });
    expect(viaApi.status).toBe(404);
    expect(update.structuredContent?.message).toBe(viaApi.body.message);
    const after = (await call(s.app, 'GET', `/consumers/${other}/connections`, { token: api }))
      .body as typeof theirs;
    expect(after).toEqual(theirs);

    // A consumer_id argument is not a parameter: the consumer is the token's.
    const mine = toolResult(
      await client.callTool({ name: 'consumers_get_consumer', arguments: { consumer_id: other } }),
    );
    expect(mine.structuredContent?.consumerid).toBe(own);
    // A path parameter cannot climb out of its segment.
    const parameters = (await client.listTools()).tools.find(
      (tool) => tool.name === 'connections_update_connection',
    )?.inputSchema.required as string[];
    const climbed = toolResult(
      await client.callTool({
        name: 'connections_update_connection',
        arguments: Object.fromEntries([...parameters.map((name) => [name, '..']), ['body', { name: 'x' }]]),
      }),
    );
    expect(climbed.isError).toBe(true);
    expect(climbed.structuredContent?.message).toMatch(/^The argument '.+' is missing or not valid$/);
    await client.close();
  });

  it('refuses a session id with another token, closes sessions on DELETE and on reset', async () => {
    const s = await served();
    const own = s.ids.verticalConsumers.ACCOUNTING as string;
    const mine = await connect(s.url, await mcpToken(s, own, ['consumers.read']));
    const sessionId = mine.transport.sessionId as string;
    expect(sessionId).toBeTruthy();
    const listed = s.app.services.mcp?.sessions() ?? [];
    expect(listed).toMatchObject([
      {
        session_id: sessionId,
        consumer_id: own,
        client_id: s.ids.sandbox.clientId,
        scopes: ['consumers.read'],
        calls: 0,
      },
    ]);

    for (const token of [
      await mcpToken(s, s.ids.syncConsumerId, ['consumers.read']), // another consumer
      await mcpToken(s, own, ['consumers.read', 'accounting.read']), // other scopes
    ]) {
      const hijack = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders(token), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'consumers_get_consumer' },
        }),
      });
      expect(hijack.status).toBe(404);
      expect((await bodyOf(hijack)).error?.message).toBe(messages.mcpSessionNotFound);
    }
    expect(s.app.services.mcp?.sessions()[0]?.calls).toBe(0);

    await mine.client.callTool({ name: 'consumers_get_consumer', arguments: {} });
    expect(s.app.services.mcp?.sessions()[0]?.calls).toBe(1);
    await mine.transport.terminateSession();
    expect(s.app.services.mcp?.sessions()).toEqual([]);
    await mine.client.close();

    const again = await connect(s.url, await mcpToken(s, own, ['consumers.read']));
    expect(s.app.services.mcp?.sessions()).toHaveLength(1);
    expect((await call(s.app, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(s.app.services.mcp?.sessions()).toEqual([]);
    const gone = await again.client.listTools().catch((error: unknown) => error);
    expect((gone as StreamableHTTPError).code).toBe(404);
    await again.client.close();
  });

  it('keeps at most its limit of sessions, closing the least recently used', async () => {
    const clock = createApp({ seed: SEED }).services.clock;
    const world = {} as Session['world'];
    const sessions = new McpSessions(clock, () => world, 2);
    const closed: string[] = [];
    const session = (id: string): Session => ({
      id,
      identity: id,
      world,
      expiresAt: clock.now().getTime() + 60_000,
      transport: {} as Session['transport'],
      server: { close: async () => void closed.push(id) } as Session['server'],
      info: {} as Session['info'],
    });
    sessions.add(session('a'));
    sessions.add(session('b'));
    sessions.touch(sessions.get('a') as Session, clock.now().getTime() + 60_000);
    sessions.add(session('c'));
    expect(closed).toEqual(['b']);
    expect(sessions.size).toBe(2);
    clock.advance(61);
    expect(sessions.get('a')).toBeUndefined();
    expect(closed.sort()).toEqual(['a', 'b', 'c']);
  });
});
