/**
 * Every error the sandbox answers is an ApiError built by one of the named helpers below, and every
 * message text of the specification lives here once (those of the validation body, pydantic's, in
 * validation-errors.ts). Tests import the same helpers, so a message that drifts from the
 * specification fails in one place.
 */

import { ApiError, type ErrorStatus } from './api-error.js';
import { EARLIEST_INSTANT, LATEST_INSTANT } from './calendar.js';
import { pydanticIssue, ValidationFailure } from './validation-errors.js';

export { ApiError, type ErrorStatus, type ServiceErrorBody } from './api-error.js';

export const AUTH_ERROR_CODE = 'ERROR_SERVICE_AUTHENTICATION_ERROR';

/**
 * The business errors the service documents with an `error_code`: status, code and message, each
 * once. Where the service words one code differently per vertical (a POS order and an eCommerce
 * order), each wording has its own name. The detail of each refusal says what exactly was wrong.
 */
export const SERVICE_ERRORS = {
  noActiveConnection: [400, 'ERROR_NO_ACTIVE_CONNECTION', 'Error while trying to perform your request'],

  accountNumberNotFound: [
    404,
    'ERROR_ACCOUNT_NUMBER_NOT_FOUND',
    "A used account number doesn't exist in the accounting system.",
  ],
  accountNumberNotGoodScope: [
    400,
    'ERROR_ACCOUNT_NUMBER_NOT_GOOD_SCOPE',
    'A used account number cannot be used in this type of operation.',
  ],
  amountsNotBalanced: [400, 'ERROR_AMOUNTS_NOT_BALANCED', 'The amounts of the entries are not balanced.'],
  analyticAccountAlreadyExists: [
    409,
    'ERROR_ANALYTIC_ACCOUNT_ALREADY_EXISTS',
    'An analytic account with the same code already exists in the accounting system.',
  ],
  analyticAccountNotFound: [
    404,
    'ERROR_ANALYTIC_ACCOUNT_NOT_FOUND',
    "The analytic account doesn't exist in the accounting system.",
  ],
  analyticPlanNotFound: [
    404,
    'ERROR_ANALYTIC_PLAN_NOT_FOUND',
    "The analytic plan doesn't exist in the accounting system.",
  ],
  attachmentAlreadyExists: [
    400,
    'ERROR_ATTACHMENT_ALREADY_EXISTS',
    'An attachment already exists for this invoice.',
  ],
  bankCodeAlreadyUsed: [
    422,
    'ERROR_BANK_CODE_ALREADY_USED',
    'A bank account with the same code already exists.',
  ],
  bookyearNotFound: [400, 'ERROR_BOOKYEAR_NOT_FOUND', 'The accounting system is not set up for this date.'],
  chargeProductAccountMissing: [
    422,
    'ERROR_CHARGE_PRODUCT_ACCOUNT_MISSING',
    'Please provide at least one charge/product account.',
  ],
  collectiveAccountMissing: [
    422,
    'ERROR_COLLECTIVE_ACCOUNT_MISSING',
    'Please provide a client/supplier collective account.',
  ],
  counterpartAccountNotFound: [
    400,
    'ERROR_COUNTERPART_ACCOUNT_NOT_FOUND',
    "The counterpart account doesn't exist in the accounting system.",
  ],
  currencyNotFound: [
    404,
    'ERROR_CURRENCY_NOT_FOUND',
    'No currency with this code was found in the accounting system.',
  ],
  debitCreditNegative: [422, 'ERROR_DEBIT_CREDIT_VALUE', 'Debit and credit cannot be negative.'],
  debitCreditBothPositive: [422, 'ERROR_DEBIT_CREDIT_VALUE', 'Debit and credit cannot be both positive.'],
  employeeNotFound: [404, 'ERROR_EMPLOYEE_NOT_FOUND', "The employee doesn't exist in the accounting system."],
  entryHasInvalidStatus: [
    400,
    'ERROR_ENTRY_HAS_INVALID_STATUS',
    "The entry doesn't have the correct status to be matched.",
  ],
  entryNotBalanced: [422, 'ERROR_ENTRY_NOT_BALANCED', 'The entry is not balanced.'],
  entryNotFound: [404, 'ERROR_ENTRY_NOT_FOUND', "The entry doesn't exist in the accounting system."],
  invalidBase64: [
    400,
    'ERROR_INVALID_BASE64_STRING',
    'The document is not a valid base64 string representing a PDF.',
  ],
  invalidCurrencyFormat: [
    422,
    'ERROR_INVALID_CURRENCY_FORMAT',
    'The currency format is not correct. Please use the ISO 4217 codes.',
  ],
  invalidAnalyticAccountFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_ANALYTIC_ACCOUNT',
    "The code of the analytic account doesn't follow the format of the corresponding accounting system.",
  ],
  invalidEntriesFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_ENTRIES',
    "The format of the IDs entries doesn't follow the format of the corresponding accounting system.",
  ],
  invalidIdFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_ID',
    "The format of the ID doesn't follow the format of the corresponding accounting system.",
  ],
  invalidInvoiceNumberFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_INVOICE_NUMBER',
    "The format of the invoice number doesn't follow the format of the corresponding accounting system (e.g. too long)",
  ],
  invalidJournalIdFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_JOURNAL_ID',
    "The format of the field 'journal_id' doesn't follow the format of the corresponding accounting system.",
  ],
  invalidPartnerIdFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_PARTNER_ID',
    "The format of the field 'partner_id' doesn't seem to be correct for the corresponding accounting system.",
  ],
  invalidStatementNumberFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_STATEMENT_NUMBER',
    "The format of the statement id/number doesn't follow the format of the corresponding accounting system (e.g. too long)",
  ],
  invalidTaxCodeFormat: [
    422,
    'ERROR_INVALID_FIELD_FORMAT_TAX_CODE',
    "The format of the field 'tax_code' doesn't follow the format of the corresponding accounting system.",
  ],
  invalidFinancialPeriodFormat: [
    400,
    'ERROR_INVALID_FINANCIAL_PERIOD_FORMAT',
    'The forced financial period must be 6 numbers (e.g. 02 for february and 2022 => 022022)',
  ],
  invalidOperationLineType: [
    400,
    'ERROR_INVALID_OPERATION_LINE_TYPE',
    "A line of type 'customer_account' or 'supplier_account' must have a 'partner_id' filled in.",
  ],
  accountingInvoiceNotFound: [
    404,
    'ERROR_INVOICE_NOT_FOUND',
    "The invoice doesn't exist in the accounting system.",
  ],
  invoiceNumberAlreadyUsed: [
    409,
    'ERROR_INVOICE_NUMBER_ALREADY_USED',
    'The invoice number is already used in the accounting system.',
  ],
  journalAlreadyExists: [
    400,
    'ERROR_JOURNAL_ALREADY_EXISTS',
    'A journal already exists with the same code in the accounting system.',
  ],
  journalAlreadyOpen: [
    400,
    'ERROR_JOURNAL_ALREADY_OPEN',
    "The entry couldn't be created in the accounting system. The journal is already open.",
  ],
  journalNotFound: [404, 'ERROR_JOURNAL_NOT_FOUND', "The journal doesn't exist in the accounting system."],
  journalNotGoodScope: [400, 'ERROR_JOURNAL_NOT_GOOD_SCOPE', 'The journal cannot be used for this scope.'],
  ledgerAccountAlreadyExists: [
    400,
    'ERROR_LEDGER_ACCOUNT_ALREADY_EXISTS',
    'A ledger account already exists with the same number in the accounting system.',
  ],
  maxDifferenceMonths: [
    400,
    'ERROR_MAX_DIFFERENCE_MONTHS',
    "You can retrieve maximum 3 months of data at once. The difference between 'date_from' and 'date_to' is at maximum 3 months.",
  ],
  multipleCurrencies: [422, 'ERROR_MULTIPLE_CURRENCIES', 'Only one currency can be used.'],
  multipleExchangeRates: [422, 'ERROR_MULTIPLE_EXCHANGE_RATES', 'Exchange rates must be equal.'],
  multipleGlAccounts: [
    400,
    'ERROR_MULTIPLE_GL_ACCOUNTS',
    'The entries have different receivable/payable accounts.',
  ],
  multipleJournals: [
    404,
    'ERROR_MULTIPLE_JOURNALS',
    'Multiple journals were found. Please indicate the wanted journal in the request.',
  ],
  multiplePartners: [400, 'ERROR_MULTIPLE_PARTNERS', 'The entries have different clients/suppliers.'],
  multiplePartnerAccounts: [
    400,
    'ERROR_MULTIPLE_PARTNER_ACCOUNTS',
    'A sale/purchase entry cannot be linked to multiple partner accounts.',
  ],
  noInvoiceLine: [400, 'ERROR_NO_INVOICE_LINE', 'The invoice must contain at least one invoice line.'],
  noOperationLine: [
    400,
    'ERROR_NO_OPERATION_LINE',
    'The miscellaneous operation must contain at least one line.',
  ],
  operationNotBalanced: [
    400,
    'ERROR_OPERATION_NOT_BALANCED',
    'The operation is not balanced. The sum of the lines must be zero.',
  ],
  partnerAccountMissing: [
    422,
    'ERROR_PARTNER_ACCOUNT_MISSING',
    'Please provide a client/supplier account in the partner_id field.',
  ],
  partnerNotFound: [
    404,
    'ERROR_PARTNER_NOT_FOUND',
    "The client/supplier doesn't exist in the accounting system.",
  ],
  taxCodeNotFound: [
    404,
    'ERROR_TAX_CODE_NOT_FOUND',
    "A used tax code doesn't exist in the accounting system.",
  ],
  wrongAccountType: [
    400,
    'ERROR_WRONG_ACCOUNT_TYPE',
    'The account cannot be used for this type of line of a miscellaneous operation.',
  ],
  wrongEntryType: [
    400,
    'ERROR_WRONG_ENTRY_TYPE',
    'You can only create entries in a sale or purchase journal.',
  ],
  zeroInvoice: [400, 'ERROR_ZERO_INVOICE', 'You cannot create an invoice with an untaxed amount of 0.'],

  /** Also the PMS customers' answer: pms_get_customer documents the same code and message. */
  posCustomerNotFound: [404, 'ERROR_CUSTOMER_NOT_FOUND', 'The customer could not be found'],
  posOrderNotFound: [404, 'ERROR_ORDER_NOT_FOUND', 'The order could not be found'],
  commerceCustomerNotFound: [404, 'ERROR_CUSTOMER_NOT_FOUND', "The customer doesn't exist."],
  commerceOrderNotFound: [404, 'ERROR_ORDER_NOT_FOUND', "The order doesn't exist"],
  commerceProductNotFound: [404, 'ERROR_PRODUCT_NOT_FOUND', "The product doesn't exist"],
  commerceVariantNotFound: [404, 'ERROR_VARIANT_NOT_FOUND', "The variant doesn't exist."],
  commerceLocationNotFound: [404, 'ERROR_LOCATION_NOT_FOUND', "The location doesn't exist."],
  phoneAlreadyUsed: [422, 'ERROR_PHONE_ALREADY_USED', 'The phone number is already used by another client.'],
  phoneInvalid: [
    422,
    'ERROR_PHONE_INVALID',
    'The phone number doesnt seem to be valid. The number must begin with the country code.',
  ],

  invoicingContactNotFound: [
    404,
    'ERROR_CONTACT_NOT_FOUND',
    "The contact doesn't exist in the invoicing system.",
  ],
  invoicingInvoiceIdFormat: [
    400,
    'ERROR_INVOICE_ID_FORMAT',
    "The ID of the invoice doesn't have the correct format.",
  ],
  invoicingInvoiceNotFound: [
    404,
    'ERROR_INVOICE_NOT_FOUND',
    "The invoice doesn't exist in the invoicing system.",
  ],
  invoicingOpportunityNotFound: [
    404,
    'ERROR_OPPORTUNITY_NOT_FOUND',
    "The opportunity doesn't exist in the invoicing system.",
  ],
  invoicingProductNotFound: [
    404,
    'ERROR_PRODUCT_NOT_FOUND',
    "The product doesn't exist in the invoicing system.",
  ],
  invoicingTaxNotFound: [404, 'ERROR_TAX_NOT_FOUND', "The tax doesn't exist in the invoicing system."],

  paymentNotFound: [404, 'ERROR_PAYMENT_NOT_FOUND', 'The payment was not found'],
} as const satisfies Record<string, readonly [ErrorStatus, string, string]>;

export type ServiceErrorName = keyof typeof SERVICE_ERRORS;

/** A documented business refusal; `detail` says what exactly was wrong. */
export function serviceError(name: ServiceErrorName, detail = ''): ApiError {
  const [status, code, message] = SERVICE_ERRORS[name];
  return new ApiError(status, message, detail, code);
}

/** The two documented messages that name the entry and partner they concern. */
export const entryNotLinkedToPartner = (entryId: string, partnerId: string) =>
  new ApiError(
    400,
    `Entry '${entryId}' is not linked to partner '${partnerId}'.`,
    '',
    'ERROR_ENTRY_NOT_LINKED_TO_PARTNER',
  );
export const entryHasNoReceivablePayable = (entryId: string, partnerId: string) =>
  new ApiError(
    400,
    `Entry '${entryId}' doesn't have a receivable/payable account linked to partner '${partnerId}'.`,
    '',
    'ERROR_ENTRY_HAS_NO_ACCOUNT_RECEIVABLE_PAYABLE',
  );

/** Message templates of the specification's Errors table, named once. */
export const messages = {
  invalidCredentials: 'The provided credentials are not correct',
  connectorUnreachable: (connector: string) => `Error while trying to authenticate to ${connector}`,
  missingToken: 'Missing or malformed Authorization header: expected "Bearer <token>"',
  invalidToken: 'The access token is invalid or has expired',
  wrongEnvironment: 'The API key of this token does not belong to the environment of this resource',
  restrictedKey: 'The API key of this token is restricted to other consumers',
  scopeDenied: 'The token does not grant a scope accepted by this operation',
  mcpConsumerDenied: 'The token is bound to another consumer',
  mcpScopesUnknown: 'Unknown scope requested',
  mcpScopesNotGranted: 'The requested scopes are not granted to this API key',
  mcpApiToken: 'The MCP server takes an MCP token (POST /mcp-token or its OAuth flow), not an API token',
  mcpTokenConsumerGone: 'The consumer this MCP token is bound to does not exist',
  mcpSessionNotFound: 'The MCP session does not exist or has ended: initialize a new one',
  mcpSessionRequired: 'Bad Request: an Mcp-Session-Id header is required (or an initialize request)',
  mcpToolUnknown: (name: string) => `Unknown tool: ${name}`,
  mcpResourceUnknown: (uri: string) => `Unknown resource: ${uri}`,
  mcpToolArgument: (name: string) => `The argument '${name}' is missing or not valid`,

  consumerNameInvalid: 'The specified name is not valid',
  redirectUrlInvalid: 'The specified redirect url is not valid',
  consumerNotFound: 'The consumer does not exist',

  integrationInvalid: 'The specified integrationid is not valid, is not active or does not exist',
  connectionAlreadyActive: (integrationid: number) =>
    `There is already an active connection for the integrationid ${integrationid}. Only one can be created for each consumer for each integrationid.`,
  countryCodeInvalid: (countryCode: string) => `${countryCode} is not a valid country code.`,
  countryNotSupported: (countryCode: string) => `No integration supports country '${countryCode}'`,
  missingCredential: 'Missing at least one credential for this integration',
  missingPostConnection:
    'Missing at least one post connection value for this integration. When providing post connection values, make sure to provide all mandatory post connection values.',
  connectionsNotRetrieved: 'Existing connections could not be retrived',
  connectionIdInvalid: 'The specified connectionid is not valid',
  connectionNotFound: 'The connection does not exist',
  invalidDatetime: (key: string) => `Invalid datetime format in key ${key}`,
  transactionNotFound: 'The specified transaction could not be found',
  linkNotFound: 'The connection link does not exist or has already been used',

  imageNotFound: (imageType: string) => `The ${imageType} doesn't exist.`,

  webhookDuplicate: 'There is already an existing webhook with the same url and type',
  webhookUrlInvalid: 'The specified url is not valid',
  webhookNotFound: 'The specified webhook could not be found for this account',
  webhookEventInvalid: 'The specified event is not a webhook type of this account',
  webhookIntegrationRequired:
    'An integrationid of the One API of this event is mandatory for this webhook type',
  webhookDeliveryNotFound: 'The webhook delivery does not exist',

  datastoreNotFound: 'The datastore does not exist',
  datastoreDataNotFound: 'The datastoredata does not exist',
  datastoreInputInvalid: 'The input does not match the definition of the datastore',

  syncNotFound: 'The sync does not exist',
  chainNotFound: 'The chain does not exist',
  flowNotFound: 'The flow does not exist',
  executionNotFound: 'The execution does not exist',
  noConsumersFound: 'No consumers found',
  contextDataInvalid: (fieldName: string, fieldType: string) =>
    `Error while validating context data; the field ${fieldName} does not seem to be of type ${fieldType}`,
  oneIntegrationPerApi: 'You can only provide one integrationid for each selected One API',
  integrationNotInSync: (integrationid: string) =>
    `${integrationid} is not part of the selected integrations of the sync`,
  consumerNotInSync: 'The consumer is not configured for this sync',
  flowNotActivated: 'The flow is not yet activated for this consumer',
  bodyShouldBeList: 'The body should be a list',
  flowRequiresConfiguration: 'Impossible to enable the flow as the flow requires configuration fields',
  datalayerNotConfigured: 'The datalayer is not configured on this account.',
  datalayerTargetNotFound: 'The consumer or connection does not exist',
  issueConsumerNotFound: 'The consumer does not exist.',
  issueNotFound: 'The issue does not exist.',

  accountingFailure: 'Error while trying to perform your request',
  accountingCompanyIdInvalid: "The format of the company_id doesn't seem to be correct.",
  accountingVatNumberInvalid:
    'The VAT number is incorrect; dots and whitespace must be removed; the expected form is a country prefix followed by digits',
  accountingPartnerDuplicate:
    'A client/supplier already exist with the same code/id in the accounting system.',
  accountingOperationNotFound: "The miscellaneous operation doesn't exist in the accounting system.",
  customRecordsFull: 'The custom routes of this connection hold as many records as the sandbox keeps',
  queryOverBudget: (exceeded: string) =>
    `The query reads more than the sandbox reads in one request (${exceeded}): narrow it with a consumer_id filter or a time dimension's dateRange`,
  overBudget: (what: string, bound: string) =>
    `${what} asks for more work than the sandbox does in one call (at most ${bound})`,

  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  payloadTooLarge: (limit: number) => `The request body is larger than the limit of ${limit} bytes`,
  unsupportedMediaType: 'The request body must be JSON, sent with Content-Type: application/json',
  jsonTooDeep: (max: number) => `JSON decode error: arrays and objects nest deeper than ${max} levels`,
  internal: 'Internal server error',
  changeNotStorable: 'The change cannot be stored: it is too large or too deeply nested',
  worldFull: (used: number, limit: number) =>
    `The world would hold ${used} bytes written by clients, more than its limit of ${limit} (--max-world-bytes): delete records, or reset the world`,
  listFull: (what: string, limit: number) => `The sandbox keeps at most ${limit} ${what}: remove one first`,
  recordTooLarge: (path: string, size: number, limit: number) =>
    `${path} would hold ${size} characters, more than the ${limit} a record (or a field of one) may hold; only a file's content (base64_string) may be longer`,
  adminTokenRequired: 'The control endpoints need the admin token (Authorization: Bearer <admin token>)',
  worldNotFound: (id: string) => `No world ${id} is live in this sandbox: it was deleted, or it expired`,
  worldsNotServed:
    'Worlds over HTTP are served by a sandbox started with `serve` (or startSandbox()); in process, call createApp() once per world',
  worldsCountFull: (limit: number) =>
    `The sandbox holds ${limit} live worlds, its most (--max-worlds): delete one, or wait until one expires`,
  worldsBytesFull: (used: number, limit: number) =>
    `The live worlds hold ${used} bytes, past the ${limit} the sandbox keeps for them (--max-worlds-bytes): delete one, or wait until one expires`,
  hostNotAllowed: (host: string) =>
    `The Host '${host}' is not a name of this sandbox: add it with --allowed-hosts (or SANDBOX_ALLOWED_HOSTS)`,
  crossSiteRefused:
    'This request comes from a page of another site: the control surfaces take changes only from the sandbox itself or from clients that are not browsers',
  originNotAllowed: 'The Origin of this request is not allowed to use the MCP server',
  selfCallRefused:
    'This request comes from the sandbox itself (a webhook delivery): the sandbox never calls itself',
  outsideCalendar: `The sandbox's calendar runs from ${EARLIEST_INSTANT.toISOString()} to ${LATEST_INSTANT.toISOString()}`,
  requestNotFound: 'The request is not in the request journal',
  badReportFailOn: (unknown: string[]) =>
    `fail_on names what the readiness report does not know: ${unknown.join(', ')}`,
  reportNeedsJournal:
    'The readiness report reads the request journal, which this sandbox keeps none of (--request-journal 0): start it with a journal',
  pathPatternInvalid: 'A path pattern starts with / (or is *), {name} names one segment',
  pathPatternTooLong: (max: number) => `A path pattern has at most ${max} segments`,
  faultNotFound: 'The fault does not exist',
  faultInjected: (faultId: string) => `Injected by the sandbox fault ${faultId}`,
  mcpSessionsFull: (max: number) =>
    `The MCP server holds its maximum of ${max} sessions: end one (DELETE /mcp) or try again once one has expired`,
  mcpToolArgumentsNotObject: (kind: string) =>
    `Invalid params: the arguments of tools/call must be an object (the tool's arguments by name), not ${kind}`,
  mcpToolCallInvalid:
    'Invalid params: tools/call takes {"name": <the tool\'s name>, "arguments": <an object>}',
} as const;

const authError = (message: string, detail = '') => new ApiError(401, message, detail, AUTH_ERROR_CODE);

export const errors = {
  invalidCredentials: () => authError(messages.invalidCredentials),
  missingToken: () => authError(messages.missingToken),
  invalidToken: (detail = '') => authError(messages.invalidToken, detail),
  wrongEnvironment: () => authError(messages.wrongEnvironment),
  restrictedKey: () => authError(messages.restrictedKey),
  scopeDenied: (accepted: readonly string[]) =>
    authError(
      messages.scopeDenied,
      accepted.length ? `Accepted scopes: ${accepted.join(', ')}` : 'Not available to MCP tokens',
    ),
  mcpConsumerDenied: () => authError(messages.mcpConsumerDenied),
  mcpScopesUnknown: (scopes: string[]) => new ApiError(400, messages.mcpScopesUnknown, scopes.join(', ')),
  mcpScopesNotGranted: (scopes: string[]) =>
    new ApiError(400, messages.mcpScopesNotGranted, scopes.join(', ')),
  mcpApiToken: () => authError(messages.mcpApiToken),
  mcpTokenConsumerGone: () => authError(messages.invalidToken, messages.mcpTokenConsumerGone),

  consumerNameInvalid: (detail = '') => new ApiError(400, messages.consumerNameInvalid, detail),
  redirectUrlInvalid: () => new ApiError(422, messages.redirectUrlInvalid),
  consumerNotFound: () => new ApiError(404, messages.consumerNotFound),

  integrationInvalid: (detail = '') => new ApiError(400, messages.integrationInvalid, detail),
  connectionAlreadyActive: (integrationid: number) =>
    new ApiError(400, messages.connectionAlreadyActive(integrationid)),
  countryCodeInvalid: (code: string) => new ApiError(400, messages.countryCodeInvalid(code)),
  countryNotSupported: (code: string) => new ApiError(400, messages.countryNotSupported(code)),
  missingCredential: (detail = '') => new ApiError(400, messages.missingCredential, detail),
  missingPostConnection: (detail = '') => new ApiError(400, messages.missingPostConnection, detail),
  connectionsNotRetrieved: (detail = '') => new ApiError(400, messages.connectionsNotRetrieved, detail),
  connectionIdInvalid: () => new ApiError(400, messages.connectionIdInvalid),
  connectionNotFound: () => new ApiError(404, messages.connectionNotFound),
  connectorUnreachable: (connector: string, detail = '') =>
    new ApiError(502, messages.connectorUnreachable(connector), detail),
  invalidDatetime: (key: string) => new ApiError(422, messages.invalidDatetime(key)),
  transactionNotFound: () => new ApiError(404, messages.transactionNotFound),
  linkNotFound: () => new ApiError(404, messages.linkNotFound),

  imageNotFound: (imageType: string) => new ApiError(404, messages.imageNotFound(imageType)),

  webhookDuplicate: () => new ApiError(400, messages.webhookDuplicate),
  webhookUrlInvalid: () => new ApiError(400, messages.webhookUrlInvalid),
  webhookNotFound: () => new ApiError(404, messages.webhookNotFound),
  webhookEventInvalid: (event: string) =>
    new ApiError(400, messages.webhookEventInvalid, `Unknown event '${event}'`),
  webhookIntegrationRequired: (api: string) =>
    new ApiError(
      400,
      messages.webhookIntegrationRequired,
      `Give the integrationid of an active ${api} integration`,
    ),
  webhookDeliveryNotFound: () => new ApiError(404, messages.webhookDeliveryNotFound),

  datastoreNotFound: () => new ApiError(404, messages.datastoreNotFound),
  datastoreDataNotFound: () => new ApiError(404, messages.datastoreDataNotFound),
  /** `problems` name each offending column and what is wrong with it. */
  datastoreInputInvalid: (problems: readonly string[]) =>
    new ApiError(422, messages.datastoreInputInvalid, problems.join('; ')),

  syncNotFound: () => new ApiError(404, messages.syncNotFound),
  chainNotFound: () => new ApiError(404, messages.chainNotFound),
  flowNotFound: () => new ApiError(404, messages.flowNotFound),
  executionNotFound: () => new ApiError(404, messages.executionNotFound),
  noConsumersFound: (detail = '') => new ApiError(400, messages.noConsumersFound, detail),
  contextDataInvalid: (fieldName: string, fieldType: string) =>
    new ApiError(422, messages.contextDataInvalid(fieldName, fieldType)),
  oneIntegrationPerApi: (detail = '') => new ApiError(400, messages.oneIntegrationPerApi, detail),
  integrationNotInSync: (integrationid: string) =>
    new ApiError(400, messages.integrationNotInSync(integrationid)),
  consumerNotInSync: () => new ApiError(404, messages.consumerNotInSync),
  flowNotActivated: () => new ApiError(404, messages.flowNotActivated),
  bodyShouldBeList: () => new ApiError(422, messages.bodyShouldBeList),
  flowRequiresConfiguration: (missing: string[]) =>
    new ApiError(400, messages.flowRequiresConfiguration, `Missing: ${missing.join(', ')}`),
  datalayerNotConfigured: (detail = '') => new ApiError(400, messages.datalayerNotConfigured, detail),
  datalayerTargetNotFound: () => new ApiError(404, messages.datalayerTargetNotFound),
  issueConsumerNotFound: () => new ApiError(404, messages.issueConsumerNotFound),
  issueNotFound: () => new ApiError(404, messages.issueNotFound),

  /** Any refused accounting request: the detail says what was wrong. */
  accountingFailure: (detail: string) => new ApiError(400, messages.accountingFailure, detail),
  accountingCompanyIdInvalid: (detail = '') =>
    new ApiError(400, messages.accountingCompanyIdInvalid, detail, 'ERROR_INVALID_FIELD_FORMAT_COMPANY_ID'),
  accountingVatNumberInvalid: (detail = '') =>
    new ApiError(400, messages.accountingVatNumberInvalid, detail, 'ERROR_INVALID_VAT_FORMAT'),
  accountingPartnerDuplicate: (detail = '') =>
    new ApiError(400, messages.accountingPartnerDuplicate, detail, 'ERROR_PARTNER_ALREADY_EXISTS'),
  accountingOperationNotFound: (detail = '') =>
    new ApiError(404, messages.accountingOperationNotFound, detail),
  /** A Datalab query past the budget of one request (`exceeded`: which bound, e.g. "2,000,000 rows"). */
  queryOverBudget: (exceeded: string, detail = '') =>
    new ApiError(400, messages.queryOverBudget(exceeded), detail),
  /**
   * A control call past its budget (lib/budgets.ts), refused before any of its work: `what` names the
   * call, `bound` the budget passed (e.g. "20,000 items"), `detail` what the call asked and how to split it.
   */
  overBudget: (what: string, bound: string, detail: string) =>
    new ApiError(422, messages.overBudget(what, bound), detail),

  notFound: () => new ApiError(404, messages.notFound),
  /** A path the sandbox serves, asked with a method it does not take (`allowed`, for the Allow header). */
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiError(
      405,
      messages.methodNotAllowed,
      `${method} is not allowed here; allowed: ${allowed.join(', ')}`,
    ),
  payloadTooLarge: (limit: number) => new ApiError(413, messages.payloadTooLarge(limit)),
  unsupportedMediaType: () => new ApiError(415, messages.unsupportedMediaType),
  changeNotStorable: (detail: string) => new ApiError(422, messages.changeNotStorable, detail),
  worldFull: (used: number, limit: number) => new ApiError(413, messages.worldFull(used, limit)),
  listFull: (what: string, limit: number, detail: string) =>
    new ApiError(413, messages.listFull(what, limit), detail),
  recordTooLarge: (path: string, size: number, limit: number) =>
    new ApiError(413, messages.recordTooLarge(path, size, limit)),
  adminTokenRequired: () => authError(messages.adminTokenRequired),
  worldNotFound: (id: string) => new ApiError(404, messages.worldNotFound(id)),
  worldsNotServed: () => new ApiError(404, messages.worldsNotServed),
  worldsCountFull: (limit: number) => new ApiError(429, messages.worldsCountFull(limit)),
  worldsBytesFull: (used: number, limit: number) => new ApiError(429, messages.worldsBytesFull(used, limit)),
  /** The request policy (platform/request-policy.ts): a Host that names no server of this sandbox. */
  hostNotAllowed: (host: string) => new ApiError(403, messages.hostNotAllowed(host)),
  /** A state change on a control surface that a browser says comes from another site. */
  crossSiteRefused: () => new ApiError(403, messages.crossSiteRefused),
  /** An MCP request from a browser page whose origin is not let in. */
  originNotAllowed: () => new ApiError(403, messages.originNotAllowed),
  /** A request that carries this sandbox's own delivery marker. */
  selfCallRefused: () => new ApiError(403, messages.selfCallRefused),
  /** `what` (the clock...) would be at `target` (null: beyond any date), outside lib/calendar.ts's range. */
  outsideCalendar: (what: string, target: string | null) =>
    new ApiError(422, messages.outsideCalendar, `${what} would be at ${target ?? 'no valid date'}`),
  requestNotFound: () => new ApiError(404, messages.requestNotFound),
  /** A fail-on list of the readiness report with words it does not know. */
  badReportFailOn: (unknown: string[], known: readonly string[]) =>
    new ApiError(400, messages.badReportFailOn(unknown), `Known: ${known.join(', ')}`),
  reportNeedsJournal: () => new ApiError(400, messages.reportNeedsJournal),
  faultNotFound: () => new ApiError(404, messages.faultNotFound),
};

export type { ValidationErrorBody, ValidationIssue } from './validation-errors.js';
export { ValidationFailure };

/** A body that is not JSON, as FastAPI answers it: where (in characters) and why Python's reader stopped. */
export const invalidJson = (pos: number, error: string) =>
  new ValidationFailure([pydanticIssue(['body', pos], 'json_invalid', {}, { error })]);

/** A JSON body nested deeper than the sandbox walks (see MAX_JSON_DEPTH in body-guard.ts). */
export const jsonTooDeep = (max: number) =>
  new ValidationFailure([{ loc: ['body', 0], msg: messages.jsonTooDeep(max), type: 'json_invalid' }]);
