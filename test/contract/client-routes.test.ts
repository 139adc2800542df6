import { describe, expect, it } from 'vitest';
import { CLIENT_ROUTE_MARKER } from '../../src/lib/client-routes.js';
import { ApiError, errors, messages, serviceError } from '../../src/lib/errors.js';
import { connectorSlug } from '../../src/modules/custom/custom-routes.js';
import { automationDirectory } from '../../src/modules/syncs/automation.seed.js';
import { type ApiName, type Integration, loadCatalogue } from '../../src/platform/catalogue.js';
import {
  type CallOptions,
  type CallResult,
  call,
  everyOperationDocument,
  expectError,
  expectValidation,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../helpers.js';
import {
  all as allAccounting,
  forConsumer,
  invoiceBody,
  line,
  referenceOf,
  TINY_PDF,
} from '../modules/accounting/helpers.js';
import { all, consumerWith, expectFailure, forVertical } from '../modules/verticals/finance-helpers.js';

/**
 * The routes the official clients call that the service's published document leaves out (see
 * src/lib/client-routes.ts), through HTTP: each test builds its own sandbox.
 */

const MISSING = '00000000-0000-4000-8000-000000000000';
const auto = automationDirectory(SEED);

interface World extends TestSandbox {
  token: string;
  api(method: string, path: string, options?: CallOptions): Promise<CallResult>;
}

async function world(): Promise<World> {
  const s = sandbox();
  const token = await sandboxToken(s);
  return {
    ...s,
    token,
    api: (method, path, options = {}) => call(s.app, method, path, { token, ...options }),
  };
}

/** A token of another account, and one of the production environment of the same account. */
async function strangers(w: World) {
  return {
    other: await tokenFor(w.app, w.ids.otherAccount),
    production: await tokenFor(w.app, { accountId: w.ids.accountId, ...w.ids.production }),
  };
}

/** An MCP token bound to a consumer, carrying the given scopes (none given: every scope of the key). */
async function mcpToken(w: World, consumerId: string, scopes?: string[]): Promise<string> {
  const res = await w.api('POST', '/mcp-token', {
    body: { accountId: w.ids.accountId, ...w.ids.sandbox, consumerId, ...(scopes ? { scopes } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

const catalogue = loadCatalogue();

/** The first active integration of a One API that passes `keep` (the catalogue decides which). */
function integrationOf(api: ApiName, keep: (i: Integration) => boolean = () => true): Integration {
  const found = catalogue.integrations.find((i) => i.api === api && i.status === 'active' && keep(i));
  if (!found) throw new Error(`no active ${api} integration fits`);
  return found;
}

const supports = (operation: string) => (i: Integration) =>
  i.coverage.find((entry) => entry.operation === operation)?.status === 'SUPPORTED';

/** A new consumer with an active connection of the integration, its mandatory credentials filled in. */
async function connected(w: World, integration: Integration): Promise<string> {
  const credentials = Object.fromEntries(
    integration.credentials
      .filter((c) => c.visibility !== 'connector' && !c.optional)
      .map((c) => [c.name, `${c.name}-value`]),
  );
  return (await consumerWith(w, w.token, integration.integrationid, credentials)).consumerId;
}

/** The name of the integration behind the consumer's first connection. */
async function connectorOf(w: World, consumerId: string): Promise<string> {
  return (await w.api('GET', `/consumers/${consumerId}/connections`)).body[0].integration as string;
}

describe('the OpenAPI document', () => {
  it('lists every client route under its tag, marked, with the scopes of its neighbours', async () => {
    const w = await world();
    const doc = await everyOperationDocument(w.app);
    const expected: [string, string, string, string, string[] | null][] = [
      [
        'get',
        '/consumers/{consumer_id}/connections/{connectionid}',
        'Connections',
        'connections_get_connection',
        ['connections', 'connections.read'],
      ],
      ['delete', '/syncs/{syncid}/flows/{flowid}', 'Syncs', 'syncs_delete_flow', null],
      ['get', '/consumers/{consumer_id}/logs', 'Syncs', 'consumers_get_logs', null],
      [
        'get',
        '/consumers/{consumer_id}/accounting/chart-of-accounts/{number}',
        'Accounting',
        'accounting_get_ledger_account',
        ['accounting', 'accounting.read', 'accounting.ledger_accounts', 'accounting.ledger_accounts.read'],
      ],
      [
        'get',
        '/consumers/{consumer_id}/accounting/journals/{journal_id}',
        'Accounting',
        'accounting_get_journal',
        ['accounting', 'accounting.read', 'accounting.journals', 'accounting.journals.read'],
      ],
      [
        'post',
        '/consumers/{consumer_id}/accounting/attachments',
        'Accounting',
        'accounting_add_document_attachment',
        ['accounting', 'accounting.attachments'],
      ],
      [
        'post',
        '/consumers/{consumer_id}/accounting/batch/invoices',
        'Accounting',
        'accounting_create_invoices_batch',
        ['accounting', 'accounting.invoices'],
      ],
      [
        'get',
        '/consumers/{consumer_id}/commerce/variants',
        'eCommerce',
        'ecommerce_get_variants',
        ['commerce', 'commerce.read', 'commerce.products_variants', 'commerce.products_variants.read'],
      ],
      [
        'post',
        '/consumers/{consumer_id}/invoicing/opportunities',
        'Invoicing',
        'invoicing_create_opportunity',
        ['invoicing', 'invoicing.opportunities'],
      ],
      [
        'delete',
        '/consumers/{consumer_id}/invoicing/payments/{payment_id}',
        'Invoicing',
        'invoicing_delete_payment',
        ['invoicing', 'invoicing.payments'],
      ],
      [
        'get',
        '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
        'Custom',
        'custom_connector_get',
        null,
      ],
      [
        'delete',
        '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
        'Custom',
        'custom_connector_delete',
        null,
      ],
      [
        'get',
        '/consumers/{consumer_id}/accounting/custom/{custom_path}',
        'Accounting',
        'accounting_custom_get',
        ['accounting', 'accounting.read'],
      ],
      [
        'delete',
        '/consumers/{consumer_id}/accounting/custom/{custom_path}',
        'Accounting',
        'accounting_custom_delete',
        ['accounting'],
      ],
      [
        'patch',
        '/consumers/{consumer_id}/invoicing/custom/{custom_path}',
        'Invoicing',
        'invoicing_custom_patch',
        ['invoicing'],
      ],
      [
        'post',
        '/consumers/{consumer_id}/banking/{custom_path}',
        'Banking',
        'banking_custom_post',
        ['banking'],
      ],
    ];
    for (const [method, path, tag, operationId, scopes] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.operationId).toBe(operationId);
      expect(op.tags).toContain(tag);
      expect(op[CLIENT_ROUTE_MARKER]).toBe(true);
      expect(op.description).toContain('official clients call this route');
      const mcp = (op.security as Record<string, string[]>[]).find((entry) => 'mcp_auth' in entry);
      expect(mcp?.mcp_auth ?? null).toEqual(scopes);
    }
  });
});

describe('GET /consumers/{consumer_id}/connections/{connectionid}', () => {
  it('answers each connection as the list shows it, active or inactive', async () => {
    const w = await world();
    for (const consumerId of [w.ids.verticalConsumers.ACCOUNTING as string, w.ids.pendingConsumerId]) {
      const list = await w.api('GET', `/consumers/${consumerId}/connections`);
      expect(list.body.length).toBeGreaterThan(0);
      for (const item of list.body) {
        const one = await w.api(
          'GET',
          `/consumers/${consumerId}/connections/${item.connectionid.toUpperCase()}`,
        );
        expect(one.status, one.text).toBe(200);
        expect(one.body).toEqual(item);
      }
    }
    const pending = await w.api('GET', `/consumers/${w.ids.pendingConsumerId}/connections`);
    expect(pending.body[0].status).toBe('inactive');
  });

  it('refuses a malformed id, a missing connection, the connection of another consumer, and strangers', async () => {
    const w = await world();
    const accounting = w.ids.verticalConsumers.ACCOUNTING as string;
    const pos = w.ids.verticalConsumers.POS as string;
    const posConnection = (await w.api('GET', `/consumers/${pos}/connections`)).body[0].connectionid;
    const path = (consumer: string, connection: string) => `/consumers/${consumer}/connections/${connection}`;
    expectError(await w.api('GET', path(accounting, 'not-a-uuid')), errors.connectionIdInvalid());
    expectError(await w.api('GET', path(accounting, MISSING)), errors.connectionNotFound());
    expectError(await w.api('GET', path(accounting, posConnection)), errors.connectionNotFound());
    expectError(await w.api('GET', path(MISSING, posConnection)), errors.consumerNotFound());
    const { other, production } = await strangers(w);
    expectError(await w.api('GET', path(pos, posConnection), { token: other }), errors.consumerNotFound());
    expectError(
      await w.api('GET', path(pos, posConnection), { token: production }),
      errors.wrongEnvironment(),
    );
  });

  it('takes an MCP token of the consumer with a connections scope, and no other', async () => {
    const w = await world();
    const pos = w.ids.verticalConsumers.POS as string;
    const connection = (await w.api('GET', `/consumers/${pos}/connections`)).body[0].connectionid;
    const path = `/consumers/${pos}/connections/${connection}`;
    const allowed = await mcpToken(w, pos, ['connections.read']);
    expect((await w.api('GET', path, { token: allowed })).status).toBe(200);
    const narrow = await mcpToken(w, pos, ['consumers.read']);
    const refused = await w.api('GET', path, { token: narrow });
    expect(refused.status).toBe(401);
    expect(refused.body.error_code).toBe('ERROR_SERVICE_AUTHENTICATION_ERROR');
  });
});

describe('DELETE /syncs/{syncid}/flows/{flowid}', () => {
  it('removes a flow added by the client: the sync no longer lists it', async () => {
    const w = await world();
    const created = await w.api('POST', `/syncs/${auto.syncId}/flows`, {
      body: {
        name: 'Short-lived',
        execution: { type: 'code', data: { code: 'x' } },
        triggers: [{ id: 'trigger-1', type: 'event' }],
      },
    });
    expect(created.status, created.text).toBe(200);
    const flowId = created.body.id as string;
    const removed = await w.api('DELETE', `/syncs/${auto.syncId}/flows/${flowId}`);
    expect(removed.status, removed.text).toBe(204);
    expect(removed.text).toBe('');
    const sync = await w.api('GET', `/syncs/${auto.syncId}`);
    expect(sync.body.flows.map((f: { id: string }) => f.id)).not.toContain(flowId);
    expectError(await w.api('DELETE', `/syncs/${auto.syncId}/flows/${flowId}`), errors.flowNotFound());
  });

  it('removes a seeded flow and every consumer setup of it; its executions stay as history', async () => {
    const w = await world();
    const state = w.app.services.store.world;
    const flowId = auto.invoicesFlowId;
    const enabled = () => Object.values(state.flow_consumers).filter((f) => f.flowid === flowId);
    const runs = Object.values(state.executions).filter((e) => e.flowid === flowId).length;
    expect(enabled().length).toBeGreaterThan(0);
    expect((await w.api('DELETE', `/syncs/${auto.syncId}/flows/${flowId}`)).status).toBe(204);
    expect(state.flows[flowId]).toBeUndefined();
    expect(enabled()).toEqual([]);
    expect(Object.values(state.executions).filter((e) => e.flowid === flowId).length).toBe(runs);
    // The flow's other neighbours are untouched.
    expect(state.flows[auto.paymentsFlowId]).toBeDefined();
  });

  it('refuses a missing sync or flow, another account and MCP tokens', async () => {
    const w = await world();
    expectError(
      await w.api('DELETE', `/syncs/${MISSING}/flows/${auto.invoicesFlowId}`),
      errors.syncNotFound(),
    );
    expectError(await w.api('DELETE', `/syncs/${auto.syncId}/flows/${MISSING}`), errors.flowNotFound());
    // A flow of another sync is not a flow of this one.
    expectError(
      await w.api('DELETE', `/syncs/${auto.syncId}/flows/${auto.posSalesFlowId}`),
      errors.flowNotFound(),
    );
    expectError(
      await w.api('DELETE', `/syncs/${auto.otherAccountSyncId}/flows/${auto.otherAccountFlowId}`),
      errors.syncNotFound(),
    );
    const { production } = await strangers(w);
    expectError(
      await w.api('DELETE', `/syncs/${auto.syncId}/flows/${auto.invoicesFlowId}`, { token: production }),
      errors.wrongEnvironment(),
    );
    const mcp = await mcpToken(w, w.ids.syncConsumerId);
    const refused = await w.api('DELETE', `/syncs/${auto.syncId}/flows/${auto.invoicesFlowId}`, {
      token: mcp,
    });
    expect(refused.status).toBe(401);
    expect(w.app.services.store.world.flows[auto.invoicesFlowId]).toBeDefined();
  });
});

describe('GET /consumers/{consumer_id}/logs', () => {
  it('answers the lines posted for the consumer, newest first, in the shape the clients parse', async () => {
    const w = await world();
    const consumer = w.ids.verticalConsumers.ACCOUNTING as string;
    const other = w.ids.verticalConsumers.POS as string;
    expect((await w.api('GET', `/consumers/${consumer}/logs`)).body).toEqual([]);
    const post = (id: string, lines: unknown[]) => w.api('POST', `/consumers/${id}/logs`, { body: lines });
    expect((await post(consumer, [{ type: 'INFO', message: 'first', context: { step: 1 } }])).status).toBe(
      200,
    );
    expect((await post(other, [{ type: 'ERROR', message: 'elsewhere' }])).status).toBe(200);
    await w.api('POST', '/__sandbox/clock', { body: { advance_seconds: 60 } });
    expect((await post(consumer, [{ type: 'WARNING', message: 'second' }])).status).toBe(200);
    const res = await w.api('GET', `/consumers/${consumer}/logs`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((l: { message: string }) => l.message)).toEqual(['second', 'first']);
    expect(res.body[1]).toEqual({
      logid: expect.any(String),
      type: 'INFO',
      message: 'first',
      when: '2026-01-15T09:00:00.000Z',
      context: { step: 1 },
    });
    expect(res.body[0]).toMatchObject({ type: 'WARNING', when: '2026-01-15T09:01:00.000Z', context: null });
  });

  it('refuses a missing consumer, another account and MCP tokens', async () => {
    const w = await world();
    const consumer = w.ids.verticalConsumers.ACCOUNTING as string;
    expectError(await w.api('GET', `/consumers/${MISSING}/logs`), errors.consumerNotFound());
    const { other } = await strangers(w);
    expectError(
      await w.api('GET', `/consumers/${consumer}/logs`, { token: other }),
      errors.consumerNotFound(),
    );
    const mcp = await mcpToken(w, consumer);
    expect((await w.api('GET', `/consumers/${consumer}/logs`, { token: mcp })).status).toBe(401);
  });
});

describe('GET .../accounting/chart-of-accounts/{number} and .../accounting/journals/{journal_id}', () => {
  it('answer one account and one journal as their lists show them', async () => {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    const accounts = await allAccounting(a, '/chart-of-accounts');
    for (const account of accounts.slice(0, 5)) {
      const one = await a.get(`/chart-of-accounts/${account.number}`);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual(account);
    }
    const journals = await allAccounting(a, '/journals');
    for (const journal of journals) {
      const one = await a.get(`/journals/${journal.id}`);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual(journal);
    }
  });

  it('sees accounts and journals created through the API', async () => {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    const account = await a.post('/accounts', { number: '612345', name: 'Client routes' });
    expect(account.status, account.text).toBe(200);
    expect((await a.get('/chart-of-accounts/612345')).body).toEqual(account.body);
  });

  it('answer 404 with the accounting error code for what the folder does not hold', async () => {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    expectError(await a.get('/chart-of-accounts/999999'), serviceError('accountNumberNotFound'));
    expectError(await a.get('/chart-of-accounts/constructor'), serviceError('accountNumberNotFound'));
    expectError(await a.get('/journals/no-such-journal'), serviceError('journalNotFound'));
  });

  it('refuse a consumer without accounting, a missing folder choice, and strangers', async () => {
    const w = await world();
    const pos = forConsumer(w, w.token, w.ids.verticalConsumers.POS as string);
    expectError(await pos.get('/journals/x'), serviceError('noActiveConnection'));
    const multi = forConsumer(w, w.token, w.ids.multiFolderConsumerId);
    expectFailure(await multi.get('/chart-of-accounts/700000'), 'folder_id is required');
    const { other } = await strangers(w);
    const a = forConsumer(w, other, w.ids.verticalConsumers.ACCOUNTING as string);
    expectError(await a.get('/journals/x'), errors.consumerNotFound());
  });
});

describe('POST .../accounting/attachments', () => {
  async function setUp() {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    const ref = await referenceOf(a);
    const booked = await a.post(
      '/invoices',
      invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 1, unit_price: 100, vat: 'V21' })]),
    );
    expect(booked.status, booked.text).toBe(200);
    return { w, a, invoiceId: booked.body.id as string };
  }

  it('attaches a PDF to an invoice named in the body, then replaces it only when told to', async () => {
    const { a, invoiceId } = await setUp();
    const first = await a.post('/attachments', { base64_string: TINY_PDF, invoice_id: invoiceId });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), base64_string: TINY_PDF });
    const listed = await a.get(`/attachments?type=invoice&document_id=${invoiceId}`);
    expect(listed.body.items).toEqual([first.body]);
    const again = await a.post('/attachments', {
      base64_string: TINY_PDF,
      type: 'invoice',
      document_id: invoiceId,
    });
    expectError(again, serviceError('attachmentAlreadyExists'));
    expect(again.body.detail).toMatch(/already has an attachment/);
    const replaced = await a.post(
      `/attachments?type=invoice&document_id=${invoiceId}&overwrite_existing=true`,
      {
        base64_string: TINY_PDF,
        name: 'replacement',
      },
    );
    expect(replaced.status, replaced.text).toBe(200);
    const after = await a.get(`/attachments?type=invoice&document_id=${invoiceId}`);
    expect(after.body.items).toEqual([replaced.body]);
  });

  it('adds PDFs to a journal entry', async () => {
    const { a } = await setUp();
    const entry = (await allAccounting(a, '/journal/entries?unposted_allowed=true'))[0];
    const before = (await a.get(`/attachments?type=entry&document_id=${entry.id}`)).body.total;
    for (const name of ['one', 'two']) {
      const res = await a.post('/attachments', {
        base64_string: TINY_PDF,
        name,
        type: 'entry',
        document_id: entry.id,
      });
      expect(res.status, res.text).toBe(200);
    }
    expect((await a.get(`/attachments?type=entry&document_id=${entry.id}`)).body.total).toBe(before + 2);
  });

  it('refuses what is not a PDF, an unnamed or missing document, a body without the PDF', async () => {
    const { w, a, invoiceId } = await setUp();
    const ledgers = JSON.stringify(w.app.services.store.world.accounting_ledgers);
    const notPdf = await a.post('/attachments', { base64_string: 'aGVsbG8=', invoice_id: invoiceId });
    expectError(notPdf, serviceError('invalidBase64'));
    expect(notPdf.body.detail).toMatch(/not a PDF/);
    expectFailure(await a.post('/attachments', { base64_string: TINY_PDF }), 'Name the document');
    expectError(
      await a.post('/attachments', { base64_string: TINY_PDF, invoice_id: MISSING }),
      serviceError('accountingInvoiceNotFound'),
    );
    expectError(
      await a.post('/attachments', { base64_string: TINY_PDF, type: 'entry', document_id: MISSING }),
      serviceError('entryNotFound'),
    );
    expectValidation(
      await a.post('/attachments', { invoice_id: invoiceId }),
      ['body', 'base64_string'],
      'missing',
    );
    expectValidation(
      await a.post('/attachments', { base64_string: TINY_PDF, type: 'order', document_id: invoiceId }),
      ['body', 'type'],
    );
    expect(JSON.stringify(w.app.services.store.world.accounting_ledgers)).toBe(ledgers);
  });
});

describe('POST .../accounting/batch/invoices', () => {
  async function setUp() {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    const ref = await referenceOf(a);
    const one = (price: number) =>
      invoiceBody(ref, 'customer_invoice', [line(ref, { quantity: 2, unit_price: price, vat: 'V21' })]);
    return { w, a, one };
  }

  it('books each invoice of a list, in order, as POST invoices does', async () => {
    const { a, one } = await setUp();
    const res = await a.post('/batch/invoices', [one(10), one(20)]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body.map((i: { untaxed_amount: number }) => i.untaxed_amount)).toEqual([20, 40]);
    for (const invoice of res.body) {
      const stored = await a.get(`/invoices/${invoice.id}?include_invoice_lines=true`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ id: invoice.id, invoice_number: invoice.invoice_number });
    }
    expect(res.body[0].invoice_number).not.toBe(res.body[1].invoice_number);
  });

  it('takes the list inside an object too, and an empty batch books nothing', async () => {
    const { a, one } = await setUp();
    const wrapped = await a.post('/batch/invoices', { invoices: [one(5)] });
    expect(wrapped.status, wrapped.text).toBe(200);
    expect(wrapped.body).toHaveLength(1);
    const empty = await a.post('/batch/invoices', []);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });

  it('refuses the whole batch for one bad invoice, naming it, and books nothing', async () => {
    const { w, a, one } = await setUp();
    const ledgers = JSON.stringify(w.app.services.store.world.accounting_ledgers);
    const bad = { ...one(30), total: 1 };
    const res = await a.post('/batch/invoices', [one(10), bad]);
    expectFailure(res, /^invoices\[1\]: /);
    expect(JSON.stringify(w.app.services.store.world.accounting_ledgers)).toBe(ledgers);
    const taken = one(10);
    const twice = await a.post('/batch/invoices', [
      { ...taken, invoice_number: 'BATCH-1' },
      { ...taken, invoice_number: 'BATCH-1' },
    ]);
    expectError(twice, serviceError('invoiceNumberAlreadyUsed'));
    expect(twice.body.detail).toMatch(/^invoices\[1\]: .*already used/);
    expect(JSON.stringify(w.app.services.store.world.accounting_ledgers)).toBe(ledgers);
  });

  it('reports validation errors at the invoice of the list, and refuses a body of another shape', async () => {
    const { a, one } = await setUp();
    const { currency: _currency, ...noCurrency } = one(10);
    expectValidation(
      await a.post('/batch/invoices', [one(10), noCurrency]),
      ['body', 1, 'currency'],
      'missing',
    );
    expectValidation(
      await a.post('/batch/invoices', { invoices: [noCurrency] }),
      ['body', 'invoices', 0, 'currency'],
      'missing',
    );
    expectValidation(await a.post('/batch/invoices', 'nothing'), ['body'], 'list_type');
  });
});

describe('GET .../commerce/variants', () => {
  it('lists the variants of every product, as GET variants/{id} answers each, by pages', async () => {
    const w = await world();
    const base = `/consumers/${w.ids.verticalConsumers.ECOMMERCE}/commerce`;
    const get = (path: string) => w.api('GET', `${base}${path}`);
    const products: { variants: { id: string; sku: string | null }[] }[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`/products?page=${page}&size=100`);
      products.push(...res.body.items);
      if (page * 100 >= res.body.total) break;
    }
    const ids = products.flatMap((p) => p.variants.map((variant) => variant.id));
    expect(ids.length).toBeGreaterThan(0);
    const first = await get('/variants?size=3');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ total: ids.length, page: 1, size: 3 });
    expect(first.body.items.map((x: { id: string }) => x.id)).toEqual(ids.slice(0, 3));
    for (const item of first.body.items) expect((await get(`/variants/${item.id}`)).body).toEqual(item);
    const sku = products.flatMap((p) => p.variants).find((variant) => variant.sku)?.sku as string;
    const bySku = await get(`/variants?sku=${encodeURIComponent(sku.toLowerCase())}`);
    expect(bySku.body.items.length).toBeGreaterThan(0);
    for (const item of bySku.body.items) expect(item.sku.toLowerCase()).toBe(sku.toLowerCase());
  });

  it('refuses a consumer without eCommerce, bad paging and strangers', async () => {
    const w = await world();
    expectError(
      await w.api('GET', `/consumers/${w.ids.verticalConsumers.POS}/commerce/variants`),
      serviceError('noActiveConnection'),
    );
    const path = `/consumers/${w.ids.verticalConsumers.ECOMMERCE}/commerce/variants`;
    expectValidation(await w.api('GET', `${path}?size=101`), ['query', 'size']);
    const { other } = await strangers(w);
    expectError(await w.api('GET', path, { token: other }), errors.consumerNotFound());
  });
});

describe('POST .../invoicing/opportunities', () => {
  it('creates an opportunity that the opportunity routes then show', async () => {
    const w = await world();
    const consumerId = await connected(
      w,
      integrationOf('Invoicing', supports('invoicing_get_opportunities')),
    );
    const v = forVertical(w, w.token, consumerId, 'invoicing');
    const contact = (await all(v, '/contacts'))[0];
    const minimal = await v.post('/opportunities', { name: 'Client routes' });
    expect(minimal.status, minimal.text).toBe(200);
    expect(minimal.body).toMatchObject({
      name: 'Client routes',
      total: 0,
      probability: 0,
      status: 'open',
      partner_id: null,
      created_date: '2026-01-15',
      is_won: null,
      source_ref: { model: 'opportunity' },
    });
    expect((await v.get(`/opportunities/${minimal.body.id}`)).body).toEqual(minimal.body);
    const won = await v.post('/opportunities', {
      name: 'Big deal',
      total: 1234.5,
      status: 'won',
      partner_id: contact.id,
      owner_ref: { id: 'user-9', name: 'Owner' },
    });
    expect(won.status, won.text).toBe(200);
    expect(won.body).toMatchObject({ probability: 100, is_won: true, partner_id: contact.id, total: 1234.5 });
    expect(won.body.owner_ref).toEqual({ id: 'user-9', model: null, name: 'Owner' });
    const listed = (await all(v, '/opportunities')).map((o) => o.id);
    expect(listed).toEqual(expect.arrayContaining([minimal.body.id, won.body.id]));
  });

  it('refuses an unknown partner, a bad percentage, a nameless one, nothing written; takes any currency and total', async () => {
    const w = await world();
    const consumerId = await connected(
      w,
      integrationOf('Invoicing', supports('invoicing_get_opportunities')),
    );
    const v = forVertical(w, w.token, consumerId, 'invoicing');
    await v.get('/opportunities');
    const before = JSON.stringify(w.app.services.store.world.invoicing_datasets);
    expectFailure(await v.post('/opportunities', { name: 'x', partner_id: 'nobody' }), "partner_id 'nobody'");
    expectFailure(await v.post('/opportunities', { name: 'x', probability: 150 }), 'probability 150');
    expectValidation(await v.post('/opportunities', { total: 3 }), ['body', 'name'], 'missing');
    expectValidation(await v.post('/opportunities', { name: 'x', status: 'maybe' }), ['body', 'status']);
    expect(JSON.stringify(w.app.services.store.world.invoicing_datasets)).toBe(before);
    const taken = await v.post('/opportunities', {
      name: 'x',
      currency: 'euro',
      total: -1,
      created_date: '2026-01-10',
      end_date: '2026-01-01',
    });
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toMatchObject({ currency: 'euro', total: -1, end_date: '2026-01-01' });
  });

  it('is refused where the integration does not implement opportunities', async () => {
    const w = await world();
    const unsupported = integrationOf('Invoicing', (i) => !supports('invoicing_get_opportunities')(i));
    const consumerId = await connected(w, unsupported);
    const v = forVertical(w, w.token, consumerId, 'invoicing');
    expectFailure(await v.post('/opportunities', { name: 'x' }), 'invoicing_get_opportunities');
    expectError(
      await w.api('POST', `/consumers/${w.ids.verticalConsumers.POS}/invoicing/opportunities`, {
        body: { name: 'x' },
      }),
      serviceError('noActiveConnection'),
    );
  });
});

describe('DELETE .../invoicing/payments/{payment_id}', () => {
  it('deletes a payment: its invoice is open again by its amount', async () => {
    const w = await world();
    const v = forVertical(w, w.token, w.ids.verticalConsumers.INVOICING as string, 'invoicing');
    const payment = (await all(v, '/payments')).find((p) => p.status === 'completed' && p.invoice_id);
    expect(payment).toBeDefined();
    const before = (await v.get(`/invoices/${payment.invoice_id}`)).body;
    const res = await w.api('DELETE', `${v.base}/payments/${payment.id}`);
    expect(res.status, res.text).toBe(204);
    expect((await all(v, '/payments')).map((p) => p.id)).not.toContain(payment.id);
    const after = (await v.get(`/invoices/${payment.invoice_id}`)).body;
    expect(Math.round(after.outstanding_amount * 100)).toBe(
      Math.round((before.outstanding_amount + payment.amount) * 100),
    );
    expect(after.status).toBe('posted');
    expectFailure(await w.api('DELETE', `${v.base}/payments/${payment.id}`), 'does not exist');
  });

  it('refuses an unknown payment, a consumer without invoicing, strangers and read-only MCP tokens', async () => {
    const w = await world();
    const consumer = w.ids.verticalConsumers.INVOICING as string;
    const payment = (await all(forVertical(w, w.token, consumer, 'invoicing'), '/payments'))[0];
    const path = `/consumers/${consumer}/invoicing/payments/${payment.id}`;
    expectFailure(
      await w.api('DELETE', `/consumers/${consumer}/invoicing/payments/constructor`),
      'does not exist',
    );
    expectError(
      await w.api('DELETE', `/consumers/${w.ids.verticalConsumers.POS}/invoicing/payments/${payment.id}`),
      serviceError('noActiveConnection'),
    );
    const { other } = await strangers(w);
    expectError(await w.api('DELETE', path, { token: other }), errors.consumerNotFound());
    const reader = await mcpToken(w, consumer, ['invoicing.payments.read']);
    expect((await w.api('DELETE', path, { token: reader })).status).toBe(401);
    const writer = await mcpToken(w, consumer, ['invoicing.payments']);
    expect((await w.api('DELETE', path, { token: writer })).status).toBe(204);
  });
});

describe('custom routes of a vertical', () => {
  // The service hands a custom route to the connector's own API, whatever its path and method: the
  // sandbox serves every custom path as a collection of the connection's records (once it refused
  // every path but the vertical's collections, and every write).
  it('a custom path of the accounting connection is a collection of its own: a page of records, or one', async () => {
    const w = await world();
    const a = forConsumer(w, w.token, w.ids.verticalConsumers.ACCOUNTING as string);
    // A path named after a unified collection is the connector's too: it starts empty.
    expect((await a.get('/custom/journals')).body).toEqual({ items: [], total: 0, page: 1, size: 50 });
    const created = [];
    for (const code of ['A', 'B', 'C']) {
      const res = await a.post('/custom/journals', { code });
      expect(res.status, res.text).toBe(200);
      created.push(res.body);
    }
    const page = await a.get('/custom/journals?size=2');
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, size: 2, items: created.slice(0, 2) });
    const one = await a.get(`/custom/journals/${created[0].id}`);
    expect(one.body).toEqual({ code: 'A', id: created[0].id });
    expectError(
      await a.get('/custom/journals/nothing-here'),
      new ApiError(404, messages.notFound, "'journals' holds no record 'nothing-here'"),
    );
    expectValidation(await a.get('/custom/journals?size=0'), ['query', 'size']);
  });

  it('takes any path and every method: create, read, update, delete', async () => {
    const w = await world();
    const consumer = w.ids.verticalConsumers.ACCOUNTING as string;
    const a = forConsumer(w, w.token, consumer);
    const move = await a.post('/custom/erp/moves', { ref: 'M1' });
    expect(move.status, move.text).toBe(200);
    expect((await a.get('/custom/erp/moves')).body.items).toEqual([move.body]);
    expect((await a.get('/custom/constructor')).body.total).toBe(0);
    expect((await a.get('/custom/attachments')).body.total).toBe(0);
    const patched = await a.patch(`/custom/erp/moves/${move.body.id}`, { ref: 'M2' });
    expect(patched.body).toEqual({ ref: 'M2', id: move.body.id });
    const removed = await w.api('DELETE', `${a.base}/custom/erp/moves/${move.body.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect((await a.get(`/custom/erp/moves/${move.body.id}`)).status).toBe(404);
    expect((await w.api('DELETE', `${a.base}/custom/erp/moves/${move.body.id}`)).status).toBe(404);
  });

  it('invoicing custom paths take writes too', async () => {
    const w = await world();
    const v = forVertical(w, w.token, w.ids.verticalConsumers.INVOICING as string, 'invoicing');
    const contact = await v.post('/custom/contacts', { name: 'x' });
    expect(contact.status, contact.text).toBe(200);
    expect((await v.get(`/custom/contacts/${contact.body.id}`)).body).toEqual(contact.body);
    expect((await v.get('/custom/contacts')).body.total).toBe(1);
    const renamed = await v.patch(`/custom/contacts/${contact.body.id}`, { name: 'y' });
    expect(renamed.body).toEqual({ ...contact.body, name: 'y' });
    // The unified contacts are the vertical's, apart.
    expect((await all(v, '/contacts')).some((c) => c.id === contact.body.id)).toBe(false);
  });

  it('keeps the banking custom posts, wherever below banking/ they go; the reads stay', async () => {
    const w = await world();
    const v = forVertical(w, w.token, w.ids.verticalConsumers.BANKING as string, 'banking');
    const refresh = await v.post('/custom/refresh/accounts', {});
    expect(refresh.status, refresh.text).toBe(200);
    expect(Object.keys(refresh.body)).toEqual(['id']);
    const synchronized = await v.post('/synchronize', { all: true });
    expect(synchronized.body).toMatchObject({ all: true });
    expect((await v.get('/accounts')).status).toBe(200);
    expect((await w.api('GET', `${v.base}/custom/refresh`)).status).toBe(404);
  });

  it('refuses a consumer without the vertical, strangers, and MCP tokens without the vertical scope', async () => {
    const w = await world();
    const pos = w.ids.verticalConsumers.POS as string;
    expectError(
      await w.api('GET', `/consumers/${pos}/accounting/custom/journals`),
      serviceError('noActiveConnection'),
    );
    expectError(
      await w.api('POST', `/consumers/${pos}/banking/custom/x`, { body: {} }),
      serviceError('noActiveConnection'),
    );
    const consumer = w.ids.verticalConsumers.ACCOUNTING as string;
    const { other } = await strangers(w);
    expectError(
      await w.api('GET', `/consumers/${consumer}/accounting/custom/journals`, { token: other }),
      errors.consumerNotFound(),
    );
    const reader = await mcpToken(w, consumer, ['accounting.read']);
    expect(
      (await w.api('GET', `/consumers/${consumer}/accounting/custom/journals`, { token: reader })).status,
    ).toBe(200);
    const refused = await w.api('POST', `/consumers/${consumer}/accounting/custom/journals`, {
      token: reader,
      body: {},
    });
    expect(refused.status).toBe(401);
  });
});

describe('custom routes of a custom connector', () => {
  it('finds the connection by the connector name or id, and serves its paths as collections of records', async () => {
    const w = await world();
    const custom = integrationOf('Custom');
    const consumerId = await connected(w, custom);
    const base = `/consumers/${consumerId}/custom`;
    const slug = connectorSlug(custom.name);
    const created = await w.api('POST', `${base}/${slug}/contacts`, { body: { name: 'x' } });
    expect(created.status, created.text).toBe(200);
    for (const connector of [slug, slug.toUpperCase(), String(custom.integrationid)]) {
      expect((await w.api('GET', `${base}/${connector}/contacts`)).body.items).toEqual([created.body]);
      expect((await w.api('GET', `${base}/${connector}/products`)).body.total).toBe(0);
    }
    const patched = await w.api('PATCH', `${base}/${slug}/contacts/${created.body.id}`, {
      body: { name: 'y' },
    });
    expect(patched.body).toEqual({ name: 'y', id: created.body.id });
    expect((await w.api('PATCH', `${base}/${slug}/contacts/42`, { body: { name: 'x' } })).status).toBe(404);
    expect((await w.api('DELETE', `${base}/${slug}/contacts/${created.body.id}`)).status).toBe(200);
    expect((await w.api('DELETE', `${base}/${slug}/contacts/42`)).status).toBe(404);
  });

  it('refuses a connector the consumer is not connected to, strangers and MCP tokens', async () => {
    const w = await world();
    const custom = integrationOf('Custom');
    const slug = connectorSlug(custom.name);
    const consumerId = await connected(w, custom);
    expectError(
      await w.api('GET', `/consumers/${consumerId}/custom/regate/products`),
      serviceError('noActiveConnection'),
    );
    // An accounting connector is not a custom connector.
    const accounting = w.ids.verticalConsumers.ACCOUNTING as string;
    const accountingConnector = connectorSlug(await connectorOf(w, accounting));
    expectError(
      await w.api('GET', `/consumers/${accounting}/custom/${accountingConnector}/products`),
      serviceError('noActiveConnection'),
    );
    expectError(
      await w.api('GET', `/consumers/${MISSING}/custom/${slug}/products`),
      errors.consumerNotFound(),
    );
    const { other } = await strangers(w);
    expectError(
      await w.api('GET', `/consumers/${consumerId}/custom/${slug}/products`, { token: other }),
      errors.consumerNotFound(),
    );
    const mcp = await mcpToken(w, consumerId);
    expect(
      (await w.api('GET', `/consumers/${consumerId}/custom/${slug}/products`, { token: mcp })).status,
    ).toBe(401);
  });
});
