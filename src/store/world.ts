/**
 * The stored world: one JSON document. Records are kept in maps keyed by their id so that a lookup
 * stays O(1) on a world of 100,000 consumers. Field names follow the service's own words.
 */

export type EnvironmentKind = 'sandbox' | 'production';
export type ActiveStatus = 'active' | 'inactive';

export interface AccountRecord {
  accountid: string;
  name: string;
}

export interface EnvironmentRecord {
  envid: string;
  accountid: string;
  name: string;
  kind: EnvironmentKind;
}

export interface ApiKeyRecord {
  clientid: string;
  accountid: string;
  envid: string;
  name: string;
  /** sha256 of the secret: the secret itself is shown once and never stored. */
  secret_sha256: string;
  /** null: every consumer of the environment; otherwise the consumers the key may reach. */
  consumers: string[] | null;
  /** Scopes an MCP token minted with this key may carry. */
  mcp_scopes: string[];
  created_on: string;
  deleted_on: string | null;
}

export interface ConsumerRecord {
  consumerid: string;
  accountid: string;
  envid: string;
  name: string;
  email: string | null;
  internal_reference: string | null;
  redirect_url: string | null;
  created_on: string;
}

export interface ConnectionRecord {
  connectionid: string;
  consumerid: string;
  integrationid: number;
  name: string;
  status: ActiveStatus;
  credentials: Record<string, string>;
  post_connections: Record<string, string>;
  datetimes: Record<string, string>;
  data: Record<string, unknown> | null;
  created_on: string;
  updated_on: string;
}

/** A link handed out by POST/PATCH connections, completed by the end user on the sandbox's page. */
export interface LinkRecord {
  linkid: string;
  consumerid: string;
  connectionid: string | null;
  integrationid: number | null;
  country: string | null;
  apis: string[] | null;
  redirect: boolean;
  created_on: string;
  completed_on: string | null;
}

export interface TransactionRecord {
  connectionid: string;
  client_request_id: string;
  created_on: string;
  method: string;
  route: string;
  status_code: number;
  created_entity_id: string | null;
  /** The first answer, replayed to a repeated request with the same client request id. */
  response_body: unknown;
}

export interface WebhookRecord {
  webhookid: string;
  accountid: string;
  envid: string;
  createdby: string | null;
  createdon: string;
  event: string;
  url: string;
  status: ActiveStatus;
  integrationid: number | null;
  signingsecret: string | null;
}

export interface WebhookLogRecord {
  webhooklogid: string;
  webhookid: string;
  event: string;
  url: string;
  accountid: string;
  createdon: string;
  httpstatus: number;
  integrationid: number | null;
  /** The delivery this attempt belongs to (see webhooks/delivery.ts); absent on logs made otherwise. */
  deliveryid?: string;
  /** Why the attempt failed without an HTTP answer (time-out, connection error), or null. */
  error?: string | null;
}

/**
 * One event to deliver to one webhook instance (the outbox). `body` is the exact JSON text sent, so
 * that its signature and every retry carry the same bytes. The consumer the event is about is kept
 * as `event_consumerid` (not `consumerid`): a delivery belongs to the account, and deleting the
 * consumer afterwards must not cancel it (see store/cascade.ts).
 */
export interface WebhookDeliveryRecord {
  deliveryid: string;
  webhookid: string;
  accountid: string;
  envid: string;
  event_consumerid: string | null;
  event: string;
  /** The url of the last attempt (the instance's url when the event was published, until then). */
  url: string;
  integrationid: number | null;
  body: string;
  created_on: string;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: string | null;
  state: 'pending' | 'delivered' | 'failed';
  last_httpstatus: number | null;
  /** Why the last attempt failed (an HTTP status, a time-out, a connection error), or null. */
  last_error: string | null;
  /** The delivery this one sends again (the redeliver control endpoint), or null. */
  redelivery_of: string | null;
}

export type DatastoreStatus = 'active' | 'inactive';

/** Column types a datastore definition uses, and the JSON values each accepts. */
export type DatastoreColumnType = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime';

export interface DatastoreColumnRecord {
  name: string;
  title: string;
  type: DatastoreColumnType;
  optional: boolean;
}

/** A datastore of an account: the definition its data must match. */
export interface DatastoreRecord {
  datastoreid: string;
  accountid: string;
  name: string;
  status: DatastoreStatus;
  definition: { columns: DatastoreColumnRecord[]; search_column: string | null };
  created_on: string;
}

/** One row of a consumer's data in a datastore, optionally written by an execution. */
export interface DatastoreDataRecord {
  datastoredataid: string;
  datastoreid: string;
  consumerid: string;
  executionid: string | null;
  data: Record<string, unknown>;
  created_on: string;
  modified_on: string;
}

// ---------------------------------------------------------------------------------------------
// Automation: syncs, flows, executions, issues and the datalayer (driven by src/simulation/).

export type TriggerKind = 'timer' | 'event';
export type IssueLevelName = 'error' | 'warning';

/** A trigger of a flow, as declared when the flow was created (FlowTrigger). */
export interface FlowTriggerRecord {
  id: string;
  type: TriggerKind;
  cronschedules: string[] | null;
  visible: boolean | null;
  definitionFields: Record<string, unknown>[] | null;
  options: Record<string, unknown> | null;
  priority: 'NORMAL' | 'MEDIUM' | 'HIGH';
}

/** One One API a sync connects (SyncsConnectionItem). */
export interface SyncConnectionRecord {
  one_api: number | null;
  connection_type: number | null;
  display_order: number;
  display_hidden: boolean;
}

export interface SyncRecord {
  syncid: string;
  accountid: string;
  envid: string;
  name: string;
  config: Record<string, unknown> | null;
  connections: SyncConnectionRecord[];
  /** The mappings asked of the end user (CreateSyncMappingItem), as given. */
  mappings: Record<string, unknown>[];
  /** The integrations selected for the sync: the only ones its consumers may connect through it. */
  integrationids: number[];
  created_on: string;
}

export interface FlowRecord {
  flowid: string;
  syncid: string;
  name: string;
  description: string | null;
  execution: { type: 'code' | 'module'; data: Record<string, unknown> | null } | null;
  /** FlowConfig: definitionFields (the configuration a consumer gives), doorkeyFields, datastores... */
  config: Record<string, unknown> | null;
  triggers: FlowTriggerRecord[];
  created_on: string;
}

/** A consumer set up for a sync (keyed `${consumerid}:${syncid}`). */
export interface ConsumerSyncRecord {
  consumerid: string;
  syncid: string;
  link_createdon: string;
  link_metadata: Record<string, unknown> | null;
  /** The consumer's mappings (ReadSyncMappingItem), replaced as a whole by PATCH. */
  link_mappings: Record<string, unknown>[] | null;
  link_presync: Record<string, unknown> | null;
}

/** A flow enabled (or once enabled) for a consumer (keyed `${consumerid}:${flowid}`). */
export interface FlowConsumerRecord {
  consumerid: string;
  syncid: string;
  flowid: string;
  enabled: boolean;
  enabled_on: string | null;
  disabled_on: string | null;
  triggerid: string;
  /** The schedule of a timer trigger chosen for this consumer; null for an event trigger. */
  cronschedule: string | null;
  /** The consumer's configuration of the flow (merged by PATCH). */
  values: Record<string, unknown>;
  integrationids: number[];
  /** Next scheduled run of a timer trigger (null: not scheduled). */
  next_run_at: string | null;
}

/**
 * One run of a flow for one consumer, or of the datalayer sync of one connection. Its timeline is
 * planned when it is queued (queued_at, start, end, outcome) and kept here, so that a world reopened
 * from its file goes on; `settled` records that its end's side effects (events, issues) were done.
 */
export interface ExecutionRecord {
  executionid: string;
  /** The chain execution grouping the runs of one trigger across consumers. */
  parentexecutionid: string | null;
  accountid: string;
  envid: string;
  consumerid: string;
  kind: 'flow' | 'datalayer';
  trigger: 'event' | 'timer' | 'local' | 'refresh' | 'schedule';
  syncid: string | null;
  flowid: string | null;
  /** The connection the run used (not `connectionid`: deleting it keeps the history). */
  used_connectionid: string | null;
  integrationid: number | null;
  is_preview: boolean;
  /** The event's data or the refresh's options. */
  data: Record<string, unknown> | null;
  queued_at: string;
  start: string;
  /** Planned end; null while a local run has not reported its end. */
  end: string | null;
  outcome: 'success' | 'error' | null;
  failure: { error_code: string; level: IssueLevelName; message: string | null } | null;
  settled: boolean;
}

/** A log line a consumer's code sent (the SDK's logData), linked to an execution when it names one. */
export interface ExecutionLogRecord {
  logid: string;
  consumerid: string;
  /** The execution or chain execution of the X-Chift-RelatedChainExecutionId header, or null. */
  related_executionid: string | null;
  type: string;
  message: string;
  context: unknown;
  created_on: string;
}

/** Scripted failures: the next `remaining` executions that match fail with the error code. */
export interface FailurePlanRecord {
  failureid: string;
  accountid: string;
  envid: string;
  flowid: string | null;
  consumerid: string | null;
  remaining: number;
  error_code: string;
  level: IssueLevelName;
  message: string | null;
  created_on: string;
}

export interface IssueEventRecord {
  id: string;
  execution_id: string;
  created_on: string;
  context: Record<string, unknown> | null;
  message: string | null;
}

export interface IssueRecord {
  issue_id: string;
  accountid: string;
  envid: string;
  consumerid: string;
  /** Wire names (not `connectionid`): an issue outlives the deletion of its connection. */
  connection_id: string | null;
  integration_id: number | null;
  integration_name: string | null;
  /** What failed: a flow of a sync, or the datalayer sync of a connection. */
  syncid: string | null;
  flowid: string | null;
  datalayer_of: string | null;
  error_code: string;
  error_status: string;
  error_title: string;
  error_description: string;
  level: IssueLevelName;
  status: 'open' | 'closed';
  created_on: string;
  updated_on: string;
  last_seen: string;
  occurrences: number;
  events: IssueEventRecord[];
}

/** The datalayer sync of one connection. */
export interface DatalayerRecord {
  connectionid: string;
  consumerid: string;
  accountid: string;
  envid: string;
  enabled: boolean;
  enabled_on: string | null;
  disabled_on: string | null;
  from_date: string | null;
  fiscal_years_back: number | null;
  full_history: boolean;
  entity_filter: Record<string, string[]> | null;
  next_run_at: string | null;
  last_refresh_at: string | null;
}

/** The One APIs whose datalayer is configured on an account (keyed by accountid). */
export interface DatalayerSettingsRecord {
  accountid: string;
  apis: string[];
}

/*
 * Accounting ledgers. One LedgerRecord holds everything one accounting folder (one company in the
 * consumer's accounting software) contains. It is built from the seed the first time the folder is
 * reached (see resources/accounting/ledger/ledgers.ts and seed/ledger.ts) and then changed by writes.
 * Journal entries are the source of truth: balances, open amounts, payment statuses and outstanding
 * items are computed from the entries and the matchings, never stored.
 */

export type AccountItemTypeValue =
  | 'bank'
  | 'cash'
  | 'other_financial'
  | 'receivable'
  | 'payable'
  | 'income'
  | 'expense'
  | 'other_expense'
  | 'vat'
  | 'other';

export type JournalTypeValue =
  | 'customer_invoice'
  | 'customer_refund'
  | 'supplier_invoice'
  | 'supplier_refund'
  | 'financial_operation'
  | 'miscellaneous_operation'
  | 'unknown';

export type InvoiceTypeValue =
  | 'customer_invoice'
  | 'customer_refund'
  | 'supplier_invoice'
  | 'supplier_refund';

export interface LedgerAddress {
  address_type: 'main' | 'delivery' | 'invoice';
  name: string | null;
  number: string | null;
  box: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  street: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface LedgerBankAccount {
  is_primary: boolean;
  currency: string | null;
  iban: string | null;
  bic_swift: string | null;
  account_number: string | null;
}

export interface LedgerFolder {
  id: string;
  name: string;
  vat: string | null;
  company_number: string | null;
  main_currency: string;
  address: {
    street: string | null;
    number: string | null;
    box: string | null;
    postal_code: string | null;
    city: string | null;
    country: string | null;
  };
}

export interface LedgerBookYear {
  name: string;
  /** ISO dates, both inclusive. */
  start: string;
  end: string;
  closed: boolean;
}

/** The accounts a posting uses when the input names none. */
export interface LedgerDefaults {
  receivable_account: string;
  payable_account: string;
  employee_account: string;
}

export interface LedgerAccount {
  number: string;
  name: string;
  type: AccountItemTypeValue;
  active: boolean;
  scheme_ids: string[] | null;
  accounting_category: string | null;
}

export interface LedgerJournal {
  id: string;
  code: string;
  name: string;
  journal_type: JournalTypeValue;
  counterpart_account: string | null;
  unallocated_account: string | null;
  iban: string | null;
  bank_name: string | null;
  currency: string | null;
  other_currencies_allowed: boolean;
  blocked: boolean;
}

export interface LedgerVatCode {
  id: string;
  code: string;
  label: string;
  active: boolean;
  scope: 'nat' | 'eu' | 'int' | 'unknown';
  rate: number;
  type: 'sale' | 'purchase' | 'both' | 'unknown';
  deductible_account: string | null;
  payable_account: string | null;
  reversed: boolean;
  withholding_tax: boolean;
  country: string | null;
}

export interface LedgerAnalyticPlan {
  id: string;
  name: string;
  active: boolean;
  parent_id: string | null;
}

export interface LedgerAnalyticAccount {
  id: string;
  plan_id: string;
  code: string;
  name: string;
  active: boolean;
  currency: string;
}

export interface LedgerScheme {
  id: string;
  code: string;
  name: string;
}

/**
 * A client, a supplier, or both (integrations with features.unified_partners keep one entity for
 * both roles). Each role posts to its own account: client_account (receivable) and supplier_account
 * (payable), null while the partner does not have that role.
 */
export interface LedgerPartner {
  id: string;
  is_client: boolean;
  is_supplier: boolean;
  /** The partner's code in the software (shown as third_party_account). */
  code: string;
  external_reference: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string;
  function: string | null;
  is_company: boolean;
  company_id: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  language: string | null;
  internal_notes: string | null;
  website: string | null;
  vat: string | null;
  company_number: string | null;
  iban: string | null;
  bank_account: string | null;
  currency: string | null;
  active: boolean;
  client_account: string | null;
  supplier_account: string | null;
  addresses: LedgerAddress[];
  bank_accounts: LedgerBankAccount[];
  created_on: string;
  last_updated_on: string;
}

export interface LedgerContact {
  id: string;
  partner_id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  function: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
}

export interface LedgerEmployee {
  id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  function: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  active: boolean;
  reference: string | null;
  account_number: string;
}

export interface LedgerPaymentMethod {
  id: string;
  name: string;
  /** The financial journal a payment made this way is booked in. */
  journal_id: string;
}

export interface LedgerPaymentTerm {
  id: string;
  name: string;
  days: number;
  end_of_month: boolean;
}

/** A document attached to an invoice or an entry, kept as base64. */
export interface LedgerAttachment {
  id: string;
  document_type: 'invoice' | 'entry';
  document_id: string;
  filename: string;
  base64_string: string;
  created_on: string;
}

export interface LedgerAnalyticDistribution {
  analytic_plan: string;
  analytic_accounts: { analytic_account: string; percentage: number }[];
}

export interface LedgerInvoiceLine {
  line_number: number;
  unit_price: number;
  unit_of_measure: string | null;
  quantity: number;
  untaxed_amount: number;
  tax_rate: number;
  tax_amount: number;
  total: number;
  account_number: string;
  tax_code: string;
  description: string;
  analytic_distribution: LedgerAnalyticDistribution[];
}

export interface LedgerInvoice {
  id: string;
  invoice_type: InvoiceTypeValue;
  invoice_number: string;
  currency: string;
  currency_exchange_rate: number;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  reference: string | null;
  payment_communication: string | null;
  customer_memo: string | null;
  payment_term_id: string | null;
  withholding_tax: { tax_rate: number; tax_code: string; tax_amount: number } | null;
  invoice_date: string;
  due_date: string;
  partner_id: string;
  journal_id: string;
  /** As booked; 'paid' is derived from the open amount, never stored. */
  status: 'draft' | 'posted' | 'cancelled';
  payment_method_id: string | null;
  approval_status: 'unknown' | 'pending' | 'approved' | 'rejected';
  start_date: string | null;
  end_date: string | null;
  shipping_country: string | null;
  lines: LedgerInvoiceLine[];
  /** The journal entry the invoice posted, and its line on the partner's account. */
  entry_id: string;
  partner_line_id: string;
  created_on: string;
  last_updated_on: string;
}

/** Where an entry comes from; part 2 of the accounting vertical adds its own origins. */
export type LedgerEntryOrigin =
  | 'invoice'
  | 'invoice_payment'
  | 'journal_entry'
  | 'salary'
  | 'opening'
  | 'financial_entry'
  | 'miscellaneous_operation'
  | 'expense'
  | 'bank_transaction';

export interface LedgerEntryLine {
  id: string;
  account_number: string;
  /** The client or supplier of a line on a receivable or payable account. */
  partner_id: string | null;
  employee_id: string | null;
  description: string | null;
  debit: number;
  credit: number;
  analytic_distribution: LedgerAnalyticDistribution[];
  tax_code: string | null;
}

export interface LedgerEntry {
  id: string;
  journal_id: string;
  number: string;
  date: string;
  due_date: string | null;
  reference: string | null;
  /** Unposted (draft) entries are listed on request but move no balance and cannot be matched. */
  posted: boolean;
  currency: string;
  /** Units of the folder's main currency for one unit of `currency`. */
  currency_exchange_rate: number;
  origin: LedgerEntryOrigin;
  invoice_id: string | null;
  payment_method_id: string | null;
  start_date: string | null;
  end_date: string | null;
  lines: LedgerEntryLine[];
  created_on: string;
  last_updated_on: string;
}

/**
 * Lines settled against each other (a payment against an invoice, a refund against an invoice...).
 * Each allocation takes `amount` (in the entry's currency, positive) off the open amount of a line.
 */
export interface LedgerMatching {
  number: string;
  partner_id: string;
  date: string;
  allocations: { entry_id: string; line_id: string; amount: number }[];
  created_on: string;
}

export interface LedgerRecord {
  consumerid: string;
  folderid: string;
  integrationid: number;
  /** Running numbers: documents per journal and book year, matchings, partner codes. */
  counters: Record<string, number>;
  folder: LedgerFolder;
  defaults: LedgerDefaults;
  bookyears: LedgerBookYear[];
  /** Keyed by account number. */
  accounts: Record<string, LedgerAccount>;
  journals: Record<string, LedgerJournal>;
  vat_codes: Record<string, LedgerVatCode>;
  analytic_plans: Record<string, LedgerAnalyticPlan>;
  analytic_accounts: Record<string, LedgerAnalyticAccount>;
  schemes: Record<string, LedgerScheme>;
  partners: Record<string, LedgerPartner>;
  contacts: Record<string, LedgerContact>;
  employees: Record<string, LedgerEmployee>;
  payment_methods: Record<string, LedgerPaymentMethod>;
  payment_terms: Record<string, LedgerPaymentTerm>;
  attachments: Record<string, LedgerAttachment>;
  invoices: Record<string, LedgerInvoice>;
  entries: Record<string, LedgerEntry>;
  /** Keyed by matching number. */
  matchings: Record<string, LedgerMatching>;
}

export const ledgerKey = (consumerid: string, folderid: string) => `${consumerid}:${folderid}`;

export interface WorldMeta {
  schema: 1;
  seed: number;
  size: WorldSize;
  /** Counter of minted ids (see lib/ids.ts). */
  sequence: number;
}

export type WorldSize = 'default' | 'large';

export interface World {
  meta: WorldMeta;
  accounts: Record<string, AccountRecord>;
  environments: Record<string, EnvironmentRecord>;
  keys: Record<string, ApiKeyRecord>;
  consumers: Record<string, ConsumerRecord>;
  connections: Record<string, ConnectionRecord>;
  links: Record<string, LinkRecord>;
  /** Keyed by `${connectionid}:${client_request_id}`. */
  transactions: Record<string, TransactionRecord>;
  webhooks: Record<string, WebhookRecord>;
  webhook_logs: Record<string, WebhookLogRecord>;
  webhook_deliveries: Record<string, WebhookDeliveryRecord>;
  datastores: Record<string, DatastoreRecord>;
  datastore_data: Record<string, DatastoreDataRecord>;
  syncs: Record<string, SyncRecord>;
  flows: Record<string, FlowRecord>;
  /** Keyed by `${consumerid}:${syncid}`. */
  consumer_syncs: Record<string, ConsumerSyncRecord>;
  /** Keyed by `${consumerid}:${flowid}`. */
  flow_consumers: Record<string, FlowConsumerRecord>;
  executions: Record<string, ExecutionRecord>;
  execution_logs: Record<string, ExecutionLogRecord>;
  failure_plans: Record<string, FailurePlanRecord>;
  issues: Record<string, IssueRecord>;
  /** Keyed by connectionid. */
  datalayer_syncs: Record<string, DatalayerRecord>;
  /** Keyed by accountid. */
  datalayer_settings: Record<string, DatalayerSettingsRecord>;
  /** Accounting folders, keyed by ledgerKey(consumerid, folderid); built on first access. */
  accounting_ledgers: Record<string, LedgerRecord>;
}

export const transactionKey = (connectionid: string, clientRequestId: string) =>
  `${connectionid}:${clientRequestId}`;

/** A world with no records: every collection the sandbox knows, empty. */
export function emptyWorld(seed: number, size: WorldSize): World {
  return {
    meta: { schema: 1, seed, size, sequence: 0 },
    accounts: {},
    environments: {},
    keys: {},
    consumers: {},
    connections: {},
    links: {},
    transactions: {},
    webhooks: {},
    webhook_logs: {},
    webhook_deliveries: {},
    datastores: {},
    datastore_data: {},
    syncs: {},
    flows: {},
    consumer_syncs: {},
    flow_consumers: {},
    executions: {},
    execution_logs: {},
    failure_plans: {},
    issues: {},
    datalayer_syncs: {},
    datalayer_settings: {},
    accounting_ledgers: {},
  };
}
