import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openWorldFile, seedWorld } from '../../../src/control/seeded-world.js';
import { serviceError } from '../../../src/lib/errors.js';
import { tinyPdf } from '../../../src/lib/pdf.js';
import { UploadDocumentItemOut } from '../../../src/modules/invoicing/api/invoicing.schemas.js';
import { expectError, expectValidation, SEED, sandbox, sandboxToken } from '../../helpers.js';
import { closedAfterTest, tempDir } from '../../temp-dir.js';
import { forVertical, type VerticalSandbox, verticalSandbox } from '../verticals/finance-helpers.js';
import { keysOf } from './helpers.js';

/** The Invoicing vertical: documents uploaded. */

let v: VerticalSandbox;

beforeEach(async () => {
  v = await verticalSandbox('invoicing');
});

describe('invoicing: documents uploaded', () => {
  it('takes a PDF and answers 201 with a draft waiting to be read', async () => {
    const pdf = tinyPdf('Supplier invoice 42');
    const res = await v.post(
      '/upload-document',
      { base64_string: pdf, document_type: 'supplier_document' },
      {
        headers: { 'x-chift-client-requestid': 'doc-1' },
      },
    );
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(UploadDocumentItemOut.parse(res.body)).sort()).toEqual(keysOf(UploadDocumentItemOut));
    expect(res.body).toMatchObject({
      invoice_type: 'supplier_invoice',
      status: 'draft',
      total: null,
      lines: [],
    });
    const again = await v.post(
      '/upload-document',
      { base64_string: pdf, document_type: 'supplier_document' },
      {
        headers: { 'x-chift-client-requestid': 'doc-1' },
      },
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(res.body);
    const data = Object.values(v.app.services.store.world.invoicing_datasets).find(
      (d) => d.consumerid === v.consumerId,
    );
    expect(Object.keys(data?.documents ?? {})).toEqual([res.body.id]);
    const expense = await v.post('/upload-document', {
      base64_string: pdf,
      document_type: 'employee_expense',
    });
    expect(expense.body.invoice_type).toBeNull();
  });

  it.each([
    ['not base64', '%%%'],
    ['empty', ''],
    ['not a PDF', Buffer.from('hello world!').toString('base64')],
  ])(
    'refuses a document that is %s (400 ERROR_INVALID_BASE64_STRING, as the PDF attachments of accounting)',
    async (_, base64) => {
      const res = await v.post('/upload-document', {
        base64_string: base64,
        document_type: 'customer_document',
      });
      expectError(res, serviceError('invalidBase64'));
      expect([res.status, res.body.error_code]).toEqual([400, 'ERROR_INVALID_BASE64_STRING']);
    },
  );

  it('validates the document type', async () => {
    expectValidation(
      await v.post('/upload-document', { base64_string: tinyPdf('x'), document_type: 'receipt' }),
      ['body', 'document_type'],
    );
  });
});

describe('invoicing: storage', () => {
  it('builds no dataset until a connection is used', () => {
    const s = sandbox();
    expect(Object.keys(s.app.services.store.world.invoicing_datasets)).toEqual([]);
  });

  it('keeps writes in a world file: the dataset comes back with them after a restart', async () => {
    const file = join(tempDir('invoicing-'), 'world.json');
    const store = closedAfterTest(await openWorldFile(file, () => seedWorld(SEED)));
    const first = sandbox({ store });
    const token = await sandboxToken(first);
    const a = forVertical(first, token, first.ids.verticalConsumers.INVOICING as string, 'invoicing');
    const created = await a.post('/contacts', { company_name: 'Durable BV' });
    expect(created.status).toBe(200);
    const reopened = closedAfterTest(await openWorldFile(file, () => seedWorld(SEED)));
    const second = sandbox({ store: reopened });
    const b = forVertical(second, await sandboxToken(second), a.consumerId, 'invoicing');
    expect((await b.get(`/contacts/${created.body.id}`)).body).toEqual(created.body);
    expect((await b.get('/invoices?size=100')).body).toEqual((await a.get('/invoices?size=100')).body);
  });
});
