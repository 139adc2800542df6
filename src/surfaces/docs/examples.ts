import { sandboxEnv } from '../../control/env.js';
import { own } from '../../lib/own.js';
import type {
  LedgerFolder,
  LedgerInvoice,
  LedgerRecord,
} from '../../modules/accounting/accounting.records.js';
import {
  bookYearOf,
  invoiceOpenCents,
  matchedCentsByLine,
  openPartnerLines,
} from '../../modules/accounting/ledger/derived.js';
import { foldersOf, ledgerOf } from '../../modules/accounting/ledger/ledgers.js';
import { fromCents, round2 } from '../../modules/accounting/ledger/money.js';
import { mintDocumentNumber } from '../../modules/accounting/ledger/posting.js';
import { commerceDatasetOf } from '../../modules/commerce/commerce.domain.js';
import type { CommerceDataset } from '../../modules/commerce/commerce.records.js';
import {
  connectionCredentials,
  mandatoryPostConnections,
} from '../../modules/connections/connections.domain.js';
import { connectorSlug } from '../../modules/custom/custom-routes.js';
import { invoicingDatasetOf, outstandingOf } from '../../modules/invoicing/invoicing.domain.js';
import type { InvoicingDataset } from '../../modules/invoicing/invoicing.records.js';
import { posDatasetOf } from '../../modules/pos/pos.domain.js';
import type { PosDataset } from '../../modules/pos/pos.records.js';
import { webhookTypes } from '../../modules/webhooks/webhooks.domain.js';
import type { ApiName, Integration } from '../../platform/catalogue.js';
import type { Services } from '../../platform/context.js';
import { activeConnectionOf } from '../../platform/transactions.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type { ConnectionRecord, World } from '../../store/world.js';
import { docsPrefill } from './prefill.js';

/**
 * A request body for every operation of the served documents that takes JSON, which the sandbox
 * accepts as it stands: sent once, with the path parameters below, by the seeded sandbox key, to the
 * world it was read from. Ids are never made up: each comes from the world, read through the same
 * domain and dataset functions the routes use (the consumer /docs prefills for the path, then its
 * connection's ledger or dataset: its VAT codes, accounts, journals, partners, products, locations).
 * The same world gives the same examples; as the world changes, so do they (an example that names
 * an open invoice names another once that one is paid).
 *
 * Reading a dataset builds it when it was never used, as the first GET of it would: the data it
 * builds is the data that GET would have built, so no answer changes.
 */

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON
type Json = any;

/** A one-page PDF (base64), what the attachment and upload operations take. */
export const EXAMPLE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
).toString('base64');

/**
 * Operations whose example needs a record the seeded world does not hold: what to send first (its
 * own example). Examples read the world again afterwards, and then name what it created: the
 * webhook to change, the link to complete, the bank receipt to match with an invoice, the datalayer
 * to refresh, the record of a custom route to change. Until then their body is there, and the path
 * parameter naming the missing record is not (or names the record the prerequisite creates).
 */
export const EXAMPLE_PREREQUISITES: Readonly<Record<string, string>> = {
  webhooks_update_webhook: 'webhooks_create_webhook',
  sandbox_complete_connection_link: 'connections_create_connection',
  datalayer_refresh: 'datalayer_enable',
  accounting_match_entries: 'accounting_create_bank_transactions',
  accounting_match_entries_multiple: 'accounting_create_bank_transactions',
  custom_connector_patch: 'custom_connector_post',
  accounting_custom_patch: 'accounting_custom_post',
  invoicing_custom_patch: 'invoicing_custom_post',
};

/** One operation's example: its body, and the path parameters it goes with. */
export interface RequestExample {
  body: unknown;
  params: Record<string, string>;
}

/** Request bodies by operationId (see requestExamples). */
export function requestBodyExamples(services: Services, origin: string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(requestExamples(services, origin)).map(([operationId, { body }]) => [operationId, body]),
  );
}

/** The path parameters each example goes with, by operationId (see requestExamples). */
export function examplePathParams(
  services: Services,
  origin = 'http://127.0.0.1',
): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(requestExamples(services, origin)).map(([operationId, { params }]) => [
      operationId,
      params,
    ]),
  );
}

/**
 * Every example the world allows, by operationId, with its path parameters: consumer_id as /docs
 * prefills it (the consumer of the path's vertical, see docsPrefill), the others the records the
 * body works on. Where the world lacks the record a path names (no webhook yet: see
 * EXAMPLE_PREREQUISITES), the body is there and that parameter is not. A world that lacks what a
 * body needs (a fixture that replaced the seeded world) has no example for that operation.
 */
export function requestExamples(services: Services, origin: string): Record<string, RequestExample> {
  const world = new ExampleWorld(services, origin);
  const out: Record<string, RequestExample> = {};
  for (const [operationId, { path, build }] of Object.entries(EXAMPLES)) {
    let built: Built | undefined;
    try {
      built = build(world);
    } catch (error) {
      // A world without a record an example needs has no example for it: the others still stand.
      if (error instanceof MissingRecord) continue;
      throw error;
    }
    if (built === undefined) continue;
    const params: Record<string, string> = {};
    if (path.includes('{consumer_id}')) {
      const consumer = built.consumer ?? world.consumerFor(path);
      if (consumer === undefined) continue;
      params.consumer_id = consumer;
    }
    Object.assign(params, built.params);
    out[operationId] = { body: built.body, params };
  }
  return out;
}

/**
 * The document with an example on each operation's JSON request body that has one in `examples`
 * (by operationId). Schemas are left as they are; the document given is not changed.
 */
export function withRequestExamples(
  document: Record<string, Json>,
  examples: Record<string, unknown>,
): Record<string, Json> {
  const copy = structuredClone(document);
  for (const item of Object.values<Json>(copy.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    for (const operation of Object.values<Json>(item)) {
      const media = operation?.requestBody?.content?.['application/json'];
      if (!media || typeof operation.operationId !== 'string') continue;
      if (!Object.hasOwn(examples, operation.operationId)) continue;
      media.example = structuredClone(examples[operation.operationId]);
    }
  }
  return copy;
}

// ---------------------------------------------------------------------------------------------------
// The world as the examples read it.

class MissingRecord extends Error {}

const need = <T>(value: T | undefined | null, what: string): T => {
  if (value === undefined || value === null) throw new MissingRecord(what);
  return value;
};

/** A consumer's active connection of a One API, the integration behind it, as the routes resolve them. */
interface Scope {
  consumerid: string;
  connection: ConnectionRecord;
  integration: Integration;
}

interface Accounting extends Scope {
  folder: LedgerFolder;
  ledger: LedgerRecord;
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** `candidate` when `taken` does not hold it, else the first of `candidate`2, `candidate`3... it lacks. */
function freeName(taken: (name: string) => boolean, candidate: string): string {
  if (!taken(candidate)) return candidate;
  for (let n = 2; ; n++) if (!taken(`${candidate}${n}`)) return `${candidate}${n}`;
}

class ExampleWorld {
  readonly services: Services;
  readonly origin: string;
  readonly world: World;
  readonly today: string;
  readonly prefill: ReturnType<typeof docsPrefill>;
  readonly #memo = new Map<string, unknown>();

  constructor(services: Services, origin: string) {
    this.services = services;
    this.origin = origin;
    this.world = services.store.world;
    this.today = services.store.today();
    this.prefill = docsPrefill(this.world, origin, services.catalogue);
  }

  #once<T>(key: string, make: () => T): T {
    if (!this.#memo.has(key)) this.#memo.set(key, make());
    return this.#memo.get(key) as T;
  }

  /** The consumer /docs prefills for a path: that of the segment after /consumers/{consumer_id}. */
  consumerFor(path: string): string | undefined {
    const at = path.indexOf('{consumer_id}');
    const segment = path.slice(at + '{consumer_id}'.length).split('/')[1] ?? '';
    const ids = this.prefill.consumer_ids as Record<string, string | undefined>;
    return (Object.hasOwn(ids, segment) ? ids[segment] : undefined) ?? ids[''];
  }

  /** The prefilled consumer of a segment with its active connection of the One API. */
  scope(segment: string, api: ApiName): Scope {
    return this.scopeOf(
      need(this.consumerFor(`/consumers/{consumer_id}/${segment}`), `a ${api} consumer`),
      api,
    );
  }

  /** A consumer's active connection of a One API, as its operations pick it (the newest). */
  scopeOf(consumerid: string, api: ApiName): Scope {
    const connection = need(
      activeConnectionOf(this.world, consumerid, api, (id) => this.services.catalogue.get(id)?.api),
      `an active ${api} connection`,
    );
    const integration = need(this.services.catalogue.get(connection.integrationid), 'its integration');
    return { consumerid, connection, integration };
  }

  get accounting(): Accounting {
    return this.#once('accounting', () => this.ledgerOf(this.scope('accounting', 'Accounting')));
  }

  /** The ledger of the first folder of an accounting connection. */
  ledgerOf(scope: Scope): Accounting {
    return this.#once(`ledger:${scope.connection.connectionid}`, () => {
      const { store, caches } = this.services;
      const folders = foldersOf(
        caches.ledgerFolders,
        this.world.meta.seed,
        scope.consumerid,
        scope.integration,
      );
      const folder = need(folders[0], 'a folder');
      return { ...scope, folder, ledger: ledgerOf(store, scope.consumerid, scope.integration, folder) };
    });
  }

  get invoicing(): Scope & { data: InvoicingDataset } {
    return this.#once('invoicing', () => {
      const scope = this.scope('invoicing', 'Invoicing');
      const { connection } = scope;
      const data = invoicingDatasetOf(
        this.services.store,
        connection.consumerid,
        connection.connectionid,
        connection.integrationid,
      );
      return { ...scope, data };
    });
  }

  get pos(): Scope & { data: PosDataset } {
    return this.#once('pos', () => {
      const scope = this.scope('pos', 'Point of Sale');
      return { ...scope, data: posDatasetOf(this.services.store, scope.connection) };
    });
  }

  get commerce(): Scope & { data: CommerceDataset } {
    return this.#once('commerce', () => {
      const scope = this.scope('commerce', 'eCommerce');
      return { ...scope, data: commerceDatasetOf(this.services.store, scope.connection) };
    });
  }

  /**
   * The consumer of a custom connector, its active Custom connection, and the connector as a path
   * names it. /docs prefills no consumer for custom paths yet: then the one `env` prints.
   */
  get custom(): Scope & { connector: string } {
    return this.#once('custom', () => {
      const ids = this.prefill.consumer_ids as Record<string, string | undefined>;
      const env = new Map(sandboxEnv(this.world, this.origin, this.services.catalogue));
      const consumerid = need(ids.custom ?? env.get('SANDBOX_CONSUMER_ID_CUSTOM'), 'a custom consumer');
      const connection = need(
        activeConnectionOf(this.world, consumerid, 'Custom', (id) => this.services.catalogue.get(id)?.api),
        'an active Custom connection',
      );
      const integration = need(this.services.catalogue.get(connection.integrationid), 'its integration');
      return { consumerid, connection, integration, connector: connectorSlug(integration.name) };
    });
  }

  /** The seeded sandbox key's account and environment (what the prefilled key reaches). */
  get environment(): { accountid: string; envid: string } {
    const key = Object.values(this.world.keys).find((k) => k.clientid === this.prefill.clientId);
    return need(key && { accountid: key.accountid, envid: key.envid }, 'the sandbox key');
  }

  /** The sync /docs works with: the one the sync consumer is set up for, with its flows. */
  get sync() {
    return this.#once('sync', () => {
      const consumerid = need(this.prefill.consumer_ids.syncs, 'the sync consumer');
      const setUp = Object.values(this.world.consumer_syncs).filter((s) => s.consumerid === consumerid);
      const sync = need(
        setUp.map((s) => own(this.world.syncs, s.syncid)).find((s) => s !== undefined),
        'a sync',
      );
      const flows = Object.values(this.world.flows).filter((f) => f.syncid === sync.syncid);
      const enabled = (flowid: string) => own(this.world.flow_consumers, `${consumerid}:${flowid}`)?.enabled;
      // The flow an event starts and the consumer has enabled: what events, enabling and runs use.
      const flow = need(
        flows.find((f) => enabled(f.flowid) && f.triggers.some((t) => t.type === 'event')) ??
          flows.find((f) => enabled(f.flowid)),
        'an enabled flow',
      );
      return { consumerid, sync, flow, flows };
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Accounting: what the examples read off a ledger.

const activeClients = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_client && p.active);
const activeSuppliers = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_supplier && p.active);

/** An active VAT code of a side at its usual national rate (the highest), not reverse-charged. */
function vatCode(ledger: LedgerRecord, side: 'sale' | 'purchase') {
  const codes = Object.values(ledger.vat_codes).filter(
    (v) => v.active && v.type === side && !v.reversed && !v.withholding_tax && v.scope === 'nat',
  );
  return need(codes.sort((a, b) => b.rate - a.rate)[0], `an active ${side} VAT code`);
}

/** The first active account of a type, by number. */
function accountOf(ledger: LedgerRecord, type: string, prefix = '') {
  const accounts = Object.values(ledger.accounts)
    .filter((a) => a.active && a.type === type && a.number.startsWith(prefix))
    .sort((a, b) => a.number.localeCompare(b.number));
  return need(accounts[0], `an active ${type} account`).number;
}

const journalOf = (ledger: LedgerRecord, type: string) =>
  need(
    Object.values(ledger.journals).find((j) => j.journal_type === type && !j.blocked),
    `a ${type} journal`,
  );

/** The bank journal: a financial journal whose counterpart account is a bank account. */
const bankJournal = (ledger: LedgerRecord) =>
  need(
    Object.values(ledger.journals).find(
      (j) =>
        j.journal_type === 'financial_operation' &&
        !j.blocked &&
        j.counterpart_account !== null &&
        own(ledger.accounts, j.counterpart_account)?.type === 'bank',
    ),
    'a bank journal',
  );

/** Posted customer invoices of the folder's currency with something open, oldest first. */
function openCustomerInvoices(ledger: LedgerRecord): { invoice: LedgerInvoice; open: number }[] {
  const matched = matchedCentsByLine(ledger);
  return Object.values(ledger.invoices)
    .filter(
      (i) =>
        i.invoice_type === 'customer_invoice' &&
        i.status === 'posted' &&
        i.currency === ledger.folder.main_currency &&
        own(ledger.partners, i.partner_id)?.active === true,
    )
    .map((invoice) => ({ invoice, open: fromCents(invoiceOpenCents(ledger, invoice, matched)) }))
    .filter(({ open }) => open > 0)
    .sort(
      (a, b) =>
        a.invoice.invoice_date.localeCompare(b.invoice.invoice_date) ||
        a.invoice.invoice_number.localeCompare(b.invoice.invoice_number),
    );
}

/**
 * The open invoices the examples settle, one each, so that running them one after the other works:
 * the invoice payment the oldest, the bank receipt (then matched) the next, the financial entry the
 * one after.
 */
const openInvoice = (ledger: LedgerRecord, rank: 0 | 1 | 2) => {
  const open = openCustomerInvoices(ledger);
  return need(open[Math.min(rank, open.length - 1)], 'an open customer invoice');
};

/** Open lines of one client on one account, debit and credit both, which a matching settles. */
function matchablePair(ledger: LedgerRecord): { partnerId: string; entries: string[] } | undefined {
  const groups = new Map<string, ReturnType<typeof openPartnerLines>>();
  for (const side of ['client', 'supplier'] as const) {
    for (const open of openPartnerLines(ledger, side, false)) {
      const key = `${open.line.partner_id}|${open.line.account_number}|${open.entry.currency}`;
      groups.set(key, [...(groups.get(key) ?? []), open]);
    }
  }
  for (const lines of groups.values()) {
    const debit = lines.find((l) => l.openCents > 0);
    const credit = lines.find((l) => l.openCents < 0);
    if (!debit || !credit) continue;
    // An invoice reads better by its id; any other entry by its own.
    const idOf = (l: (typeof lines)[number]) => l.entry.invoice_id ?? l.entry.id;
    return { partnerId: debit.line.partner_id as string, entries: [idOf(debit), idOf(credit)] };
  }
  return undefined;
}

/** The lines of an invoice at one VAT code, with its amounts as the ledger checks them. */
function invoiceAmounts(rate: number, lines: { quantity: number; unit_price: number }[]) {
  const computed = lines.map(({ quantity, unit_price }) => {
    const untaxed = round2(quantity * unit_price);
    const tax = round2((untaxed * rate) / 100);
    return {
      quantity,
      unit_price,
      untaxed_amount: untaxed,
      tax_rate: rate,
      tax_amount: tax,
      total: round2(untaxed + tax),
    };
  });
  const untaxed = round2(computed.reduce((t, l) => t + l.untaxed_amount, 0));
  const tax = round2(computed.reduce((t, l) => t + l.tax_amount, 0));
  return { lines: computed, untaxed_amount: untaxed, tax_amount: tax, total: round2(untaxed + tax) };
}

/** A customer invoice of the folder: its first active client, the sale VAT code, revenue, the sales journal. */
function accountingInvoice(w: ExampleWorld, analytic: 'single' | 'multi') {
  const { ledger } = w.accounting;
  const client = need(activeClients(ledger)[0], 'an active client');
  const vat = vatCode(ledger, 'sale');
  const revenue = accountOf(ledger, 'income', '70');
  const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
  const analyticOf = (planId: string | undefined) =>
    Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === planId);
  const amounts = invoiceAmounts(vat.rate, [
    { quantity: 12, unit_price: 85 },
    { quantity: 1, unit_price: 240 },
  ]);
  const lines = amounts.lines.map((line, i) => {
    const base = { line_number: i + 1, ...line, account_number: revenue, tax_code: vat.id };
    if (analytic === 'single') {
      const account = analyticOf(plans[0]?.id);
      return account ? { ...base, analytic_account: account.id } : base;
    }
    const distribution = plans.flatMap((plan) => {
      const account = analyticOf(plan.id);
      return account
        ? [{ analytic_plan: plan.id, analytic_accounts: [{ analytic_account: account.id, percentage: 100 }] }]
        : [];
    });
    return { ...base, analytic_distribution: distribution };
  });
  const term = Object.values(ledger.payment_terms).find((t) => t.days === 30 && !t.end_of_month);
  return {
    invoice_type: 'customer_invoice',
    currency: ledger.folder.main_currency,
    untaxed_amount: amounts.untaxed_amount,
    tax_amount: amounts.tax_amount,
    total: amounts.total,
    reference: 'PO-2026-118',
    invoice_date: w.today,
    due_date: addDays(w.today, 30),
    ...(term ? { payment_term_id: term.id } : {}),
    journal_id: journalOf(ledger, 'customer_invoice').id,
    partner_id: client.id,
    status: 'posted',
    lines,
  };
}

/** A valid Belgian IBAN of a bank account number (ten digits and their mod-97 check). */
function belgianIban(digits: string): string {
  const check = Number(BigInt(digits) % 97n) || 97;
  const bban = `${digits}${String(check).padStart(2, '0')}`;
  // ISO 13616: the country letters as numbers (B=11, E=14) and 00 after the account, mod 97.
  const remainder = Number(BigInt(`${bban}111400`) % 97n);
  return `BE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

// ---------------------------------------------------------------------------------------------------
// The examples, by operationId, with the path each one is served at.

interface Built {
  body: unknown;
  /** Path parameters besides consumer_id. */
  params?: Record<string, string>;
  /** Another consumer than the one /docs prefills for the path (see ExampleWorld.custom). */
  consumer?: string;
}

interface ExampleSpec {
  path: string;
  build: (w: ExampleWorld) => Built | undefined;
}

const clientBody = (w: ExampleWorld, role: 'client' | 'supplier') => {
  const { ledger, folder } = w.accounting;
  const reference = freeName(
    (ref) => Object.values(ledger.partners).some((p) => p.external_reference === ref),
    role === 'client' ? 'CRM-CLIENT-1042' : 'CRM-SUPPLIER-2042',
  );
  const name = role === 'client' ? 'Brasserie du Parc SRL' : 'Papeterie Lambert SA';
  const domain = role === 'client' ? 'brasserieduparc.example' : 'papeterie-lambert.example';
  return {
    external_reference: reference,
    name,
    is_company: true,
    email: `accounting@${domain}`,
    phone: '+32 2 511 42 10',
    website: `https://www.${domain}`,
    vat: role === 'client' ? 'BE0477123456' : 'BE0422654321',
    company_number: role === 'client' ? '0477123456' : '0422654321',
    currency: folder.main_currency,
    language: 'fr',
    addresses: [
      {
        address_type: 'main',
        street: role === 'client' ? 'Rue Royale' : 'Chaussée de Louvain',
        number: role === 'client' ? '180' : '62',
        city: 'Bruxelles',
        postal_code: '1000',
        country: folder.address.country ?? 'BE',
      },
    ],
  };
};

const EXAMPLES: Record<string, ExampleSpec> = {
  // ---- the platform --------------------------------------------------------------------------
  generate_access_token_token_post: {
    path: '/token',
    build: (w) => ({
      body: {
        accountId: w.prefill.accountId,
        clientId: w.prefill.clientId,
        clientSecret: w.prefill.clientSecret,
      },
    }),
  },
  generate_mcp_token_mcp_token_post: {
    path: '/mcp-token',
    build: (w) => ({
      body: {
        accountId: w.prefill.accountId,
        clientId: w.prefill.clientId,
        clientSecret: w.prefill.clientSecret,
        consumerId: w.accounting.consumerid,
        scopes: ['accounting.read', 'consumers.read'],
      },
    }),
  },
  consumers_create_consumer: {
    path: '/consumers',
    build: (w) => ({
      body: {
        name: 'Boulangerie Dupont',
        email: 'admin@boulangerie-dupont.example',
        internal_reference: 'CUST-2026-0042',
        redirect_url: `${w.origin}/console`,
      },
    }),
  },
  consumers_update_consumer: {
    path: '/consumers/{consumer_id}',
    build: () => ({
      body: { email: 'finance@consumer.example', internal_reference: 'CUST-2026-0007' },
    }),
  },
  connections_create_connection: {
    path: '/consumers/{consumer_id}/connections',
    build: (w) => {
      const integration = newConnectionIntegration(w);
      return { body: { integrationid: integration.integrationid, name: `${integration.name} (bank feed)` } };
    },
  },
  connections_update_connection: {
    path: '/consumers/{consumer_id}/connections/{connectionid}',
    build: (w) => {
      const { connection, integration } = w.accounting;
      return {
        body: { name: `${integration.name}: main company`, redirect: false },
        params: { connectionid: connection.connectionid },
      };
    },
  },
  webhooks_create_webhook: {
    path: '/webhooks',
    build: () => {
      const event = need(
        webhookTypes().find((t) => t.api === null && t.event.includes('connection')) ??
          webhookTypes().find((t) => t.api === null),
        'a platform event',
      );
      return {
        body: {
          event: event.event,
          url: 'https://hooks.vendor.example/unified',
          signingsecret: 'whsec-example-1',
        },
      };
    },
  },
  webhooks_update_webhook: {
    path: '/webhooks/{webhookid}',
    build: (w) => {
      const { accountid, envid } = w.environment;
      const webhooks = Object.values(w.world.webhooks).filter(
        (h) => h.accountid === accountid && h.envid === envid && !h.restricted_to,
      );
      const webhook = webhooks.sort((a, b) => a.createdon.localeCompare(b.createdon)).at(-1);
      const params: Record<string, string> = webhook ? { webhookid: webhook.webhookid } : {};
      return { body: { status: 'inactive' }, params };
    },
  },

  // ---- syncs and flows -----------------------------------------------------------------------
  syncs_post_sync: {
    path: '/syncs',
    build: () => ({
      body: {
        name: 'Orders to invoicing',
        connections: [
          { one_api: 3, connection_type: 1, display_order: 0 },
          { one_api: 4, connection_type: 2, display_order: 1 },
        ],
        flows: [
          {
            name: 'Send paid orders',
            execution: { type: 'module', data: { name: 'send-paid-orders' } },
            config: {
              definitionFields: [{ name: 'journal_code', title: 'Journal of the invoices', type: 'string' }],
              datastores: [],
            },
            triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 3 * * *'] }],
          },
        ],
      },
    }),
  },
  syncs_send_custom_event: {
    path: '/syncs/{syncid}/flows/{flowid}/event',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      return {
        body: { consumers: [consumerid], data: { is_preview: false } },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_create_synctoconsumer: {
    path: '/consumers/{consumer_id}/syncs',
    build: (w) => {
      const { sync, consumerid } = w.sync;
      // One integration per One API the sync connects: the consumer's own active ones.
      const chosen = new Map<string, number>();
      for (const connection of connectionsOfConsumer(w.world, consumerid)) {
        const api = w.services.catalogue.get(connection.integrationid)?.api;
        if (connection.status === 'active' && api && sync.integrationids.includes(connection.integrationid)) {
          chosen.set(api, connection.integrationid);
        }
      }
      return {
        body: {
          syncid: sync.syncid,
          integrationids: [...chosen.values()].map(String),
          link_metadata: { plan: 'premium' },
        },
      };
    },
  },
  syncs_update_synctoconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}',
    build: (w) => {
      const { sync, consumerid } = w.sync;
      // The sync's mapping of tax rates to VAT codes: each rate of the consumer's invoicing
      // software to the sale VAT code of that rate of its accounting folder (by code, as the seeded
      // mapping names them).
      const mapping = sync.mappings[0] as { name?: string; sub_mappings?: { name?: string }[] } | undefined;
      const { ledger } = w.ledgerOf(w.scopeOf(consumerid, 'Accounting'));
      const { connection } = w.scopeOf(consumerid, 'Invoicing');
      const taxes = invoicingDatasetOf(
        w.services.store,
        connection.consumerid,
        connection.connectionid,
        connection.integrationid,
      ).taxes;
      const rates = [
        ...new Set(
          Object.values(taxes)
            .filter((t) => t.active)
            .map((t) => t.rate),
        ),
      ];
      const values = rates
        .sort((a, b) => b - a)
        .flatMap((rate) => {
          const code = Object.values(ledger.vat_codes).find(
            (v) => v.active && v.type === 'sale' && v.scope === 'nat' && v.rate === rate,
          );
          return code ? [{ source_id: String(rate), target_id: code.code }] : [];
        });
      return {
        body: [
          {
            name: mapping?.name ?? 'VAT codes',
            display_order: 0,
            values,
            hidden_source_ids: [],
            sub_mapping_name: mapping?.sub_mappings?.[0]?.name ?? 'Tax rate to VAT code',
          },
        ],
        params: { syncid: sync.syncid },
      };
    },
  },
  syncs_enable_syncconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/enable',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      const current = own(w.world.flow_consumers, `${consumerid}:${flow.flowid}`);
      return {
        body: { triggerid: current?.triggerid ?? flow.triggers[0]?.id ?? null, data: current?.values ?? {} },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_update_flowtoconsumer: {
    path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}',
    build: (w) => {
      const { sync, flow, consumerid } = w.sync;
      const current = own(w.world.flow_consumers, `${consumerid}:${flow.flowid}`);
      return {
        body: { data: current?.values ?? {} },
        params: { syncid: sync.syncid, flowid: flow.flowid },
      };
    },
  },
  syncs_create_flow: {
    path: '/syncs/{syncid}/flows',
    build: (w) => ({
      body: {
        name: 'Send credit notes to accounting',
        execution: { type: 'code', data: { code: 'export default async function run() {}' } },
        config: { definitionFields: [], datastores: [] },
        triggers: [{ id: 'trigger-1', type: 'event' }],
      },
      params: { syncid: w.sync.sync.syncid },
    }),
  },
  syncs_report_local_run: {
    path: '/syncs/{syncid}/flows/{flowid}/local',
    build: (w) => ({
      body: { type: 'START' },
      params: { syncid: w.sync.sync.syncid, flowid: w.sync.flow.flowid },
    }),
  },
  consumers_post_logs: {
    path: '/consumers/{consumer_id}/logs',
    build: () => ({
      body: [
        { type: 'info', message: 'Imported 12 invoices', context: { invoices: 12 } },
        { type: 'warning', message: 'Skipped a credit note without lines' },
      ],
    }),
  },

  // ---- datalayer, datastores, datalab --------------------------------------------------------
  datalayer_enable: {
    path: '/consumers/{consumer_id}/connections/{connection_id}/enable_datalayer',
    build: (w) => ({
      body: { from_date: `${Number(w.today.slice(0, 4)) - 1}-01-01`, full_history: false },
      params: { connection_id: w.accounting.connection.connectionid },
    }),
  },
  datalayer_refresh: {
    path: '/consumers/{consumer_id}/connections/{connection_id}/refresh_datalayer',
    build: (w) => ({
      body: { force_from_date: `${w.today.slice(0, 7)}-01` },
      params: { connection_id: w.accounting.connection.connectionid },
    }),
  },
  datastores_create_consumer_datastoredata: {
    path: '/consumers/{consumer_id}/datastore/{datastoreid}/data',
    build: (w) => {
      const { datastore } = consumerDatastore(w);
      return {
        body: [{ data: rowData(w, datastore.definition.columns, 'new') }],
        params: { datastoreid: datastore.datastoreid },
      };
    },
  },
  datastores_update_consumer_datastoredata: {
    path: '/consumers/{consumer_id}/datastore/{datastoreid}/data/{datastoredataid}',
    build: (w) => {
      const { datastore, row } = consumerDatastore(w);
      return {
        body: { data: rowData(w, datastore.definition.columns, 'change') },
        params: { datastoreid: datastore.datastoreid, datastoredataid: need(row, 'a row').datastoredataid },
      };
    },
  },
  datalab_query_db: {
    path: '/datalab/query-db',
    build: (w) => ({
      body: {
        measures: ['pos_orders.total', 'pos_orders.count'],
        timeDimensions: [
          { dimension: 'pos_orders.closing_date', granularity: 'month', dateRange: 'last 3 months' },
        ],
        filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: [w.pos.consumerid] }],
      },
    }),
  },
  datalab_query_groups_join: {
    path: '/datalab/query-groups-join',
    build: (w) => ({
      body: {
        queries: [
          {
            measures: ['pos_orders.total'],
            timeDimensions: [
              { dimension: 'pos_orders.closing_date', granularity: 'month', dateRange: 'last 3 months' },
            ],
            filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: [w.pos.consumerid] }],
          },
          {
            measures: ['commerce_orders.count'],
            timeDimensions: [
              { dimension: 'commerce_orders.created_on', granularity: 'month', dateRange: 'last 3 months' },
            ],
            filters: [
              { member: 'commerce_orders.consumer_id', operator: 'equals', values: [w.commerce.consumerid] },
            ],
          },
        ],
        align: [['pos_orders.closing_date.month', 'commerce_orders.created_on.month']],
      },
    }),
  },

  // ---- accounting ----------------------------------------------------------------------------
  accounting_create_client: {
    path: '/consumers/{consumer_id}/accounting/clients',
    build: (w) => ({ body: clientBody(w, 'client') }),
  },
  accounting_update_client: {
    path: '/consumers/{consumer_id}/accounting/clients/{client_id}',
    build: (w) => {
      const client = need(activeClients(w.accounting.ledger)[0], 'an active client');
      return {
        body: { email: 'invoices@client.example', phone: '+32 2 640 11 22', language: 'nl' },
        params: { client_id: client.id },
      };
    },
  },
  accounting_create_supplier: {
    path: '/consumers/{consumer_id}/accounting/suppliers',
    build: (w) => ({ body: clientBody(w, 'supplier') }),
  },
  accounting_update_supplier: {
    path: '/consumers/{consumer_id}/accounting/suppliers/{supplier_id}',
    build: (w) => {
      const supplier = need(activeSuppliers(w.accounting.ledger)[0], 'an active supplier');
      return {
        body: { email: 'billing@supplier.example', iban: belgianIban('0016387459') },
        params: { supplier_id: supplier.id },
      };
    },
  },
  accounting_create_invoice: {
    path: '/consumers/{consumer_id}/accounting/invoices',
    build: (w) => ({ body: accountingInvoice(w, 'single') }),
  },
  accounting_create_invoice_multiple_plans: {
    path: '/consumers/{consumer_id}/accounting/invoices/multi-analytic-plans',
    build: (w) => ({ body: accountingInvoice(w, 'multi') }),
  },
  accounting_create_invoices_batch: {
    path: '/consumers/{consumer_id}/accounting/batch/invoices',
    build: (w) => ({ body: { invoices: [accountingInvoice(w, 'single')] } }),
  },
  accounting_create_analytic_account: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts',
    build: (w) => {
      const { ledger, folder } = w.accounting;
      const plan = need(
        Object.values(ledger.analytic_plans).find((p) => p.active),
        'an active analytic plan',
      );
      const code = freeAnalyticCode(ledger, plan.id, 'MKT');
      return { body: { code, name: 'Marketing', currency: folder.main_currency, active: true } };
    },
  },
  accounting_create_analytic_account_multi_plans: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/multi-analytic-plans/{analytic_plan}',
    build: (w) => {
      const { ledger, folder } = w.accounting;
      const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
      const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
      const code = freeAnalyticCode(ledger, plan.id, 'PRJ-200');
      return {
        body: { code, name: 'Website redesign', currency: folder.main_currency, active: true },
        params: { analytic_plan: plan.id },
      };
    },
  },
  accounting_update_analytic_account: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}',
    build: (w) => {
      const { ledger } = w.accounting;
      const plan = Object.values(ledger.analytic_plans).find((p) => p.active);
      const account = need(
        Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan?.id),
        'an analytic account',
      );
      return {
        body: { name: `${account.name} (Belgium)` },
        params: { analytic_account_id: account.id },
      };
    },
  },
  accounting_update_analytic_account_multi_plans: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}/multi-analytic-plans/{analytic_plan}',
    build: (w) => {
      const { ledger } = w.accounting;
      const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
      const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
      const account = need(
        Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan.id),
        'an analytic account',
      );
      return {
        body: { name: `${account.name} (phase 2)`, active: true },
        params: { analytic_account_id: account.id, analytic_plan: plan.id },
      };
    },
  },
  accounting_create_generic_journal_entry: {
    path: '/consumers/{consumer_id}/accounting/journal-entries',
    build: (w) => {
      const { ledger } = w.accounting;
      const journal = journalOf(ledger, 'miscellaneous_operation');
      const year = need(bookYearOf(ledger, w.today), 'a book year');
      const supplier = need(activeSuppliers(ledger)[0], 'an active supplier');
      const vat = vatCode(ledger, 'purchase');
      const untaxed = 1250;
      const tax = round2((untaxed * vat.rate) / 100);
      return {
        body: {
          journal_id: journal.id,
          number: mintDocumentNumber(ledger, journal, year.name).number,
          reference: 'Rent Q1',
          currency: ledger.folder.main_currency,
          date: w.today,
          posted: true,
          items: [
            {
              account_type: 'general_account',
              account: accountOf(ledger, 'expense', '61'),
              debit: untaxed,
              credit: 0,
              tax_code: vat.id,
            },
            {
              account_type: 'general_account',
              account: accountOf(ledger, 'vat', '411'),
              debit: tax,
              credit: 0,
            },
            {
              account_type: 'supplier_account',
              account: supplier.id,
              debit: 0,
              credit: round2(untaxed + tax),
            },
          ],
        },
      };
    },
  },
  accounting_create_journal_entry: {
    path: '/consumers/{consumer_id}/accounting/journal/entries',
    build: (w) => {
      const { ledger } = w.accounting;
      const journal = journalOf(ledger, 'miscellaneous_operation');
      const year = need(bookYearOf(ledger, w.today), 'a book year');
      const currency = ledger.folder.main_currency;
      return {
        body: {
          journal_id: journal.id,
          name: mintDocumentNumber(ledger, journal, year.name).number,
          reference: 'Accrued electricity',
          date: w.today,
          items: [
            { account_number: accountOf(ledger, 'expense', '61'), debit: 320, credit: 0, currency },
            { account_number: accountOf(ledger, 'other', '49'), debit: 0, credit: 320, currency },
          ],
        },
      };
    },
  },
  accounting_create_invoice_payment: {
    path: '/consumers/{consumer_id}/accounting/invoices/payments',
    build: (w) => {
      const { ledger } = w.accounting;
      const { invoice, open } = openInvoice(ledger, 0);
      const method = need(
        Object.values(ledger.payment_methods).find(
          (m) => own(ledger.journals, m.journal_id)?.counterpart_account?.startsWith('55') === true,
        ) ?? Object.values(ledger.payment_methods)[0],
        'a payment method',
      );
      return {
        body: {
          date: w.today,
          payment_method_id: method.id,
          currency: invoice.currency,
          reference: `Payment ${invoice.invoice_number}`,
          items: [{ invoice_id: invoice.id, amount: open }],
        },
      };
    },
  },
  accounting_create_journal: {
    path: '/consumers/{consumer_id}/accounting/journal',
    build: (w) => {
      const { ledger } = w.accounting;
      const codes = new Set(Object.values(ledger.journals).map((j) => j.code.toUpperCase()));
      return {
        body: {
          code: freeName((c) => codes.has(c), 'VWEB'),
          name: 'Web shop sales',
          journal_type: 'customer_invoice',
        },
      };
    },
  },
  accounting_create_miscellaneous_operation: {
    path: '/consumers/{consumer_id}/accounting/miscellaneous-operation',
    build: (w) => {
      const { ledger } = w.accounting;
      // Amounts are credits when positive, debits when negative, and add up to zero.
      return {
        body: {
          currency: ledger.folder.main_currency,
          operation_date: w.today,
          journal_id: journalOf(ledger, 'miscellaneous_operation').id,
          status: 'posted',
          lines: [
            {
              line_number: 1,
              type: 'general_account',
              account_number: accountOf(ledger, 'expense', '61'),
              amount: -480,
            },
            {
              line_number: 2,
              type: 'general_account',
              account_number: accountOf(ledger, 'other', '49'),
              amount: 480,
            },
          ],
        },
      };
    },
  },
  accounting_match_entries: {
    path: '/consumers/{consumer_id}/accounting/matching',
    build: (w) => {
      const pair = matchablePair(w.accounting.ledger) ?? unmatchedInvoice(w);
      return { body: { entries: pair.entries, partner_id: pair.partnerId } };
    },
  },
  accounting_match_entries_multiple: {
    path: '/consumers/{consumer_id}/accounting/matching-multiple',
    build: (w) => {
      const pair = matchablePair(w.accounting.ledger) ?? unmatchedInvoice(w);
      return { body: { matchings: [{ entries: pair.entries, partner_id: pair.partnerId }] } };
    },
  },
  accounting_add_attachment: {
    path: '/consumers/{consumer_id}/accounting/invoices/pdf/{invoice_id}',
    build: (w) => {
      const { ledger } = w.accounting;
      const attached = new Set(
        Object.values(ledger.attachments)
          .filter((a) => a.document_type === 'invoice')
          .map((a) => a.document_id),
      );
      const invoice = need(
        Object.values(ledger.invoices)
          .filter((i) => !attached.has(i.id) && i.status !== 'cancelled')
          .sort(
            (a, b) =>
              b.invoice_date.localeCompare(a.invoice_date) ||
              b.invoice_number.localeCompare(a.invoice_number),
          )[0],
        'an invoice without a PDF',
      );
      return {
        body: { base64_string: EXAMPLE_PDF, name: `${invoice.invoice_number.replace(/\W+/g, '-')}.pdf` },
        params: { invoice_id: invoice.id },
      };
    },
  },
  accounting_add_document_attachment: {
    path: '/consumers/{consumer_id}/accounting/attachments',
    build: (w) => {
      const { ledger } = w.accounting;
      const attached = new Set(Object.values(ledger.attachments).map((a) => a.document_id));
      const entry = need(
        Object.values(ledger.entries)
          .filter((e) => e.posted && e.invoice_id === null && !attached.has(e.id))
          .sort((a, b) => b.date.localeCompare(a.date) || b.number.localeCompare(a.number))[0],
        'an entry without a document',
      );
      return {
        body: { base64_string: EXAMPLE_PDF, name: 'receipt.pdf', type: 'entry', document_id: entry.id },
      };
    },
  },
  accounting_get_accounts_balances: {
    path: '/consumers/{consumer_id}/accounting/chart-of-accounts/balance',
    build: (w) => {
      const { ledger } = w.accounting;
      const month = w.today.slice(0, 7).replace('-', '');
      return {
        body: {
          accounts: [
            ledger.defaults.receivable_account,
            ledger.defaults.payable_account,
            accountOf(ledger, 'income', '70'),
          ],
          start: `${month.slice(0, 4)}01`,
          end: month,
        },
      };
    },
  },
  accounting_create_bank_account: {
    path: '/consumers/{consumer_id}/accounting/bank-accounts',
    build: (w) => {
      const { ledger } = w.accounting;
      const codes = new Set(Object.values(ledger.journals).map((j) => j.code.toUpperCase()));
      const ibans = new Set(
        Object.values(ledger.journals).map((j) => j.iban?.replace(/\s+/g, '').toUpperCase()),
      );
      let account = 3_630_000_042;
      while (ibans.has(belgianIban(String(account)))) account += 1;
      return {
        body: {
          code: freeName((c) => codes.has(c), 'BNK2'),
          currency: ledger.folder.main_currency,
          account_name: 'Savings account',
          iban: belgianIban(String(account)),
          bank_name: 'ING Belgium',
        },
      };
    },
  },
  accounting_create_bank_transactions: {
    path: '/consumers/{consumer_id}/accounting/bank-transactions',
    build: (w) => {
      const { ledger } = w.accounting;
      const bank = bankJournal(ledger);
      const { invoice, open } = openInvoice(ledger, 1);
      const client = need(own(ledger.partners, invoice.partner_id), 'the client');
      const statements = Object.values(ledger.bank_statements ?? {});
      const statement = freeName(
        (id) => statements.some((s) => s.external_bank_statement_id === id),
        `STMT-${w.today}`,
      );
      return {
        body: {
          bank_statement_date: w.today,
          bank_account_id: bank.id,
          currency: bank.currency ?? ledger.folder.main_currency,
          external_bank_statement_id: statement,
          items: [
            {
              external_transaction_id: `${statement}-1`,
              amount: open,
              counterpart: { counterpart_type: 'customer', id: client.id, name: client.name },
            },
            {
              external_transaction_id: `${statement}-2`,
              amount: -12.5,
              general_ledger_account: accountOf(ledger, 'other_expense', '65'),
            },
          ],
        },
      };
    },
  },
  accounting_create_financial_entries: {
    path: '/consumers/{consumer_id}/accounting/financial-entries',
    build: (w) => {
      const { ledger } = w.accounting;
      const { invoice, open } = openInvoice(ledger, 2);
      return {
        body: {
          date: w.today,
          journal_id: bankJournal(ledger).id,
          currency: invoice.currency,
          reference: `Transfer ${invoice.invoice_number}`,
          items: [
            {
              account_type: 'customer_account',
              account: invoice.partner_id,
              amount: open,
              automated_matching_number: invoice.invoice_number,
            },
          ],
        },
      };
    },
  },
  accounting_create_financial_entry: {
    path: '/consumers/{consumer_id}/accounting/financial-entry',
    build: (w) => {
      const { ledger } = w.accounting;
      const supplier = need(activeSuppliers(ledger)[0], 'an active supplier');
      return {
        body: {
          date: w.today,
          journal_id: bankJournal(ledger).id,
          currency: ledger.folder.main_currency,
          reference: 'Supplier transfer',
          items: [
            {
              type: 'supplier_account',
              account_number: supplier.supplier_account ?? ledger.defaults.payable_account,
              partner_id: supplier.id,
              amount: -350,
            },
          ],
        },
      };
    },
  },
  accounting_create_expense: {
    path: '/consumers/{consumer_id}/accounting/expenses',
    build: (w) => {
      const { ledger } = w.accounting;
      const employee = need(
        Object.values(ledger.employees).find((e) => e.active),
        'an active employee',
      );
      const vat = vatCode(ledger, 'purchase');
      const amounts = invoiceAmounts(vat.rate, [
        { quantity: 1, unit_price: 64.2 },
        { quantity: 1, unit_price: 18.5 },
      ]);
      return {
        body: {
          employee_id: employee.id,
          currency: ledger.folder.main_currency,
          date: w.today,
          reference: 'Client visit',
          untaxed_amount: amounts.untaxed_amount,
          tax_amount: amounts.tax_amount,
          total: amounts.total,
          lines: amounts.lines.map((line) => ({
            untaxed_amount: line.untaxed_amount,
            tax_rate: line.tax_rate,
            tax_amount: line.tax_amount,
            total: line.total,
            account_number: accountOf(ledger, 'expense', '61'),
            tax_id: vat.id,
          })),
        },
      };
    },
  },
  accounting_create_ledger_account: {
    path: '/consumers/{consumer_id}/accounting/accounts',
    build: (w) => {
      const { ledger } = w.accounting;
      let number = 613_100;
      while (own(ledger.accounts, String(number))) number += 100;
      return { body: { number: String(number), name: 'Software subscriptions', type: 'expense' } };
    },
  },
  accounting_custom_post: {
    path: '/consumers/{consumer_id}/accounting/custom/{custom_path}',
    build: (w) =>
      customPost(w, w.accounting.connection, 'exports', 'EXPORT', {
        format: 'FEC',
        date_from: `${w.today.slice(0, 4)}-01-01`,
        date_to: w.today,
      }),
  },
  accounting_custom_patch: {
    path: '/consumers/{consumer_id}/accounting/custom/{custom_path}',
    build: (w) => customPatch(w, w.accounting.connection, 'exports', 'EXPORT', { status: 'sent' }),
  },

  // ---- invoicing -----------------------------------------------------------------------------
  invoicing_post_contacts: {
    path: '/consumers/{consumer_id}/invoicing/contacts',
    build: () => ({
      body: {
        is_customer: true,
        is_company: true,
        company_name: 'Atelier Verhaegen SRL',
        email: 'hello@atelier-verhaegen.example',
        phone: '+32 9 223 45 67',
        vat: 'BE0455987321',
        currency: 'EUR',
        language: 'nl',
        addresses: [
          {
            address_type: 'main',
            street: 'Korenmarkt',
            number: '14',
            city: 'Gent',
            postal_code: '9000',
            country: 'BE',
          },
        ],
      },
    }),
  },
  invoicing_post_products: {
    path: '/consumers/{consumer_id}/invoicing/products',
    build: (w) => {
      const tax = standardTax(w.invoicing.data);
      const codes = new Set(Object.values(w.invoicing.data.products).map((p) => p.code));
      return {
        body: {
          name: 'Website maintenance (monthly)',
          code: freeName((c) => codes.has(c), 'MAINT-M'),
          unit_price: 290,
          unit: 'month',
          category: 'Services',
          currency: 'EUR',
          tax_id: tax.id,
        },
      };
    },
  },
  invoicing_post_invoices: {
    path: '/consumers/{consumer_id}/invoicing/invoices',
    build: (w) => {
      const { data } = w.invoicing;
      const customer = need(
        Object.values(data.contacts).find((c) => c.is_customer && c.currency !== 'USD'),
        'a customer',
      );
      const tax = standardTax(data);
      const product = need(
        Object.values(data.products).find((p) => p.tax_id === tax.id && p.unit_price !== null),
        'a product at the standard rate',
      );
      const amounts = invoiceAmounts(tax.rate, [{ quantity: 3, unit_price: product.unit_price ?? 0 }]);
      return {
        body: {
          invoice_type: 'customer_invoice',
          status: 'posted',
          currency: 'EUR',
          invoice_date: w.today,
          due_date: addDays(w.today, 30),
          partner_id: customer.id,
          reference: 'Order 2026-118',
          untaxed_amount: amounts.untaxed_amount,
          tax_amount: amounts.tax_amount,
          total: amounts.total,
          lines: amounts.lines.map((line) => ({
            ...line,
            product_id: product.id,
            product_name: product.name,
            tax_id: tax.id,
          })),
        },
      };
    },
  },
  invoicing_upload_document: {
    path: '/consumers/{consumer_id}/invoicing/upload-document',
    build: () => ({ body: { base64_string: EXAMPLE_PDF, document_type: 'supplier_document' } }),
  },
  invoicing_create_payment: {
    path: '/consumers/{consumer_id}/invoicing/payments',
    build: (w) => {
      const { data } = w.invoicing;
      const open = Object.values(data.invoices)
        .filter((i) => i.status === 'posted' && i.invoice_type === 'customer_invoice' && i.currency === 'EUR')
        .map((invoice) => ({ invoice, outstanding: outstandingOf(data, invoice) }))
        .filter(({ outstanding }) => outstanding > 0)
        .sort((a, b) => a.invoice.invoice_date.localeCompare(b.invoice.invoice_date));
      const { invoice, outstanding } = need(open[0], 'an open invoice');
      const method = need(Object.values(data.payment_methods)[0], 'a payment method');
      return {
        body: {
          invoice_id: invoice.id,
          amount: outstanding,
          currency: invoice.currency,
          date: w.today,
          payment_method_id: method.id,
        },
      };
    },
  },
  invoicing_update_payment: {
    path: '/consumers/{consumer_id}/invoicing/payments/{payment_id}',
    build: (w) => {
      const { data } = w.invoicing;
      const payment = need(
        Object.values(data.payments)
          .filter((p) => own(data.invoices, p.invoice_id)?.status === 'posted')
          .sort((a, b) => b.payment_date.localeCompare(a.payment_date))[0],
        'a payment of a posted invoice',
      );
      const other = Object.values(data.payment_methods).find((m) => m.id !== payment.payment_method_id);
      return {
        body: {
          payment_method_id: other?.id ?? payment.payment_method_id,
          date: payment.payment_date.slice(0, 10),
        },
        params: { payment_id: payment.id },
      };
    },
  },
  invoicing_create_opportunity: {
    path: '/consumers/{consumer_id}/invoicing/opportunities',
    build: (w) => {
      const { data } = w.invoicing;
      const customer = need(
        Object.values(data.contacts).find((c) => c.is_customer),
        'a customer',
      );
      return {
        body: {
          name: 'Yearly maintenance contract',
          total: 3480,
          probability: 40,
          status: 'open',
          partner_id: customer.id,
          currency: 'EUR',
          pipe_name: 'Sales pipeline',
          due_date: addDays(w.today, 45),
        },
      };
    },
  },
  invoicing_custom_post: {
    path: '/consumers/{consumer_id}/invoicing/custom/{custom_path}',
    build: (w) =>
      customPost(w, w.invoicing.connection, 'quotes', 'QUOTE', {
        partner_id: need(
          Object.values(w.invoicing.data.contacts).find((c) => c.is_customer),
          'a customer',
        ).id,
        total: 1450,
        currency: 'EUR',
      }),
  },
  invoicing_custom_patch: {
    path: '/consumers/{consumer_id}/invoicing/custom/{custom_path}',
    build: (w) => customPatch(w, w.invoicing.connection, 'quotes', 'QUOTE', { status: 'accepted' }),
  },

  // ---- banking, point of sale, ecommerce -----------------------------------------------------
  banking_custom_post: {
    path: '/consumers/{consumer_id}/banking/{custom_path}',
    // Below banking/ the custom path starts with custom/ by convention.
    build: (w) =>
      customPost(w, w.scope('banking', 'Banking').connection, 'custom/payment-batches', 'BATCH', {
        execution_date: addDays(w.today, 1),
        total: 2150,
        currency: 'EUR',
      }),
  },
  pos_create_pos_customer: {
    path: '/consumers/{consumer_id}/pos/customers',
    build: (w) => ({
      body: {
        first_name: 'Camille',
        last_name: 'Lambert',
        phone: '+32 470 12 34 56',
        email: 'camille.lambert@mail.example',
        address: {
          name: 'Home',
          street: 'Rue de Namur',
          number: '21',
          city: need(w.pos.data.locations[0]?.address?.city, 'a location'),
          postal_code: w.pos.data.locations[0]?.address?.postal_code ?? '1000',
          country: 'BE',
        },
      },
    }),
  },
  pos_update_pos_customer: {
    path: '/consumers/{consumer_id}/pos/orders/{order_id}',
    build: (w) => {
      const { data } = w.pos;
      const open = new Set(data.open_orders);
      const order = need(
        Object.values(data.orders)
          .filter((o) => !open.has(o.id) && o.customer_id === null)
          .at(-1),
        'a closed order without a customer',
      );
      const customer = need(Object.values(data.customers)[0], 'a customer');
      return { body: { customer_id: customer.id }, params: { order_id: order.id } };
    },
  },
  ecommerce_update_variant_quantity: {
    path: '/consumers/{consumer_id}/commerce/variants/set_quantity/{variant_id}',
    build: (w) => {
      const { variant, location } = shopVariant(w.commerce.data);
      return {
        body: { location_id: location.id, available_quantity: (variant.stock[location.id] ?? 0) + 24 },
        params: { variant_id: variant.id },
      };
    },
  },
  ecommerce_create_order: {
    path: '/consumers/{consumer_id}/commerce/orders',
    build: (w) => {
      const { data } = w.commerce;
      const currency = need(data.currencies[0], 'a currency');
      const { product, variant } = shopVariant(data);
      const price = need(
        variant.prices.find((p) => p.currency === currency),
        'a price',
      ).price;
      const rate = data.tax_rates.find((t) => t.id === product.tax_id)?.rate ?? 0;
      // A customer of the shop (found by e-mail): a new one would need a phone no one else has.
      const customer = need(
        Object.values(data.customers).find((c) => c.email && c.first_name && c.last_name),
        'a customer',
      );
      const address = customer.addresses[0];
      const postal = {
        first_name: customer.first_name ?? '',
        last_name: customer.last_name ?? '',
        street: address?.street ?? 'Meir',
        number: address?.number ?? '1',
        city: address?.city ?? 'Antwerpen',
        postal_code: address?.postal_code ?? '2000',
        country: address?.country ?? 'BE',
      };
      const method = data.payment_methods.find((m) => m.active);
      return {
        body: {
          customer: {
            email: customer.email,
            first_name: customer.first_name,
            last_name: customer.last_name,
          },
          billing_address: postal,
          shipping_address: postal,
          currency,
          note: 'Gift wrapping, please',
          lines: [{ variant_id: variant.id, quantity: 2, tax_rate: rate, unit_price: price }],
          ...(method ? { payment_method: method.id } : {}),
        },
      };
    },
  },

  // ---- what the sandbox adds -----------------------------------------------------------------
  custom_connector_post: {
    path: '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
    build: (w) => {
      const { consumerid, connection, connector } = w.custom;
      const built = customPost(w, connection, 'imports', 'IMPORT', { source: 'orders', rows: 3 });
      return { ...built, params: { connector, ...built.params }, consumer: consumerid };
    },
  },
  custom_connector_patch: {
    path: '/consumers/{consumer_id}/custom/{connector}/{custom_path}',
    build: (w) => {
      const { consumerid, connection, connector } = w.custom;
      const built = customPatch(w, connection, 'imports', 'IMPORT', { status: 'done' });
      return { ...built, params: { connector, ...built.params }, consumer: consumerid };
    },
  },
  sandbox_complete_connection_link: {
    path: '/link/{linkid}',
    build: (w) => {
      // The newest open link of the sandbox environment's consumers, with the credentials its
      // integration asks for (the sandbox's values, as seeded connections hold).
      const { accountid, envid } = w.environment;
      const link = Object.values(w.world.links)
        .filter((l) => {
          const consumer = own(w.world.consumers, l.consumerid);
          return l.completed_on === null && consumer?.accountid === accountid && consumer.envid === envid;
        })
        .sort((a, b) => a.created_on.localeCompare(b.created_on))
        .at(-1);
      // No open link yet: the one the connection example makes, for the integration it names.
      const integration = need(
        !link
          ? newConnectionIntegration(w)
          : link.integrationid !== null
            ? w.services.catalogue.get(link.integrationid)
            : w.services.catalogue.integrations.find(
                (i) => i.status === 'active' && (link.apis === null || link.apis.includes(i.api)),
              ),
        'the integration of the link',
      );
      const credentials = Object.fromEntries(
        connectionCredentials(integration)
          .filter((c) => !c.optional)
          .map((c) => [c.name, `sandbox-${c.name}`]),
      );
      const postConnections = Object.fromEntries(
        mandatoryPostConnections(integration).map((p) => [p.id, `sandbox-${p.id}`]),
      );
      return {
        body: {
          ...(link?.integrationid === null ? { integrationid: integration.integrationid } : {}),
          credentials,
          ...(Object.keys(postConnections).length ? { post_connections: postConnections } : {}),
        },
        params: (link ? { linkid: link.linkid } : {}) as Record<string, string>,
      };
    },
  },
  sandbox_set_clock: {
    path: '/__sandbox/clock',
    build: () => ({ body: { advance_seconds: 3600 } }),
  },
  sandbox_arm_failure: {
    path: '/__sandbox/failures',
    build: (w) => ({
      body: {
        flowid: w.sync.flow.flowid,
        consumerid: w.sync.consumerid,
        count: 1,
        error_code: 'ERROR_AUTHENTICATION_FAILED',
        level: 'error',
        message: 'The credentials of the accounting software expired',
      },
    }),
  },
  sandbox_add_fault: {
    path: '/__sandbox/faults',
    build: (w) => ({
      body: {
        match: {
          method: 'GET',
          path: '/consumers/{consumer_id}/accounting/invoices',
          consumer_id: w.accounting.consumerid,
        },
        effect: { status: 503, headers: { 'Retry-After': '5' } },
        times: 1,
      },
    }),
  },
  sandbox_load_fixtures: {
    path: '/__sandbox/fixtures',
    build: (w) => ({
      body: {
        consumers: [
          {
            name: 'Fixture Bakery',
            ref: 'bakery',
            connections: [
              {
                integration: w.accounting.integration.integrationid,
                accounting: {
                  clients: [
                    {
                      name: 'Hotel Métropole',
                      is_company: true,
                      addresses: [
                        {
                          address_type: 'main',
                          street: 'Place de Brouckère',
                          number: '31',
                          city: 'Bruxelles',
                          postal_code: '1000',
                          country: 'BE',
                        },
                      ],
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    }),
  },
};

/**
 * The integration a new connection of the prefilled consumer is made for: one of a One API it has no
 * connection of (a bank feed when it has none), so that it clashes with none of its connections.
 */
function newConnectionIntegration(w: ExampleWorld): Integration {
  const consumerid = need(w.consumerFor('/consumers/{consumer_id}/connections'), 'a consumer');
  const apis = new Set(
    connectionsOfConsumer(w.world, consumerid).map((c) => w.services.catalogue.get(c.integrationid)?.api),
  );
  const offered = w.services.catalogue.integrations.filter((i) => i.status === 'active' && !apis.has(i.api));
  return need(offered.find((i) => i.api === 'Banking') ?? offered[0], 'an integration of another One API');
}

/** A free code in an analytic plan (codes are unique per plan, in any case). */
function freeAnalyticCode(ledger: LedgerRecord, planId: string, candidate: string): string {
  const codes = new Set(
    Object.values(ledger.analytic_accounts)
      .filter((a) => a.plan_id === planId)
      .map((a) => a.code.toUpperCase()),
  );
  return freeName((code) => codes.has(code.toUpperCase()), candidate);
}

/**
 * Without a pair of open lines to match (the seeded ledgers have none: every receipt is matched),
 * the matching names the oldest open invoice the bank receipt example pays: once that statement
 * is imported, the examples name both.
 */
function unmatchedInvoice(w: ExampleWorld): { partnerId: string; entries: string[] } {
  const { invoice } = openInvoice(w.accounting.ledger, 1);
  return { partnerId: invoice.partner_id, entries: [invoice.id] };
}

/** The invoicing software's active standard rate (the highest). */
function standardTax(data: InvoicingDataset) {
  return need(
    Object.values(data.taxes)
      .filter((t) => t.active && t.type !== 'purchase')
      .sort((a, b) => b.rate - a.rate)[0],
    'an active tax',
  );
}

/** A published product's first variant, and the shop's first stock location. */
function shopVariant(data: CommerceDataset) {
  const product = need(
    Object.values(data.products).find((p) => p.status === 'published' && p.variants.length > 0),
    'a published product',
  );
  const variant = need(product.variants[0], 'a variant');
  const location = need(data.locations[0], 'a stock location');
  return { product, variant, location };
}

/** The consumer's datastore for /docs: an active one of its account where it keeps rows. */
function consumerDatastore(w: ExampleWorld) {
  const consumerid = need(w.consumerFor('/consumers/{consumer_id}/datastore'), 'a consumer');
  const consumer = need(own(w.world.consumers, consumerid), 'the consumer');
  const rows = Object.values(w.world.datastore_data).filter((r) => r.consumerid === consumerid);
  const active = Object.values(w.world.datastores).filter(
    (d) => d.accountid === consumer.accountid && d.status === 'active',
  );
  // Preferably one with an optional column, so that an update changes one column alone.
  const withRows = active.filter((d) => rows.some((r) => r.datastoreid === d.datastoreid));
  const datastore = need(
    withRows.find((d) => d.definition.columns.some((c) => c.optional)) ?? withRows[0] ?? active[0],
    'an active datastore',
  );
  const row = rows.filter((r) => r.datastoreid === datastore.datastoreid).at(-1);
  return { datastore, row };
}

/** A row of a datastore: every column for a new row, one column (optional if any) for a change. */
function rowData(
  w: ExampleWorld,
  columns: readonly { name: string; type: string; optional: boolean }[],
  kind: 'new' | 'change',
): Record<string, unknown> {
  const now = w.services.clock.now().toISOString();
  const value = (column: { name: string; type: string }) => {
    switch (column.type) {
      case 'number':
        return 1250.5;
      case 'integer':
        return 3;
      case 'boolean':
        return true;
      case 'date':
        return w.today;
      case 'datetime':
        return now;
      default:
        return kind === 'change' ? 'Checked by hand' : `${column.name.replace(/_/g, '-').toUpperCase()}-1042`;
    }
  };
  if (kind === 'change') {
    const column = need(columns.find((c) => c.optional) ?? columns[0], 'a column');
    return { [column.name]: value(column) };
  }
  return Object.fromEntries(columns.map((c) => [c.name, value(c)]));
}

/** The records a connection's custom paths hold, by path then id (none in the seeded world). */
function customRecords(
  w: ExampleWorld,
  connection: ConnectionRecord,
): Record<string, Record<string, unknown>> {
  const holders = (
    w.world as { custom_records?: Record<string, { collections?: Record<string, Record<string, unknown>> }> }
  ).custom_records;
  return (holders && own(holders, connection.connectionid)?.collections) ?? {};
}

/** The id a new record of a custom path takes: the first of PREFIX-1, PREFIX-2... the path lacks. */
function freeCustomId(w: ExampleWorld, connection: ConnectionRecord, path: string, prefix: string): string {
  const records = own(customRecords(w, connection), path) ?? {};
  let n = 1;
  while (own(records, `${prefix}-${n}`)) n += 1;
  return `${prefix}-${n}`;
}

/** A POST to a custom path: the body keeps its own id, so that the record is easy to name after. */
function customPost(
  w: ExampleWorld,
  connection: ConnectionRecord,
  path: string,
  prefix: string,
  fields: Record<string, unknown>,
): Built {
  return {
    body: { id: freeCustomId(w, connection, path, prefix), ...fields },
    params: { custom_path: path },
  };
}

/**
 * A PATCH of a record of a custom path: the newest one the path holds, else the one its POST example
 * creates (see EXAMPLE_PREREQUISITES).
 */
function customPatch(
  w: ExampleWorld,
  connection: ConnectionRecord,
  path: string,
  prefix: string,
  fields: Record<string, unknown>,
): Built {
  const held = Object.keys(own(customRecords(w, connection), path) ?? {});
  const id = held.at(-1) ?? freeCustomId(w, connection, path, prefix);
  return { body: fields, params: { custom_path: `${path}/${id}` } };
}

/** The path each example is served at, by operationId (what the tests check the documents against). */
export const EXAMPLE_PATHS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(EXAMPLES).map(([operationId, { path }]) => [operationId, path]),
);
