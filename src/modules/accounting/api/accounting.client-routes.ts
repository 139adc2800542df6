import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { clientRoute } from '../../../lib/client-routes.js';
import { ApiError, errors as failures, serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type { AppEnv } from '../../../platform/context.js';
import {
  errorResponses,
  itemOrNull,
  jsonBody,
  jsonContent,
  scopesFor,
  secured,
  type ValidationResult,
  validationFailure,
} from '../../../platform/openapi.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { requireActiveConnection } from '../../../platform/vertical-connection.js';
import { CustomPathParams, registerCustomRoutes } from '../../custom/index.js';
import { DocumentType } from '../model/accounting.values.js';
import { matchedCentsByLine } from '../model/ledger/derived.js';
import { buildInvoiceAttachment } from '../model/ledger/documents.js';
import { applyChange, attachmentOf, buildInvoice, type LedgerChange } from '../model/ledger/posting.js';
import { assertPdf } from '../model/ledger/rules.js';
import { accountingLedger } from './accounting.context.js';
import {
  BoolParam,
  ConsumerIdParam,
  FolderQuery,
  folderIdParam,
  pdfNameField,
} from './accounting.schemas.js';
import * as attachmentRoutes from './attachments.routes.js';
import { AttachmentItemOut } from './attachments.schemas.js';
import { requireEntry } from './entries.domain.js';
import { draftFromMono, requireInvoice, toInvoiceItem } from './invoices.domain.js';
import * as invoiceRoutes from './invoices.routes.js';
import {
  InvoiceCreateQuery,
  InvoiceItemInMonoAnalyticPlan,
  InvoiceItemOutMonoAnalyticPlan,
} from './invoices.schemas.js';
import { toAccountItem, toJournalItem } from './reference.domain.js';
import * as referenceRoutes from './reference.routes.js';
import { AccountItem, Journal } from './reference.schemas.js';

/**
 * Accounting routes the official clients call beyond the published document (see
 * lib/client-routes.ts): one ledger account, one journal, attaching a PDF to an invoice or an entry,
 * booking invoices in a batch, and the connector's custom routes. Each is covered as the published
 * operation it extends (an integration implements it exactly when it implements that one).
 */

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);

export const getLedgerAccount = createRoute({
  method: 'get',
  path: `${base}/chart-of-accounts/{number}`,
  operationId: 'accounting_get_ledger_account',
  tags,
  summary: 'Get one ledger account by its number',
  ...clientRoute(
    'The account as the chart of accounts lists it. A number the folder does not hold answers 404 ERROR_ACCOUNT_NUMBER_NOT_FOUND.',
  ),
  ...secured('consumer', scopesFor('accounting', 'ledger_accounts', 'read')),
  request: {
    params: ConsumerIdParam.extend({
      number: z
        .string()
        .openapi({ param: { name: 'number', in: 'path' }, description: 'The account number' }),
    }),
    query: FolderQuery,
  },
  responses: { 200: jsonContent(AccountItem, 'The ledger account'), ...errors },
});

export const getJournal = createRoute({
  method: 'get',
  path: `${base}/journals/{journal_id}`,
  operationId: 'accounting_get_journal',
  tags,
  summary: 'Get one journal',
  ...clientRoute(
    'The journal as the list of journals shows it. A journal the folder does not hold answers 404 ERROR_JOURNAL_NOT_FOUND.',
  ),
  ...secured('consumer', scopesFor('accounting', 'journals', 'read')),
  request: {
    params: ConsumerIdParam.extend({
      journal_id: z
        .string()
        .openapi({ param: { name: 'journal_id', in: 'path' }, description: 'Id of the journal' }),
    }),
    query: FolderQuery,
  },
  responses: { 200: jsonContent(Journal, 'The journal'), ...errors },
});

export const AccountingAttachmentItemIn = z
  .object({
    base64_string: z.string().openapi({ description: 'The PDF, base64-encoded' }),
    name: pdfNameField(),
    type: itemOrNull(DocumentType)
      .optional()
      .openapi({ description: 'What the PDF is attached to (default: an invoice)' }),
    document_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Id of the invoice or journal entry' }),
    invoice_id: z.string().nullable().optional().openapi({ description: 'Id of the invoice (type invoice)' }),
  })
  .openapi('AccountingAttachmentItemIn', {
    description:
      'A PDF and the document it belongs to: type and document_id (or invoice_id), in the body or in the query',
  });

const AttachDocumentQuery = z.object({
  folder_id: folderIdParam,
  type: DocumentType.optional().openapi({ param: { name: 'type', in: 'query' } }),
  document_id: z
    .string()
    .optional()
    .openapi({
      param: { name: 'document_id', in: 'query' },
      description: 'Id of the invoice or journal entry',
    }),
  overwrite_existing: itemOrNull(BoolParam)
    .optional()
    .openapi({
      param: { name: 'overwrite_existing', in: 'query' },
      description: "Replace the document an invoice already has (default false); an entry's are added to",
    }),
});

export const addDocumentAttachment = createRoute({
  method: 'post',
  path: `${base}/attachments`,
  operationId: 'accounting_add_document_attachment',
  tags,
  summary: 'Attach a PDF to an invoice or a journal entry',
  ...clientRoute(
    "Books the PDF as POST .../invoices/pdf/{invoice_id} does for an invoice (refused when the invoice has one, unless overwrite_existing=true); an entry's documents are added to. The document is named in the body (type and document_id, or invoice_id) or in the query.",
  ),
  ...secured('consumer', scopesFor('accounting', 'attachments', 'write')),
  request: {
    params: ConsumerIdParam,
    query: AttachDocumentQuery,
    body: jsonBody(AccountingAttachmentItemIn, 'The PDF and its document'),
  },
  responses: { 200: jsonContent(AttachmentItemOut, 'The attached PDF'), ...errors },
});

export const InvoiceBatchIn = z
  .union([
    z.array(InvoiceItemInMonoAnalyticPlan),
    z.object({ invoices: z.array(InvoiceItemInMonoAnalyticPlan) }),
  ])
  .openapi('InvoiceBatchIn', {
    description: 'The invoices: a list, or an object whose invoices is the list',
  });

export const createInvoicesBatch = createRoute({
  method: 'post',
  path: `${base}/batch/invoices`,
  operationId: 'accounting_create_invoices_batch',
  tags,
  summary: 'Book several invoices at once',
  ...clientRoute(
    'Each invoice is booked as POST .../invoices books one, in the order given. All or nothing: the first refused invoice refuses the batch (its detail names the invoice by its index) and nothing is booked.',
  ),
  ...secured('consumer', scopesFor('accounting', 'invoices', 'write')),
  request: {
    params: ConsumerIdParam,
    query: InvoiceCreateQuery,
    body: jsonBody(InvoiceBatchIn, 'The invoices'),
  },
  responses: {
    200: jsonContent(z.array(InvoiceItemOutMonoAnalyticPlan), 'The booked invoices, in the order given'),
    // As POST .../invoices: a number already used answers 409 (ERROR_INVOICE_NUMBER_ALREADY_USED).
    ...errorResponses([400, 401, 404, 409, 422]),
  },
});

/**
 * Validation hook of the batch: a body that is neither a list nor an object with a list is reported
 * as the list, and a list (or object) with bad invoices with the issues of its own shape, rather than
 * as a failed union.
 */
function batchBodyHook(result: ValidationResult): undefined {
  if (result.success || !result.error) return undefined;
  if (result.target !== 'json') {
    throw validationFailure(result, result.target === 'query' ? InvoiceCreateQuery : ConsumerIdParam);
  }
  const data = result.data;
  const shape =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? z.object({ invoices: z.array(InvoiceItemInMonoAnalyticPlan) })
      : z.array(InvoiceItemInMonoAnalyticPlan);
  const parsed = shape.safeParse(data);
  if (parsed.success) throw validationFailure(result, InvoiceBatchIn);
  throw validationFailure({ ...result, error: parsed.error }, shape);
}

/** GET of one ledger account and of one journal, which the official clients call by id. */
function registerLookupRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    getLedgerAccount,
    operation(
      accountingLedger,
      getLedgerAccount,
      (c, { data: { ledger } }) => {
        const { number } = c.req.valid('param');
        const account = own(ledger.accounts, number);
        if (!account) {
          throw serviceError(
            'accountNumberNotFound',
            `The folder has no ledger account numbered '${number}'`,
          );
        }
        return c.json(toAccountItem(account), 200);
      },
      referenceRoutes.getChartOfAccounts,
    ),
  );

  app.openapi(
    getJournal,
    operation(
      accountingLedger,
      getJournal,
      (c, { data: { ledger } }) => {
        const { journal_id } = c.req.valid('param');
        const journal = own(ledger.journals, journal_id);
        if (!journal)
          throw serviceError('journalNotFound', `The folder has no journal with the id '${journal_id}'`);
        return c.json(toJournalItem(ledger, journal), 200);
      },
      referenceRoutes.getJournals,
    ),
  );
}

export function registerAccountingClientRoutes(app: OpenAPIHono<AppEnv>): void {
  registerLookupRoutes(app);

  app.openapi(
    addDocumentAttachment,
    operation(
      accountingLedger,
      addDocumentAttachment,
      (c, { data: { ledger } }) => {
        const ctx = writeContext(c);
        const body = c.req.valid('json');
        const query = c.req.valid('query');
        const type = body.type ?? query.type ?? 'invoice';
        const documentId = body.document_id ?? body.invoice_id ?? query.document_id;
        if (!documentId) {
          throw failures.accountingFailure(
            'Name the document of the PDF: type and document_id (or invoice_id), in the body or the query',
          );
        }
        let change: LedgerChange;
        if (type === 'invoice') {
          const invoice = requireInvoice(ledger, documentId);
          const overwrite = query.overwrite_existing === 'true';
          change = buildInvoiceAttachment(
            ledger,
            invoice,
            body.base64_string,
            body.name ?? null,
            overwrite,
            ctx,
          );
        } else {
          const entry = requireEntry(ledger, documentId);
          assertPdf(body.base64_string);
          change = {
            attachments: attachmentOf(
              ctx,
              'entry',
              entry.id,
              body.base64_string,
              body.name ?? `entry-${entry.id}`,
            ),
            entries: [{ ...entry, last_updated_on: ctx.now }],
          };
        }
        applyChange(ledger, change, ctx.now);
        const attachment = change.attachments?.[0];
        c.set('createdEntityId', attachment?.id);
        return c.json({ id: attachment?.id ?? '', base64_string: attachment?.base64_string ?? '' }, 200);
      },
      attachmentRoutes.addAttachment,
    ),
  );

  app.openapi(
    createInvoicesBatch,
    operation(
      accountingLedger,
      createInvoicesBatch,
      (c, { data: { ledger } }) => {
        const body = c.req.valid('json');
        const query = c.req.valid('query');
        const inputs = Array.isArray(body) ? body : body.invoices;
        const booked = inputs.map((input, index) => {
          const ctx = writeContext(c);
          try {
            const { invoice, change } = buildInvoice(ledger, draftFromMono(ledger, input, query), ctx);
            applyChange(ledger, change, ctx.now);
            return invoice;
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const detail = `invoices[${index}]: ${error.detail || error.message}`;
            throw new ApiError(error.status, error.message, detail, error.errorCode);
          }
        });
        c.set('createdEntityId', booked.map((invoice) => invoice.id).join(',') || undefined);
        const view = { lines: true, payments: true, partner: false };
        const matched = matchedCentsByLine(ledger);
        return c.json(
          booked.map((invoice) => toInvoiceItem(ledger, invoice, 'mono', view, matched)),
          200,
        );
      },
      invoiceRoutes.createInvoice,
    ),
    batchBodyHook,
  );

  registerCustomRoutes(app, {
    prefix: `${base}/custom`,
    operationId: 'accounting_custom',
    tag: 'Accounting',
    methods: ['get', 'post', 'patch', 'delete'],
    scopes: {
      read: scopesFor('accounting', null, 'read'),
      write: scopesFor('accounting', null, 'write'),
      area: 'accounting',
    },
    params: CustomPathParams,
    open: (c) => requireActiveConnection(c, 'Accounting'),
  });
}
