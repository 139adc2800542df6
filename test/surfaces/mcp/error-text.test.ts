import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { call, sandboxToken } from '../../helpers.js';
import { connect, mcpToken, servedPerTest } from './helpers.js';

/**
 * Many MCP hosts show the model only the text content of a tool result: the text of an error must
 * carry everything the answer says (message, status, error_code, every detail), so that an agent can
 * correct its call without reading `structuredContent`.
 */
const served = servedPerTest();

const textOf = (result: CallToolResult) => (result.content[0] as { type: string; text: string }).text;

describe('MCP tool errors: the whole error in the text', () => {
  it('a 422 lists each field’s location and message, one per line, and keeps structuredContent', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer));
    const result = (await client.callTool({
      name: 'accounting_create_client',
      arguments: { body: { name: 'x' } },
    })) as CallToolResult;
    expect(result.isError).toBe(true);

    // The same call through the API: what the text must carry, field by field.
    const api = await call(s.app, 'POST', `/consumers/${consumer}/accounting/clients`, {
      token: await sandboxToken(s),
      body: { name: 'x' },
    });
    expect(api.status).toBe(422);
    const issues = api.body.detail as { loc: (string | number)[]; msg: string }[];
    expect(issues.length).toBeGreaterThan(0);
    expect(result.structuredContent).toEqual(api.body);

    const lines = textOf(result).split('\n');
    expect(lines[0]).toBe('Validation error (HTTP 422)');
    const fieldLines = lines.slice(1);
    expect(fieldLines).toHaveLength(issues.length);
    for (const [i, issue] of issues.entries()) {
      const line = fieldLines[i] as string;
      // Each location, every segment of it, and the message.
      for (const part of issue.loc) expect(line).toContain(String(part));
      expect(line).toContain(issue.msg);
    }
  });

  it('several fields: one line each, in the order of the answer', async () => {
    const s = await served();
    const consumer = s.ids.verticalConsumers.ACCOUNTING as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer));
    const result = (await client.callTool({
      name: 'accounting_create_client',
      arguments: { body: { name: 5, addresses: 'none' } },
    })) as CallToolResult;
    const issues = (result.structuredContent as { detail: { loc: (string | number)[]; msg: string }[] })
      .detail;
    expect(issues.length).toBeGreaterThan(1);
    expect(textOf(result).split('\n').slice(1)).toEqual(
      issues.map((issue) => `- ${issue.loc.join('.')}: ${issue.msg}`),
    );
    await client.close();
  });

  it('a service error carries its message, status, error_code and detail', async () => {
    const s = await served();
    // A consumer without an accounting connection: the service's business error, with its code.
    const consumer = s.ids.verticalConsumers.PMS as string;
    const { client } = await connect(s.url, await mcpToken(s, consumer));
    const result = (await client.callTool({
      name: 'accounting_get_clients',
      arguments: {},
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const body = result.structuredContent as { message: string; detail: string; error_code: string };
    expect(body.error_code).toBe('ERROR_NO_ACTIVE_CONNECTION');
    expect(textOf(result)).toBe(
      `${body.message} (HTTP 400, error_code ERROR_NO_ACTIVE_CONNECTION)\n${body.detail}`,
    );

    // Without an error_code: the message, the status and the detail.
    const { client: other } = await connect(s.url, await mcpToken(s, consumer, ['consumers']));
    const invalid = (await other.callTool({
      name: 'consumers_update_consumer',
      arguments: { body: { name: '   ' } },
    })) as CallToolResult;
    const error = invalid.structuredContent as { message: string; detail: string; error_code?: string };
    expect(error.message).toBe(errors.consumerNameInvalid().message);
    expect(error.error_code).toBeUndefined();
    expect(error.detail).not.toBe('');
    expect(textOf(invalid)).toBe(`${error.message} (HTTP 400)\n${error.detail}`);
    await client.close();
    await other.close();
  });
});
