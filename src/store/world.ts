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
  /**
   * Set when an API key restricted to consumers created the instance: only that key reaches it (and
   * the environment's unrestricted keys), and it receives only events about those consumers.
   */
  restricted_to?: { clientid: string; consumers: string[] };
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
  /** A bank journal's account number at the bank (besides its IBAN), when it has one. */
  bank_account_number?: string | null;
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

/** Where an entry comes from: the operation that booked it. */
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
  /** Bank statements imported through bank-transactions (absent from ledgers built before them). */
  bank_statements?: Record<string, LedgerBankStatement>;
}

/** A bank statement: its transactions are booked as one entry each in the bank account's journal. */
export interface LedgerBankStatement {
  id: string;
  /** The bank account (a bank journal) the statement belongs to. */
  journal_id: string;
  external_bank_statement_id: string;
  date: string;
  currency: string;
  opening_balance: number | null;
  /** The entry of each transaction, in the statement's order. */
  entry_ids: string[];
  created_on: string;
}

export const ledgerKey = (consumerid: string, folderid: string) => `${consumerid}:${folderid}`;

/*
 * Invoicing, Banking and Payment verticals. Each keeps one dataset per (consumer, connection), built
 * from (seed, consumerid, connectionid) the first time the connection is used (src/seed/invoicing.ts,
 * banking.ts, payment.ts) and then changed by writes. Records hold what the software stores; the
 * wire's derived values (an invoice's open amount and paid status, balances, counterparts) are
 * computed from them when answering, never stored.
 */

/** Where a record comes from in the connected software (the wire's Ref). */
export interface SourceRefValue {
  id: string | null;
  model: string | null;
}

export interface FieldRefValue extends SourceRefValue {
  name: string | null;
}

export interface InvoicingAddress {
  address_type: 'main' | 'delivery' | 'invoice' | 'other';
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

export interface InvoicingContact {
  id: string;
  source_ref: SourceRefValue;
  is_prospect: boolean;
  is_customer: boolean;
  is_supplier: boolean;
  is_company: boolean;
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  company_id: string | null;
  vat: string | null;
  company_number: string | null;
  currency: string | null;
  language: string | null;
  comment: string | null;
  customer_account_number: string | null;
  supplier_account_number: string | null;
  birthdate: string | null;
  gender: 'H' | 'F' | 'N/A' | null;
  addresses: InvoicingAddress[];
  external_reference: string | null;
  created_on: string;
}

export interface InvoicingProduct {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  unit_price: number | null;
  tax_id: string | null;
  code: string | null;
  unit: string | null;
  category: string | null;
  currency: string | null;
  description: string | null;
  cost: number | null;
  /** Stock before the invoices of the dataset; null for products without stock (services). */
  initial_stock: number | null;
  created_on: string;
}

export interface InvoicingTax {
  id: string;
  source_ref: SourceRefValue;
  label: string;
  rate: number;
  type: 'sale' | 'purchase' | 'both' | 'unknown';
  code: string | null;
  scope: 'nat' | 'eu' | 'int' | 'unknown';
  active: boolean;
}

export interface InvoicingAnalyticDistribution {
  analytic_plan_code: string;
  analytic_accounts: { analytic_account_code: string; analytic_account_name: string; percentage: number }[];
}

export interface InvoicingInvoiceLine {
  description: string | null;
  unit_price: number;
  quantity: number;
  discount_amount: number;
  tax_amount: number;
  untaxed_amount: number;
  total: number;
  tax_rate: number | null;
  account_number: string | null;
  tax_id: string | null;
  tax_exemption_reason: string | null;
  unit_of_measure: string | null;
  product_id: string | null;
  product_code: string | null;
  product_name: string | null;
  analytic_distribution: InvoicingAnalyticDistribution[];
}

export type InvoicingInvoiceTypeValue =
  | 'customer_invoice'
  | 'customer_refund'
  | 'supplier_invoice'
  | 'supplier_refund';

export interface InvoicingInvoice {
  id: string;
  source_ref: SourceRefValue;
  invoice_type: InvoicingInvoiceTypeValue;
  /** As booked; 'paid' is derived from the payments, never stored. */
  status: 'draft' | 'posted' | 'cancelled';
  currency: string;
  currency_exchange_rate: number;
  invoice_date: string;
  due_date: string | null;
  accounting_date: string | null;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  lines: InvoicingInvoiceLine[];
  partner_id: string | null;
  invoice_number: string;
  reference: string | null;
  payment_communication: string | null;
  customer_memo: string | null;
  journal_ref: FieldRefValue | null;
  /** ItalianSpecificities as given (null for the seeded, non-Italian invoices). */
  italian_specificities: Record<string, unknown> | null;
  payment_method_id: string | null;
  created_on: string;
  last_updated_on: string;
}

export type PaymentStatusValue =
  | 'pending'
  | 'completed'
  | 'partially_completed'
  | 'canceled'
  | 'failed'
  | 'unknown'
  | 'authorized';

export interface InvoicingPayment {
  id: string;
  source_ref: SourceRefValue;
  status: PaymentStatusValue;
  description: string;
  amount: number;
  currency: string;
  payment_date: string;
  payment_method_id: string | null;
  invoice_id: string;
  created_on: string;
  last_updated_on: string;
}

export interface InvoicingPaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
}

export interface InvoicingBankAccount {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  iban: string | null;
  currency: string | null;
  /** Balance before the first transaction; the wire's balance adds the done transactions. */
  opening_balance: number;
}

export interface InvoicingBankTransaction {
  id: string;
  source_ref: SourceRefValue;
  status: 'draft' | 'done';
  bank_account_id: string;
  amount: number;
  date: string;
  description: string | null;
  currency: string;
  currency_exchange_rate: number;
  accounting_code: string | null;
  linked_documents: { id: string; source_ref: SourceRefValue; amount: number; type: 'invoice' | 'other' }[];
}

export interface InvoicingOpportunity {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  total: number;
  probability: number;
  status: 'open' | 'won' | 'lost' | 'cancelled' | 'closed';
  partner_id: string | null;
  comment: string | null;
  currency: string | null;
  description: string | null;
  pipe_status: string | null;
  pipe_name: string | null;
  created_date: string | null;
  due_date: string | null;
  end_date: string | null;
  is_won: boolean | null;
  owner_ref: FieldRefValue | null;
}

/** A PDF handed to upload-document: kept by its digest and size, not its bytes. */
export interface InvoicingDocument {
  id: string;
  document_type: 'customer_document' | 'supplier_document' | 'employee_expense';
  sha256: string;
  bytes: number;
  created_on: string;
}

export interface InvoicingDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /** Running numbers of the documents created through the API, per series. */
  counters: Record<string, number>;
  taxes: Record<string, InvoicingTax>;
  products: Record<string, InvoicingProduct>;
  contacts: Record<string, InvoicingContact>;
  payment_methods: Record<string, InvoicingPaymentMethod>;
  invoices: Record<string, InvoicingInvoice>;
  payments: Record<string, InvoicingPayment>;
  bank_accounts: Record<string, InvoicingBankAccount>;
  bank_transactions: Record<string, InvoicingBankTransaction>;
  opportunities: Record<string, InvoicingOpportunity>;
  documents: Record<string, InvoicingDocument>;
}

export interface BankingInstitution {
  id: string;
  bic: string | null;
  country: string | null;
  name: string;
}

export interface BankingAccount {
  id: string;
  institution_id: string;
  currency: string;
  description: string;
  reference: string;
  reference_type: string;
  holder_name: string | null;
  active: boolean;
  /** Balance before the first transaction; the wire's balances add the transactions. */
  opening_balance: number;
}

export interface BankingTransaction {
  id: string;
  bank_account_id: string;
  amount: number;
  tax_amount: number | null;
  currency: string;
  description: string | null;
  additional_information: string | null;
  counterpart_name: string | null;
  counterpart_reference: string | null;
  remittance_information: string | null;
  creation_date: string;
  value_date: string;
  execution_date: string;
  internal_transaction: boolean;
  operation_type:
    | 'incoming_transfer'
    | 'outgoing_transfer'
    | 'card'
    | 'direct_debit'
    | 'direct_debit_collection'
    | 'direct_debit_hold'
    | 'fee'
    | 'cheque'
    | 'recall'
    | 'swift_income'
    | 'pay_later'
    | 'financing_installment'
    | 'cashback'
    | 'interest'
    | 'other';
  last_update_on: string;
  /** Completed transactions move the balance; pending outgoing ones hold the available balance. */
  status: 'pending' | 'declined' | 'completed';
  /** Documents attached (their PDF is drawn from the id and file name when read). */
  attachments: { id: string; filename: string }[];
}

export interface BankingDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  institutions: Record<string, BankingInstitution>;
  accounts: Record<string, BankingAccount>;
  transactions: Record<string, BankingTransaction>;
}

export interface PaymentLocation {
  id: string;
  name: string;
}

export interface PaymentBalance {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  currency: string;
  create_date: string;
}

export interface PaymentPayment {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  status: PaymentStatusValue;
  description: string;
  amount: number;
  currency: string;
  payment_date: string;
  partner_id: string | null;
}

export interface PaymentRefund {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  payment_id: string;
  status: PaymentStatusValue;
  description: string;
  amount: number;
  currency: string;
  refund_date: string;
}

export type PaymentAccountingCategory =
  | 'unknown'
  | 'payout'
  | 'payout_cancel'
  | 'payment'
  | 'payment_cancel'
  | 'fee'
  | 'fee_cancel'
  | 'invoice'
  | 'internal_move';

/** A movement of a balance: amount (signed) and fee; the balance moves by amount - fee. */
export interface PaymentTransaction {
  id: string;
  source_ref: SourceRefValue;
  balance_id: string;
  location_id: string;
  /** The payout that paid this movement out (or the payout's own movement), null while unpaid. */
  payout_id: string | null;
  amount: number;
  fee: number;
  currency: string;
  exchange_rate: number;
  create_date: string;
  application_type: string;
  accounting_category: PaymentAccountingCategory;
  refund_id: string | null;
  payment_id: string | null;
  description: string | null;
}

export interface PaymentPayout {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  balance_id: string;
  status: 'scheduled' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  type: 'payout' | 'bank_account' | 'other';
  amount: number;
  currency: string;
  fee: number | null;
  extra_fee: number | null;
  payment_date: string;
}

export interface PaymentDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  locations: Record<string, PaymentLocation>;
  balances: Record<string, PaymentBalance>;
  payments: Record<string, PaymentPayment>;
  refunds: Record<string, PaymentRefund>;
  transactions: Record<string, PaymentTransaction>;
  payouts: Record<string, PaymentPayout>;
}

/*
 * Point of Sale, eCommerce and Property Management System verticals: one dataset per (consumer,
 * connection), built from (seed, consumerid, connectionid) the first time the connection is used
 * (src/seed/pos.ts, commerce.ts, pms.ts) and then changed by writes and by the clock (open POS
 * orders complete when their time comes). Records hold the wire's fields; fields named in comments
 * as internal are kept for the sandbox's own rules and never answered.
 */

/** An address of a location or a customer (the wire's AddressItem). */
export interface VerticalAddress {
  address_type: string | null;
  name: string | null;
  street: string | null;
  number: string | null;
  box: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
}

/** Taxes of an order or a closure summed per rate (the wire's TotalTaxItem). */
export interface VerticalTaxTotal {
  tax_id: string | null;
  tax_rate: number;
  tax_amount: number;
  /** Taxes included. */
  total: number;
}

export interface VerticalLocation {
  id: string;
  name: string;
  timezone: string | null;
  address: VerticalAddress | null;
}

export interface PosTaxRate {
  id: string;
  label: string | null;
  rate: number | null;
  tax_code: string | null;
}

export interface PosAccountingCategory {
  id: string;
  name: string;
  code: string | null;
  ledger_account_code: string | null;
  posting_account_code: string | null;
  /** Internal: the locations that use it. */
  location_ids: string[];
}

export interface PosProductCategory {
  id: string;
  name: string;
  description: string | null;
  id_parent: string | null;
  location_ids: string[];
}

export interface PosModifierGroup {
  id: string;
  name: string | null;
  options: { id: string; name: string | null; price: number }[];
  location_ids: string[];
}

export interface PosProduct {
  id: string;
  categories: string[];
  name: string;
  description: string | null;
  prices: { unit_price: number; tax_rate: number | null }[];
  modifier_groups_ids: string[];
  accounting_category_ids: string[];
  location_ids: string[];
  /** Internal: the tax rate its lines use, and whether it is sold as a product or a service. */
  tax_id: string;
  line_type: 'product' | 'service';
}

export interface PosPaymentMethod {
  id: string;
  name: string;
  extra: string | null;
  location_ids: string[];
}

export interface PosCustomer {
  id: string;
  first_name: string | null;
  last_name: string | null;
  name: string;
  phone: string | null;
  email: string | null;
  created_on: string | null;
  addresses: VerticalAddress[];
  loyalty: number | null;
  birthdate: string | null;
}

export interface PosDiscount {
  name: string | null;
  total: number;
  type: 'OFFERED' | 'UNKNOWN' | 'LOSS';
}

export interface PosModifierLine {
  modifier_id: string | null;
  name: string;
  modifier_group_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
}

/** A line: total = quantity × unit_price + modifiers − discounts (untaxed), plus tax_amount. */
export interface PosOrderLine {
  id: string;
  type: 'menu' | 'product' | 'service' | 'general_discount' | null;
  menu_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
  tax_amount: number;
  tax_rate: number | null;
  tax_id: string | null;
  description: string | null;
  discounts: PosDiscount[];
  product_id: string | null;
  accounting_category_id: string | null;
  modifiers: PosModifierLine[];
}

export type PosPaymentStatusValue =
  | 'Pending'
  | 'Completed'
  | 'Canceled'
  | 'Failed'
  | 'Unknown'
  | 'Authorised';

export interface PosPayment {
  id: string;
  payment_method_id: string | null;
  payment_method_name: string | null;
  /** Paid towards the order's total; the tip comes on top. */
  total: number;
  tip: number;
  status: PosPaymentStatusValue;
  currency: string | null;
  date: string | null;
  invoice_ref: string | null;
  order_id: string;
}

export type PosModeValue = 'EAT_IN' | 'TAKEAWAY' | 'DELIVERY' | 'UNKNOWN';
export type PosSourceValue =
  | 'WEB'
  | 'MOBILE'
  | 'KIOSK'
  | 'POS'
  | 'REMOTE_POS'
  | 'JUSTEAT'
  | 'FOODORA'
  | 'UBEREATS'
  | 'GLOVO'
  | 'DELIVEROO'
  | 'SMILEIN'
  | 'UNKNOWN';

/** An order: total = Σ lines' totals; tax_amount = Σ lines' taxes; closed ones are paid in full. */
export interface PosOrder {
  id: string;
  order_number: string | null;
  creation_date: string;
  closing_date: string | null;
  service_date: string | null;
  device_id: string | null;
  total: number;
  tax_amount: number;
  total_discount: number;
  total_refund: number;
  total_tip: number;
  delivery_fee: number;
  mode: PosModeValue;
  source: PosSourceValue;
  currency: string | null;
  country: string | null;
  loyalty: number | null;
  customer_id: string | null;
  location_id: string;
  taxes: VerticalTaxTotal[];
  guests: number | null;
  payments: PosPayment[];
  items: PosOrderLine[];
  invoice_id: string | null;
  /** Internal: when an open order is paid and closed (the clock completes it then), or null. */
  closes_at: string | null;
  /** Internal: how the order will be paid when it closes (method ids and the tip). */
  planned_payment: { payment_method_id: string; tip: number } | null;
}

export interface PosDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /** Running numbers (orders, customers). */
  counters: Record<string, number>;
  locations: VerticalLocation[];
  tax_rates: PosTaxRate[];
  accounting_categories: PosAccountingCategory[];
  product_categories: PosProductCategory[];
  modifiers: PosModifierGroup[];
  products: PosProduct[];
  payment_methods: PosPaymentMethod[];
  customers: Record<string, PosCustomer>;
  orders: Record<string, PosOrder>;
  /** Ids of the orders still open (the clock completes them), in creation order. */
  open_orders: string[];
  /** Daily sales objective of each location (taxes included), before the weekday factor. */
  daily_objectives: Record<string, number>;
}

export type CommerceAddressTypeValue = 'main' | 'delivery' | 'invoice';

export interface CommerceAddress {
  address_type: CommerceAddressTypeValue;
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  street: string | null;
  number: string | null;
  box: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  email: string | null;
  vat: string | null;
}

export interface CommerceCustomer {
  id: string;
  source_ref: SourceRefValue;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  email: string | null;
  language: string | null;
  internal_notes: string | null;
  currency: string | null;
  addresses: CommerceAddress[];
  created_on: string | null;
}

export interface CommerceLocation {
  id: string;
  name: string;
  source_ref: SourceRefValue;
  /** Internal: the warehouse's address (shipping_from_address of fulfilments). */
  address: CommerceAddress;
}

export interface CommerceTaxRate {
  id: string;
  source_ref: SourceRefValue;
  label: string;
  rate: number;
  country: string | null;
}

export interface CommerceCategory {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  parent_id: string | null;
}

export interface CommercePaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  active: boolean;
}

export interface CommerceImage {
  id: string;
  main_image: boolean;
  url: string;
}

export type CommerceProductStatusValue = 'unknown' | 'archived' | 'unpublished' | 'published';

export interface CommerceVariant {
  id: string;
  source_ref: SourceRefValue;
  parent_id: string;
  name: string;
  description: string | null;
  description_html: string | null;
  created_on: string | null;
  sku: string | null;
  taxable: boolean | null;
  barcode: string | null;
  prices: { currency: string; price: number }[];
  unit_cost: { amount: number; currency: string } | null;
  unit_of_measure: string | null;
  weight: number;
  weight_unit: string | null;
  status: CommerceProductStatusValue;
  variant_attributes: { name: string; value: string }[];
  variant_images: CommerceImage[];
  /** Stock per location id; available_quantity is their sum. */
  stock: Record<string, number>;
}

export interface CommerceProduct {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  description: string | null;
  description_html: string | null;
  /** Category ids. */
  categories: string[];
  created_on: string | null;
  last_updated_on: string | null;
  variants: CommerceVariant[];
  status: CommerceProductStatusValue;
  sku: string | null;
  common_attributes: { name: string; values: string[] }[];
  variant_attributes_options: { name: string; values: string[] }[];
  common_images: CommerceImage[];
  /** Internal: the tax rate its lines use. */
  tax_id: string;
}

export interface CommerceDiscount {
  name: string;
  description: string;
  amount: number;
}

/** A line: untaxed = quantity × unit_price − discounts; total = untaxed + tax. */
export interface CommerceOrderLine {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  variant_id: string | null;
  quantity: number;
  current_quantity: number;
  unit_price: number;
  description: string;
  tax_id: string | null;
  tax_rate: number;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  discounts: CommerceDiscount[];
  gift_card: boolean;
  is_gift: boolean;
}

export interface CommerceFee {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  type: 'shipping' | 'other';
  removed: boolean;
  tax_rate: number;
  tax_id: string | null;
  discounts: CommerceDiscount[];
  untaxed_amount: number;
  tax_amount: number;
  total: number;
}

export interface CommerceTransaction {
  id: string;
  created_on: string | null;
  payment_method_id: string | null;
  payment_method_name: string | null;
  amount: number;
  status: 'failed' | 'pending' | 'success';
}

export interface CommerceAmounts {
  untaxed_amount: number;
  tax_amount: number;
  total: number;
}

export interface CommerceRefund {
  id: string;
  source_ref: SourceRefValue;
  created_on: string | null;
  total: number;
  reason: string | null;
  order_lines: ({ id: string; variant_id: string | null; quantity: number } & CommerceAmounts)[];
  other: number;
  shipping_refunds: ({ id: string; source_ref: SourceRefValue } & CommerceAmounts)[];
  other_fees: ({ id: string; source_ref: SourceRefValue; type: 'shipping' | 'other' } & CommerceAmounts)[];
  transactions: CommerceTransaction[];
}

export type CommerceOrderStatusValue =
  | 'cancelled_unpaid'
  | 'cancelled'
  | 'draft'
  | 'confirmed'
  | 'shipped'
  | 'refunded';

export interface CommerceOrder {
  id: string;
  source_ref: SourceRefValue;
  order_number: string | null;
  customer_id: string | null;
  billing_address: CommerceAddress | null;
  shipping_address: CommerceAddress | null;
  created_on: string;
  last_updated_on: string;
  confirmed_on: string | null;
  delivery_date: string | null;
  cancelled_on: string | null;
  status: CommerceOrderStatusValue;
  /** Location the order ships from, or null when it is not fulfilled. */
  fulfilled_from: string | null;
  discount_amount: number;
  currency: string;
  note: string | null;
  tags: string[];
  lines: CommerceOrderLine[];
  other_fees: CommerceFee[];
  payment_method_id: string | null;
  transactions: CommerceTransaction[];
  refunds: CommerceRefund[];
}

export interface CommerceDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  counters: Record<string, number>;
  /** Currencies the shop sells in; the first is its main one. */
  currencies: string[];
  locations: CommerceLocation[];
  tax_rates: CommerceTaxRate[];
  categories: CommerceCategory[];
  payment_methods: CommercePaymentMethod[];
  /** Countries the shop ships to. */
  countries: { code: string; name: string }[];
  customers: Record<string, CommerceCustomer>;
  products: Record<string, CommerceProduct>;
  /** Variant id -> product id. */
  variant_index: Record<string, string>;
  orders: Record<string, CommerceOrder>;
}

export interface PmsTaxRate {
  id: string;
  source_ref: SourceRefValue;
  label: string | null;
  rate: number | null;
  is_city_tax: boolean;
}

export interface PmsAccountingCategory {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  code: string | null;
  ledger_account_code: string | null;
  posting_account_code: string | null;
}

export interface PmsPaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  extra: string | null;
  ledger_account_code: string | null;
  location_ids: string[];
}

export interface PmsCustomer {
  id: string;
  source_ref: SourceRefValue;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  phone: string | null;
  email: string | null;
  account_number: string | null;
  created_on: string | null;
  addresses: VerticalAddress[];
  is_company: boolean;
}

/** A line: total = quantity × unit_price − discounts + tax_amount (unit prices untaxed). */
export interface PmsOrderLine {
  id: string;
  source_ref: SourceRefValue;
  type: 'menu' | 'product' | 'service' | 'general_discount' | null;
  menu_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
  tax_amount: number;
  tax_rate: number | null;
  tax_id: string | null;
  description: string | null;
  discounts: PosDiscount[];
  product_id: string | null;
  accounting_category_id: string | null;
}

export interface PmsReservation {
  id: string;
  source_ref: SourceRefValue;
  start_date: string | null;
  end_date: string | null;
  creation_date: string | null;
  resource_id: { id: string; source_ref: SourceRefValue } | null;
  resource_name: string | null;
  resource_identifier: string | null;
}

export interface PmsPayment {
  id: string;
  source_ref: SourceRefValue;
  payment_method_id: string | null;
  payment_method_name: string | null;
  total: number;
  tip: number;
  status: PosPaymentStatusValue;
  currency: string | null;
  date: string | null;
  invoice_ref: string | null;
  /** The customer who paid. */
  customer_id: string | null;
  description: string | null;
}

/**
 * A stay: one order per reservation, closed (invoiced) at check-out. It has the fields of a POS
 * order but the payments, and the stay's own.
 */
export interface PmsOrder
  extends Omit<PosOrder, 'payments' | 'items' | 'invoice_id' | 'closes_at' | 'planned_payment'> {
  source_ref: SourceRefValue;
  items: PmsOrderLine[];
  service_id: string | null;
  reservation: PmsReservation | null;
  /** Ids of the invoices (bills) of the stay. */
  invoice_ids: string[];
}

export interface PmsInvoice {
  id: string;
  source_ref: SourceRefValue;
  invoice_number: string;
  creation_date: string;
  closing_date: string | null;
  customer_id: string;
  /** The stay it bills: its lines are the invoice's items. */
  order_id: string;
  location_id: string;
  payments: PmsPayment[];
  service_id: string | null;
  tax_amount: number;
  untaxed_amount: number;
  total: number;
  currency: string;
}

export interface PmsDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  counters: Record<string, number>;
  locations: VerticalLocation[];
  /** Rooms of each location: id, name and number. */
  rooms: { id: string; location_id: string; name: string; identifier: string }[];
  tax_rates: PmsTaxRate[];
  accounting_categories: PmsAccountingCategory[];
  payment_methods: PmsPaymentMethod[];
  customers: Record<string, PmsCustomer>;
  orders: Record<string, PmsOrder>;
  invoices: Record<string, PmsInvoice>;
}

/** Key of a vertical dataset: one per consumer and connection. */
export const datasetKey = (consumerid: string, connectionid: string) => `${consumerid}:${connectionid}`;

export interface WorldMeta {
  schema: 1;
  seed: number;
  size: WorldSize;
  /** Counter of minted ids (see lib/ids.ts). */
  sequence: number;
  /** The last journal line a file snapshot includes (see store/file-adapter.ts). */
  journal_seq?: number;
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
  /** Invoicing datasets, keyed by datasetKey(consumerid, connectionid); built on first access. */
  invoicing_datasets: Record<string, InvoicingDataset>;
  /** Banking datasets, keyed by datasetKey(consumerid, connectionid); built on first access. */
  banking_datasets: Record<string, BankingDataset>;
  /** Payment datasets, keyed by datasetKey(consumerid, connectionid); built on first access. */
  payment_datasets: Record<string, PaymentDataset>;
  /** Point of Sale datasets, keyed by datasetKey(consumerid, connectionid); built on first access. */
  pos_datasets: Record<string, PosDataset>;
  /** eCommerce datasets, keyed by datasetKey(consumerid, connectionid); built on first access. */
  commerce_datasets: Record<string, CommerceDataset>;
  /** Property Management System datasets, keyed by datasetKey(consumerid, connectionid). */
  pms_datasets: Record<string, PmsDataset>;
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
    invoicing_datasets: {},
    banking_datasets: {},
    payment_datasets: {},
    pos_datasets: {},
    commerce_datasets: {},
    pms_datasets: {},
  };
}
