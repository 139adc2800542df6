import { describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';

/**
 * The readiness report reads what a client did to a world: a sloppy client gets a finding for each
 * habit that will hurt in production; the requests behind each finding are named.
 */

async function report(s: TestSandbox, query = '') {
  const res = await call(s.app, 'GET', `/__sandbox/report${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

type Finding = { kind: string; severity: string; requests: string[]; detail: string; count: number };
const kinds = (body: { findings: Finding[] }) => [...new Set(body.findings.map((f) => f.kind))].sort();
const findingOf = (body: { findings: Finding[] }, kind: string) => body.findings.find((f) => f.kind === kind);

describe('the readiness report of a sloppy client', () => {
  it('names each habit, with the requests behind it', async () => {
    const s = sandbox();
    const invoicing = s.ids.verticalConsumers.INVOICING as string;
    const accounting = s.ids.verticalConsumers.ACCOUNTING as string;
    // A token per call.
    const calls: [string, string, unknown?][] = [
      ['GET', `/consumers/${invoicing}/invoicing/invoices?page=1&size=10`],
      ['GET', `/consumers/${invoicing}/invoicing/contacts?page=1&size=5`],
      ['GET', `/consumers/${accounting}/accounting/miscellaneous-operation`],
    ];
    for (const [method, path] of calls) {
      const token = await sandboxToken(s);
      const res = await call(s.app, method, path, { token });
      expect(res.status, res.text).toBe(200);
    }
    // A write retried without a request id: two contacts.
    const token = await sandboxToken(s);
    const contact = { company_name: 'Acme retried', colour: 'blue' };
    for (let i = 0; i < 2; i += 1) {
      const res = await call(s.app, 'POST', `/consumers/${invoicing}/invoicing/contacts`, {
        token,
        body: contact,
      });
      expect(res.status, res.text).toBeLessThan(300);
    }
    // The token expires; the client goes on with it after the 401.
    expect(
      (await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 31 * 60 } })).status,
    ).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const res = await call(s.app, 'GET', `/consumers/${invoicing}/invoicing/taxes`, { token });
      expect(res.status).toBe(401);
    }
    const body = await report(s);
    expect(kinds(body)).toEqual(
      expect.arrayContaining([
        'token_not_reused',
        'partial_list_read',
        'write_without_request_id',
        'duplicate_write',
        'expired_token_used',
        'no_new_token_after_401',
        'deprecated_operation',
        'unknown_body_field',
      ]),
    );
    // Each finding names its requests, as the journal numbers them.
    expect(findingOf(body, 'duplicate_write')?.requests).toEqual(['req_9']);
    expect(findingOf(body, 'expired_token_used')).toMatchObject({ count: 2, requests: ['req_10', 'req_11'] });
    expect(findingOf(body, 'no_new_token_after_401')?.requests).toEqual(['req_11']);
    expect(findingOf(body, 'deprecated_operation')).toMatchObject({
      operation_id: 'accounting_get_miscellaneous_operations',
      requests: ['req_6'],
    });
    const partial = body.findings.filter((f: Finding) => f.kind === 'partial_list_read');
    expect(partial.map((f: Finding) => f.requests[0]).sort()).toEqual(['req_2', 'req_4', 'req_6']);
    expect(partial.find((f: Finding) => f.requests[0] === 'req_2').detail).toContain(
      'total 148 in pages of 10; read page 1, never page 2',
    );
    const unknown = body.findings.filter((f: Finding) => f.kind === 'unknown_body_field');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ count: 2, requests: ['req_8', 'req_9'] });
    expect(unknown[0].detail).toContain('the field colour is not in its schema');
    expect(findingOf(body, 'token_not_reused')?.requests).toEqual(['req_3', 'req_5', 'req_7']);
    expect(body.tokens).toEqual({ requested: 4, most_in_one_hour: 4, distinct_used: 1, expired_uses: 2 });
    // The journal's entry of a finding's request is the request it names.
    const named = await call(s.app, 'GET', '/__sandbox/requests/req_9');
    expect(named.body).toMatchObject({ method: 'POST', path: `/consumers/${invoicing}/invoicing/contacts` });
    // The same requests, the same report; the Markdown and JUnit forms carry the same findings.
    expect(await report(s)).toEqual(body);
    const markdown = await call(s.app, 'GET', '/__sandbox/report?format=markdown');
    expect(markdown.headers.get('content-type')).toContain('text/markdown');
    for (const kind of kinds(body)) expect(markdown.text).toContain(`\`${kind}\``);
    const junit = await call(s.app, 'GET', '/__sandbox/report?format=junit&fail_on=error');
    expect(junit.headers.get('content-type')).toContain('application/xml');
    expect(junit.text).toContain(`failures="${body.summary.errors}"`);
    expect(junit.text.match(/<failure /g)).toHaveLength(body.summary.errors);
  });

  it('names failing requests sent again unchanged, paths the API does not publish, and control calls with its token', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const multi = s.ids.multiFolderConsumerId;
    for (let i = 0; i < 3; i += 1) {
      const res = await call(s.app, 'GET', `/consumers/${multi}/accounting/journals`, { token });
      expect(res.status).toBe(400);
    }
    expect((await call(s.app, 'GET', '/consumers/nope/invoicing/invoicez', { token })).status).toBe(404);
    const invoicing = s.ids.verticalConsumers.INVOICING as string;
    const typo = await call(
      s.app,
      'GET',
      `/consumers/${invoicing}/invoicing/invoices?updated_since=2026-01-01`,
      {
        token,
      },
    );
    expect(typo.status).toBe(200);
    // The client's own code moving the sandbox's clock: a call production will answer 404.
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { token, body: { advance_seconds: 60 } });
    expect(moved.status).toBe(200);
    const body = await report(s);
    expect(findingOf(body, 'repeated_failure')).toMatchObject({
      count: 3,
      operation_id: 'accounting_get_journals',
      requests: ['req_2', 'req_3', 'req_4'],
    });
    expect(findingOf(body, 'folder_id_missing')).toMatchObject({ count: 3, consumer_id: multi });
    expect(findingOf(body, 'error_met')?.detail).toContain('folder_id is required');
    expect(findingOf(body, 'unknown_route')).toMatchObject({ requests: ['req_5'] });
    expect(findingOf(body, 'unknown_query_parameter')).toMatchObject({
      operation_id: 'invoicing_get_invoices',
      requests: ['req_6'],
    });
    expect(findingOf(body, 'unknown_query_parameter')?.detail).toContain('does not take updated_since');
    expect(findingOf(body, 'sandbox_only')?.detail).toContain('POST /__sandbox/clock');
    expect(findingOf(body, 'sandbox_only')?.detail).toContain(s.ids.sandbox.clientId);
    expect(body.findings.filter((f: Finding) => f.kind === 'sandbox_only')).toHaveLength(1);
  });

  it('names bodies the published schema does not allow that the sandbox accepted', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const accounting = s.ids.verticalConsumers.ACCOUNTING as string;
    // Full dates where the document has months (YYYYMM, six characters): taken here, as the SDK's
    // own test sends them; the software behind a connection may not.
    const res = await call(s.app, 'POST', `/consumers/${accounting}/accounting/chart-of-accounts/balance`, {
      token,
      body: { accounts: ['7'], start: '2025-01-01', end: '2025-12-31' },
    });
    expect(res.status, res.text).toBe(200);
    const months = await call(
      s.app,
      'POST',
      `/consumers/${accounting}/accounting/chart-of-accounts/balance`,
      {
        token,
        body: { accounts: ['7'], start: '202501', end: '202512' },
      },
    );
    expect(months.status).toBe(200);
    const body = await report(s);
    const accepted = body.findings.filter((f: Finding) => f.kind === 'accepted_only_here');
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ count: 1, requests: ['req_2'] });
    expect(accepted[0].detail).toContain('end: 10 characters where the schema allows 6 at most');
  });

  it('takes the routes the official clients call beyond the published document as the service does', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const invoicing = s.ids.verticalConsumers.INVOICING as string;
    const connections = await call(s.app, 'GET', `/consumers/${invoicing}/connections`, { token });
    const connection = connections.body[0].connectionid as string;
    // Not in the published document, answered by the service: the official SDK reads a connection so.
    const one = await call(s.app, 'GET', `/consumers/${invoicing}/connections/${connection}`, { token });
    expect(one.status).toBe(200);
    const body = await report(s);
    expect(kinds(body)).not.toContain('sandbox_only');
    expect(kinds(body)).not.toContain('unknown_route');
  });

  it('names a whole list pulled again and again without updated_after, and writes without the reads they need', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const invoicing = s.ids.verticalConsumers.INVOICING as string;
    // The whole list of invoices (two pages), three times, with no updated_after.
    for (let i = 0; i < 3; i += 1) {
      for (const page of [1, 2]) {
        const res = await call(
          s.app,
          'GET',
          `/consumers/${invoicing}/invoicing/invoices?page=${page}&size=100`,
          {
            token,
          },
        );
        expect(res.status).toBe(200);
      }
    }
    const contact = await call(s.app, 'POST', `/consumers/${invoicing}/invoicing/contacts`, {
      token,
      headers: { 'x-chift-client-requestid': 'c-1' },
      body: { company_name: 'Lone SA' },
    });
    expect(contact.status).toBe(200);
    const invoice = await call(s.app, 'POST', `/consumers/${invoicing}/invoicing/invoices`, {
      token,
      headers: { 'x-chift-client-requestid': 'i-1' },
      body: {
        invoice_type: 'customer_invoice',
        status: 'draft',
        currency: 'EUR',
        invoice_date: '2026-01-15',
        untaxed_amount: 0,
        tax_amount: 0,
        total: 0,
        partner_id: contact.body.id,
        lines: [],
      },
    });
    expect(invoice.status, invoice.text).toBe(200);
    const body = await report(s);
    expect(findingOf(body, 'repeated_full_pull')).toMatchObject({
      count: 3,
      operation_id: 'invoicing_get_invoices',
      requests: ['req_2', 'req_4', 'req_6'],
    });
    expect(kinds(body)).not.toContain('partial_list_read');
    expect(findingOf(body, 'coverage_gap')?.detail).toContain(
      'never invoicing_get_taxes nor invoicing_get_products',
    );
    expect(kinds(body)).not.toContain('write_without_request_id');
    expect(body.coverage[0]).toMatchObject({ consumer_id: invoicing, integration_id: 7010 });
  });

  it('is about one consumer when asked, refuses an unknown fail_on, and needs the journal', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const pos = s.ids.verticalConsumers.POS as string;
    const invoicing = s.ids.verticalConsumers.INVOICING as string;
    await call(s.app, 'GET', `/consumers/${pos}/pos/orders?page=1&size=5`, { token });
    await call(s.app, 'GET', `/consumers/${invoicing}/invoicing/invoices?page=1&size=5`, { token });
    const one = await report(s, `?consumer_id=${pos}`);
    expect(one.consumer_id).toBe(pos);
    expect(one.findings.every((f: { consumer_id: string }) => f.consumer_id === pos)).toBe(true);
    expect(one.findings.length).toBe(1);
    const connection = one.findings[0].connection_id as string;
    const byConnection = await report(s, `?connection_id=${connection}`);
    expect(byConnection).toMatchObject({ connection_id: connection, consumer_id: null });
    expect(byConnection.findings.map((f: { requests: string[] }) => f.requests)).toEqual([['req_2']]);
    const refused = await call(s.app, 'GET', '/__sandbox/report?fail_on=error,sloppiness');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('fail_on names what the readiness report does not know: sloppiness');
    const none = sandbox({ requestJournalSize: 0 });
    const res = await call(none.app, 'GET', '/__sandbox/report');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('--request-journal 0');
  });
});

describe('the kinds of finding', () => {
  it('each has its section in docs/readiness.md, which its docs link opens on the served guide', async () => {
    const { readFileSync } = await import('node:fs');
    const { FINDING_KINDS, docsOf } = await import('../../src/control/report/index.js');
    const doc = readFileSync(new URL('../../docs/readiness.md', import.meta.url), 'utf8');
    const served = await (await sandbox().app.request('/guides/readiness')).text();
    for (const kind of Object.keys(FINDING_KINDS) as (keyof typeof FINDING_KINDS)[]) {
      expect(docsOf(kind)).toBe(`/guides/readiness#${kind}`);
      expect(served, kind).toContain(`<h4 id="${kind}">`);
      const section = new RegExp(`^#### ${kind}\\n\\n(Error|Warning|Note)\\.`, 'm').exec(doc);
      expect(section?.[1], kind).toBe(
        { error: 'Error', warning: 'Warning', info: 'Note' }[FINDING_KINDS[kind].severity],
      );
    }
  });
});
