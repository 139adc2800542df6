import type { Context } from 'hono';
import { html } from 'hono/html';
import { ApiError } from '../../lib/errors.js';
import { accountingFolders, accountingLedger } from '../../modules/accounting/accounting.context.js';
import { listPartners, toPartnerItem } from '../../modules/accounting/partners.domain.js';
import * as accountingRoutes from '../../modules/accounting/partners.routes.js';
import { bankingDatasetOf, toAccountItem } from '../../modules/banking/banking.domain.js';
import * as bankingRoutes from '../../modules/banking/banking.routes.js';
import {
  commerceDatasetOf,
  listOrders as listCommerceOrders,
  toOrderItem as toCommerceOrderItem,
} from '../../modules/commerce/commerce.domain.js';
import * as commerceRoutes from '../../modules/commerce/commerce.routes.js';
import { invoicingDatasetOf, listInvoices, toInvoiceItem } from '../../modules/invoicing/invoicing.domain.js';
import * as invoicingRoutes from '../../modules/invoicing/invoicing.routes.js';
import { listPayments, paymentDatasetOf, toPaymentItem } from '../../modules/payment/payment.domain.js';
import * as paymentRoutes from '../../modules/payment/payment.routes.js';
import {
  listOrders as listPmsOrders,
  pmsDatasetOf,
  toOrderItem as toPmsOrderItem,
} from '../../modules/pms/pms.domain.js';
import * as pmsRoutes from '../../modules/pms/pms.routes.js';
import { pos } from '../../modules/pos/pos.context.js';
import { listOrders as listPosOrders, toOrderItem as toPosOrderItem } from '../../modules/pos/pos.domain.js';
import * as posRoutes from '../../modules/pos/pos.routes.js';
import type { ApiName } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import { requireVerticalConnection, type VerticalScope } from '../../platform/vertical-connection.js';
import { publishedTags } from '../docs/published.js';
import { code, type Html } from './layout.js';

/**
 * Samples of a consumer's vertical data, a handful of rows each, read as the API reads them: the same
 * checks (requireVerticalConnection: the active connection, the integration's coverage of the
 * operation), the same opening of the data (the vertical's own dataset function, or its `open`), the
 * same list and wire-shape functions. A refusal shows as the API would answer it.
 */

const ROWS = 5;

type Row = Record<string, unknown>;

interface Sample {
  api: ApiName;
  title: string;
  /** The list operation the sample shows: its operationId (whose coverage the API checks), path and tag. */
  route: { operationId: string; path: string; tags?: string[] | undefined };
  columns: string[];
  rows(c: Context<AppEnv>, scope: VerticalScope): Row[] | Promise<Row[]>;
}

/** The last 90 days of the sandbox clock, for the operations that need a period. */
function recentPeriod(c: Context<AppEnv>) {
  const today = c.get('store').today();
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 90 * 86_400_000).toISOString().slice(0, 10);
  return { date_from: from, date_to: today };
}

const SAMPLES: readonly Sample[] = [
  {
    api: 'Accounting',
    title: 'Clients',
    route: accountingRoutes.getClients,
    columns: ['id', 'name', 'is_company', 'email', 'vat', 'currency'],
    rows: async (c, scope) => {
      const { ledger } = await accountingLedger.open(c, scope);
      return listPartners(ledger, 'client', {})
        .slice(0, ROWS)
        .map((p) => toPartnerItem(p, 'client'));
    },
  },
  {
    api: 'Invoicing',
    title: 'Invoices',
    route: invoicingRoutes.getInvoices,
    columns: ['id', 'invoice_number', 'invoice_type', 'invoice_date', 'status', 'currency', 'total'],
    rows: (c, { consumer, connection, integration }) => {
      const data = invoicingDatasetOf(
        c.get('store'),
        consumer.consumerid,
        connection.connectionid,
        integration.integrationid,
      );
      return listInvoices(data, {})
        .slice(0, ROWS)
        .map((invoice) => toInvoiceItem(data, invoice, { lines: false, analytic: false }));
    },
  },
  {
    api: 'Banking',
    title: 'Accounts',
    route: bankingRoutes.getAccounts,
    columns: ['id', 'description', 'reference', 'holder_name', 'currency', 'current_balance', 'active'],
    rows: (c, { connection }) => {
      const data = bankingDatasetOf(
        c.get('store'),
        connection.consumerid,
        connection.connectionid,
        connection.integrationid,
      );
      return Object.values(data.accounts)
        .slice(0, ROWS)
        .map((account) => toAccountItem(data, account));
    },
  },
  {
    api: 'Payment',
    title: 'Payments',
    route: paymentRoutes.getPayments,
    columns: ['id', 'payment_date', 'status', 'currency', 'amount', 'description'],
    rows: (c, { consumer, connection, integration }) => {
      const data = paymentDatasetOf(
        c.get('store'),
        consumer.consumerid,
        connection.connectionid,
        integration.integrationid,
      );
      return listPayments(data, {}).slice(0, ROWS).map(toPaymentItem);
    },
  },
  {
    api: 'eCommerce',
    title: 'Orders',
    route: commerceRoutes.getOrders,
    columns: ['id', 'order_number', 'created_on', 'status', 'currency', 'total'],
    rows: (c, { connection }) => {
      const data = commerceDatasetOf(c.get('store'), connection);
      return listCommerceOrders(data, {})
        .slice(-ROWS)
        .reverse()
        .map((order) => toCommerceOrderItem(data, order));
    },
  },
  {
    api: 'Point of Sale',
    title: 'Orders',
    route: posRoutes.getOrders,
    columns: ['id', 'order_number', 'creation_date', 'closing_date', 'total', 'currency'],
    rows: async (c, scope) => {
      // The vertical's own opening: it completes the orders due by now first, as the API does.
      const data = await pos.open(c, scope);
      return listPosOrders(data, recentPeriod(c)).slice(-ROWS).reverse().map(toPosOrderItem);
    },
  },
  {
    api: 'Property Management System',
    title: 'Orders (stays)',
    route: pmsRoutes.getOrders,
    columns: ['id', 'order_number', 'service_date', 'closing_date', 'total', 'currency'],
    rows: (c, { connection }) => {
      const data = pmsDatasetOf(c.get('store'), connection);
      return listPmsOrders(data, recentPeriod(c))
        .slice(-ROWS)
        .reverse()
        .map((order) => toPmsOrderItem(data, order));
    },
  },
];

function cell(value: unknown): Html {
  if (value === null || value === undefined || value === '') return html`<span class="muted">–</span>`;
  if (typeof value === 'object') return html`<code>${JSON.stringify(value).slice(0, 80)}</code>`;
  return html`${String(value)}`;
}

async function sampleSection(c: Context<AppEnv>, consumerid: string, sample: Sample): Promise<Html> {
  const { operationId, path, tags } = sample.route;
  const apiPath = path.replace('{consumer_id}', consumerid);
  // Swagger UI's deep link to the operation (deepLinking is on): #/<tag>/<operationId>, under the
  // tag the served document gives it (the published one), on the page of the document it is in.
  const published = publishedTags(operationId);
  const tag = published?.[0] ?? tags?.[0] ?? 'default';
  const docsLink = `${published ? '/docs' : '/docs/sandbox'}#/${tag.replace(/\s/g, '%20')}/${operationId}`;
  let content: Html;
  try {
    const scope = requireVerticalConnection(c, sample.api, operationId);
    const rows = await sample.rows(c, scope);
    content =
      rows.length === 0
        ? html`<p class="muted">No rows.</p>`
        : html`<table>
          <thead><tr>${sample.columns.map((col) => html`<th scope="col">${col}</th>`)}</tr></thead>
          <tbody>${rows.map((row) => html`<tr>${sample.columns.map((col) => html`<td>${cell(row[col])}</td>`)}</tr>`)}</tbody>
        </table>`;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    content = html`<p class="error">The API answers ${String(error.status)}: ${error.detail || error.message}</p>`;
  }
  return html`<section class="sample">
    <h3>${sample.api}: ${sample.title}</h3>
    <p>The first rows of <code>GET ${apiPath}</code> (<a href="${docsLink}">operation <code>${operationId}</code> in the docs</a>).</p>
    ${content}
  </section>`;
}

/** The accounting folders of the connection (a multi-folder integration needs ?folder_id=). */
async function foldersSection(c: Context<AppEnv>, consumerid: string): Promise<Html> {
  try {
    const scope = requireVerticalConnection(c, 'Accounting', 'accounting_get_folders');
    const { folders } = await accountingFolders.open(c, scope);
    const current = c.req.query('folder_id');
    return html`<section class="sample">
      <h3>Accounting: Folders</h3>
      <p><code>GET /consumers/${consumerid}/accounting/folders</code>${
        scope.integration.features.multiple_folders
          ? html`: ${scope.integration.name} holds several folders; pick one to see its clients.`
          : ''
      }</p>
      <ul>${folders.map(
        (f) =>
          html`<li><a href="?folder_id=${encodeURIComponent(f.id)}"${f.id === current ? html` aria-current="true"` : ''}>${f.name}</a> ${code(f.id)}</li>`,
      )}</ul>
    </section>`;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return html``;
  }
}

/** The samples of every vertical in which the consumer has an active connection. */
export async function verticalSamples(c: Context<AppEnv>, consumerid: string, apis: ReadonlySet<string>) {
  const sections: Html[] = [];
  if (apis.has('Accounting')) sections.push(await foldersSection(c, consumerid));
  for (const sample of SAMPLES) {
    if (apis.has(sample.api)) sections.push(await sampleSection(c, consumerid, sample));
  }
  return sections;
}
