import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DriftEntry, DriftFileError, readDriftFile, refusalField } from '../../src/lib/drift-file.js';
import { changeOf, DriftFollowing } from '../../src/platform/drift.js';
import { type CallResult, call, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';

/**
 * A sandbox served with a drift file (`createApp({ drift })`): each entry kind it follows changes
 * exactly that answer or that place of the served document, and nothing else; the other kinds
 * change nothing.
 */

type Json = Record<string, unknown>;

const UNKNOWN_CONSUMER = '00000000-0000-4000-8000-00000000abcd';
const TAXES = '/consumers/{consumer_id}/invoicing/taxes';
const INVOICES = '/consumers/{consumer_id}/invoicing/invoices';
const CONTACTS = '/consumers/{consumer_id}/invoicing/contacts';

const entry = (fields: Partial<DriftEntry> & Pick<DriftEntry, 'kind' | 'path' | 'at'>): DriftEntry => ({
  method: 'GET',
  ...fields,
});

/** The same request to a sandbox without and with the drift file. */
async function both(entries: DriftEntry[], path: string) {
  const plain = sandbox();
  const following = sandbox({ drift: entries });
  const [a, b] = await Promise.all(
    [plain, following].map(async (s) => call(s.app, 'GET', path, { token: await sandboxToken(s) })),
  );
  return { plain: a as CallResult, following: b as CallResult };
}

async function documentOf(s: TestSandbox): Promise<Json> {
  return (await call(s.app, 'GET', '/openapi.json')).body as Json;
}

const schemaOf = (document: Json, name: string) =>
  ((document.components as Json).schemas as Record<string, Json>)[name] as Json;

describe('a refusal the service words otherwise (sandbox_error at message)', () => {
  it('answers the service message where the sandbox gave the one the finding saw, and nowhere else', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const refused = await call(s.app, 'GET', `/consumers/${UNKNOWN_CONSUMER}`, { token });
    expect(refused.status).toBe(404);
    const drift = [
      entry({
        kind: 'sandbox_error',
        path: '/consumers/{consumer_id}',
        at: 'message',
        service: '"Consumer not found"',
        sandbox: refusalField(refused.body.message),
      }),
    ];
    const { plain, following } = await both(drift, `/consumers/${UNKNOWN_CONSUMER}`);
    expect(plain.body).toEqual(refused.body);
    expect(following.status).toBe(404);
    expect(following.body).toEqual({ ...refused.body, message: 'Consumer not found' });
    expect(following.headers.get('content-type')).toContain('application/json');
    // Another refusal of the same operation (no token), and the same refusal of another operation.
    const other = sandbox({ drift });
    const unauthenticated = await call(other.app, 'GET', `/consumers/${UNKNOWN_CONSUMER}`);
    const plainUnauthenticated = await call(sandbox().app, 'GET', `/consumers/${UNKNOWN_CONSUMER}`);
    expect(unauthenticated.text).toBe(plainUnauthenticated.text);
    const elsewhere = await both(drift, `/consumers/${UNKNOWN_CONSUMER}/connections`);
    expect(elsewhere.following.text).toBe(elsewhere.plain.text);
    // The served document does not change.
    expect(await documentOf(other)).toEqual(await documentOf(sandbox()));
  });
});

describe('a page size production caps (sandbox_pagination at $.size)', () => {
  const drift = [
    entry({ kind: 'sandbox_pagination', path: TAXES, at: '$.size', service: '5', sandbox: '100' }),
  ];

  it('answers a page asked larger at the capped size, items and size alike; the page after it too', async () => {
    const s = sandbox();
    const consumer = s.ids.verticalConsumers.INVOICING as string;
    const list = `/consumers/${consumer}/invoicing/taxes`;
    const { plain, following } = await both(drift, `${list}?size=20&page=2`);
    expect(plain.body.size).toBe(20);
    expect(following.body.size).toBe(5);
    expect(following.body.items).toHaveLength(Math.min(5, plain.body.total - 5));
    expect(following.body.total).toBe(plain.body.total);
    // The same as asking for pages of 5 without the drift file.
    const asked = await both([], `${list}?size=5&page=2`);
    expect(following.body).toEqual(asked.plain.body);
    // Without a size (the default, 50, above the cap) it is capped too.
    const unsized = await both(drift, list);
    expect(unsized.following.body.size).toBe(5);
    // A size at or below the cap, a size the document refuses, and another list: as before.
    for (const path of [
      `${list}?size=3`,
      `${list}?size=500`,
      `/consumers/${consumer}/invoicing/contacts?size=20`,
    ]) {
      const pair = await both(drift, path);
      expect(pair.following.status).toBe(pair.plain.status);
      expect(pair.following.text).toBe(pair.plain.text);
    }
  });
});

describe('values and nulls production answers (schema_deviation)', () => {
  it('lists an enum value in the served document, in that answer alone: a filter by the same enum is as before', async () => {
    const drift = [
      entry({
        kind: 'schema_deviation',
        path: INVOICES,
        at: '$.items[].invoice_type',
        document: 'one of ["customer_invoice","customer_refund","supplier_invoice","supplier_refund"]',
        service: '"self_billing_invoice"',
      }),
    ];
    const plain = await documentOf(sandbox());
    const following = await documentOf(sandbox({ drift }));
    const operationOf = (document: Json) =>
      ((document.paths as Record<string, Record<string, Json>>)[INVOICES]?.get ?? {}) as Json;
    const answer = JSON.stringify(operationOf(following).responses);
    expect(JSON.stringify(operationOf(plain).responses)).not.toContain('self_billing_invoice');
    const listed = [...(schemaOf(plain, 'InvoicingInvoiceType').enum as unknown[]), 'self_billing_invoice'];
    expect(answer).toContain(`"invoice_type":{"type":"string","enum":${JSON.stringify(listed)}}`);
    // The named enum, which the list's invoice_type filter takes too, is unchanged: so is the filter.
    expect(schemaOf(following, 'InvoicingInvoiceType')).toEqual(schemaOf(plain, 'InvoicingInvoiceType'));
    expect(operationOf(following).parameters).toEqual(operationOf(plain).parameters);
    // Nothing else of the document changed.
    operationOf(following).responses = operationOf(plain).responses;
    expect(following).toEqual(plain);
  });

  it('makes a required field answered null nullable in that answer of the served document, nothing else', async () => {
    const drift = [
      entry({
        kind: 'schema_deviation',
        path: CONTACTS,
        at: '$.items[].source_ref',
        document: 'object (required)',
        service: 'null',
      }),
    ];
    const plain = await documentOf(sandbox());
    const following = await documentOf(sandbox({ drift }));
    const operationOf = (document: Json) =>
      ((document.paths as Record<string, Record<string, Json>>)[CONTACTS]?.get ?? {}) as Json;
    const before = (schemaOf(plain, 'ContactItemOut').properties as Json).source_ref;
    expect(JSON.stringify(operationOf(following).responses)).toContain(
      `"source_ref":${JSON.stringify({ anyOf: [before, { type: 'null' }] })}`,
    );
    // In that answer alone: the named item (other operations answer it too) is unchanged.
    expect(schemaOf(following, 'ContactItemOut')).toEqual(schemaOf(plain, 'ContactItemOut'));
    operationOf(following).responses = operationOf(plain).responses;
    expect(following).toEqual(plain);
  });
});

describe('the kinds the sandbox does not follow', () => {
  const left: DriftEntry[] = [
    entry({ kind: 'undocumented_field', path: INVOICES, at: '$.items[].internal_score', service: '3' }),
    entry({
      kind: 'sandbox_order',
      path: INVOICES,
      at: '$.items by date',
      service: 'descending',
      sandbox: 'ascending',
    }),
    entry({
      kind: 'sandbox_status',
      path: '/consumers/{consumer_id}/invoicing/products',
      at: 'status',
      service: '203',
    }),
    entry({
      kind: 'undeclared_status',
      path: '/consumers/{consumer_id}/invoicing/products',
      at: 'status',
      service: '203',
    }),
    entry({ kind: 'missing_header', path: INVOICES, at: 'x-request-id', service: 'absent' }),
    // A format, not an enum: left to the proxy.
    entry({
      kind: 'schema_deviation',
      path: INVOICES,
      at: '$.items[].invoice_date',
      document: 'date',
      service: '"2026-13-01"',
    }),
    // An error code, and a message without the sandbox's side.
    entry({
      kind: 'sandbox_error',
      path: '/consumers/{consumer_id}',
      at: 'error_code',
      service: '"NOT_FOUND"',
    }),
    entry({
      kind: 'sandbox_error',
      path: '/consumers/{consumer_id}',
      at: 'message',
      service: '"Consumer not found"',
    }),
  ];

  it("reads them as the proxy's alone, and answers and documents as without them", async () => {
    const following = new DriftFollowing(left);
    expect(following.followed).toBe(0);
    expect(following.leftToProxy).toHaveLength(left.length);
    expect(left.map(changeOf)).toEqual(left.map(() => null));
    const s = sandbox({ drift: left });
    expect(await documentOf(s)).toEqual(await documentOf(sandbox()));
    const consumer = s.ids.verticalConsumers.INVOICING as string;
    for (const path of [
      `/consumers/${UNKNOWN_CONSUMER}`,
      `/consumers/${consumer}/invoicing/invoices?size=3`,
    ]) {
      const pair = await both(left, path);
      expect(pair.following.text).toBe(pair.plain.text);
    }
  });
});

describe('a drift file serve cannot follow', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'drift-serve-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("is refused with the reader's message: not YAML, an unknown kind, too large", () => {
    const cases: [string, string, RegExp][] = [
      ['broken.yaml', 'known: [unclosed', /broken\.yaml is not YAML or JSON/],
      [
        'kind.yaml',
        'known:\n  - kind: sandbox_colour\n    method: GET\n    path: /x\n    at: $\n',
        /kind\.yaml, known\.0\.kind: /,
      ],
      ['large.yaml', `# ${'x'.repeat(1024 * 1024)}\nknown: []\n`, /large\.yaml is larger than 1 MiB/],
    ];
    for (const [name, text, message] of cases) {
      const file = join(folder, name);
      writeFileSync(file, text);
      expect(() => readDriftFile(file)).toThrow(DriftFileError);
      expect(() => readDriftFile(file)).toThrow(message);
    }
  });
});

describe('what the control surfaces say of a drift file', () => {
  it('the console overview counts the followed entries and those left to the proxy; without one, nothing', async () => {
    const drift = [
      entry({ kind: 'sandbox_pagination', path: TAXES, at: '$.size', service: '5' }),
      entry({ kind: 'sandbox_order', path: INVOICES, at: '$.items by date', service: 'descending' }),
    ];
    const following = await call(sandbox({ drift }).app, 'GET', '/console');
    expect(following.status).toBe(200);
    expect(following.text).toContain(
      'the sandbox follows production in 1 of its entries; 1 are read by the proxy only',
    );
    expect((await call(sandbox().app, 'GET', '/console')).text).not.toContain('Drift file');
  });
});
