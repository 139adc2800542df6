import { type GuideLink, guidePath } from '../../lib/guides.js';

/**
 * Every kind of finding the readiness report can make, once: its severity, what it means and what to
 * change. A finding names its kind; `--fail-on` and the console read this table.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface FindingKind {
  severity: Severity;
  /** What was seen, in a line. */
  title: string;
  /** What to change in the client. */
  advice: string;
}

export const FINDING_KINDS = {
  token_not_reused: {
    severity: 'warning',
    title: 'A new token was requested while the previous one was still valid',
    advice:
      'Keep the token of POST /token and reuse it until shortly before its expires_on (30 minutes); request a new one then, or after a 401.',
  },
  expired_token_used: {
    severity: 'error',
    title: 'Requests were sent with an expired token',
    advice:
      'Compare expires_on with the current time before each call and request a new token shortly before it.',
  },
  no_new_token_after_401: {
    severity: 'error',
    title: 'The same token was sent again after a 401',
    advice:
      'On a 401, request a new token from POST /token before the next call; a refused token stays refused.',
  },
  repeated_failure: {
    severity: 'warning',
    title: 'The same failing request was sent again unchanged',
    advice:
      'A 4xx answer does not change on its own: correct the request (read the message and detail) instead of retrying it as it was; retry only 429, 502 and time-outs, with a delay.',
  },
  error_met: {
    severity: 'info',
    title: 'Errors the client met, and what it did next',
    advice:
      'Check that each error class is handled on purpose: shown to the user, corrected, or retried later.',
  },
  partial_list_read: {
    severity: 'warning',
    title: 'A list was read only in part: its total exceeds the pages read',
    advice: 'Follow the pages (page=2, 3... while page × size < total), or narrow the list with its filters.',
  },
  repeated_full_pull: {
    severity: 'warning',
    title: 'The same whole list was pulled repeatedly',
    advice:
      'Read only what changed since the last run: the operation takes updated_after or date_from/date_to; keep the time of the last successful pull.',
  },
  write_without_request_id: {
    severity: 'warning',
    title: 'Writes were sent without x-chift-client-requestid',
    advice:
      'Send a unique x-chift-client-requestid with each create or update, and reuse it when retrying the same write: the service then answers the first result instead of writing twice, and GET .../transactions finds it.',
  },
  duplicate_write: {
    severity: 'error',
    title: 'The same write was sent twice and created twice',
    advice:
      'Retry a write with the same x-chift-client-requestid, or look the first attempt up (GET /consumers/{consumer_id}/connections/{connection_id}/transactions) before sending it again.',
  },
  deprecated_operation: {
    severity: 'warning',
    title: 'Deprecated operations were called',
    advice:
      'Move to the operation that replaces it (the same name without [Deprecated]); deprecated operations will be removed.',
  },
  sandbox_only: {
    severity: 'error',
    title: 'Calls only the sandbox answers',
    advice:
      'The production API publishes no such operation: it will answer 404. Keep sandbox routes (/__sandbox/..., undocumented paths) in test set-up code only.',
  },
  unknown_route: {
    severity: 'error',
    title: 'Requests to paths the API does not publish',
    advice: 'Check the path against the published document (/openapi.json): a typo or a removed operation.',
  },
  unknown_body_field: {
    severity: 'warning',
    title: 'Bodies carried fields the operation does not define',
    advice:
      'Remove the fields the schema does not define: the service ignores them (the value never reaches the software) or the software refuses them.',
  },
  unknown_query_parameter: {
    severity: 'warning',
    title: 'Query parameters the operation does not take',
    advice:
      'Check the names against the operation (updated_after, date_from...): the service ignores a parameter it does not take, so a filter with a mistyped name reads everything.',
  },
  accepted_only_here: {
    severity: 'warning',
    title: 'Bodies the published schema does not allow, accepted here',
    advice:
      "Send what the operation's schema describes (types, enums, required fields): the sandbox never refuses more than the service, but the software behind a connection may refuse this.",
  },
  folder_id_missing: {
    severity: 'error',
    title: 'Accounting calls without folder_id on a connector with several folders',
    advice:
      'Read GET .../accounting/folders once and send folder_id on every accounting call of such a connection.',
  },
  unsupported_operation: {
    severity: 'warning',
    title: "Operations the connection's integration does not support",
    advice:
      "Check the integration's coverage (GET /integrations) before calling an operation, and handle connections whose software lacks it.",
  },
  coverage_gap: {
    severity: 'info',
    title: 'Operations a client of this vertical usually needs were never called',
    advice:
      'Read the reference data the writes depend on (VAT codes, journals, accounts...) instead of hard-coding it.',
  },
  webhook_without_secret: {
    severity: 'warning',
    title: 'Webhooks without a signing secret',
    advice:
      'Register each webhook with a signingsecret and check the signature of every delivery: without one, anyone can post events to your handler.',
  },
  webhook_delivery_failed: {
    severity: 'warning',
    title: 'Webhook deliveries your handler did not accept',
    advice:
      'Answer 2xx as soon as the event is stored; process it afterwards. Failed deliveries are retried, then dropped.',
  },
  webhook_slow: {
    severity: 'warning',
    title: 'Webhook deliveries your handler answered too late',
    advice: 'Answer within a few seconds: acknowledge first, process the event in the background.',
  },
  webhook_misbehaviour_refused: {
    severity: 'warning',
    title: 'Your handler refused a duplicated, reordered or stale delivery',
    advice:
      'Deliveries are at least once and unordered: acknowledge a delivery you already processed (same event id) with 2xx, and order events by their own dates, not by arrival.',
  },
} as const satisfies Record<string, FindingKind>;

export type FindingKindName = keyof typeof FINDING_KINDS;

export const FINDING_KIND_NAMES = Object.keys(FINDING_KINDS) as [FindingKindName, ...FindingKindName[]];

/**
 * Where the guides explain a kind: its section of the readiness guide, as the sandbox serves it
 * (`/guides/readiness#token_not_reused`), or as `link` makes it (a server's absolute url, the file in
 * the installed package).
 */
export const docsOf = (kind: FindingKindName, link: GuideLink = guidePath): string => link('readiness', kind);

/**
 * Operations a client of a vertical usually reads before it writes: using the first (a write) without
 * ever calling any of the others leaves it with hard-coded reference data.
 */
export const COMPANIONS: readonly { uses: readonly string[]; needs: readonly string[]; why: string }[] = [
  {
    uses: ['accounting_create_invoice', 'accounting_create_invoice_multiple_plans'],
    needs: ['accounting_get_vat_codes', 'accounting_get_journals'],
    why: 'an invoice names VAT codes and a journal of the folder',
  },
  {
    uses: ['accounting_create_generic_journal_entry'],
    needs: ['accounting_get_journals', 'accounting_get_chart_of_accounts'],
    why: 'a journal entry names a journal and accounts of the folder',
  },
  {
    uses: ['invoicing_post_invoices'],
    needs: ['invoicing_get_taxes', 'invoicing_get_products'],
    why: 'an invoice names tax rates (and often products) of the software',
  },
  {
    uses: ['ecommerce_create_order'],
    needs: ['ecommerce_get_products', 'ecommerce_get_taxes'],
    why: 'an order names products and tax rates of the shop',
  },
];
