/**
 * Every error the sandbox answers is an ApiError built by one of the named helpers below, and every
 * message text of the specification lives here once. Tests import the same helpers, so a message that
 * drifts from the specification fails in one place.
 */

export type ErrorStatus = 400 | 401 | 404 | 413 | 415 | 422 | 500;

export const AUTH_ERROR_CODE = 'ERROR_SERVICE_AUTHENTICATION_ERROR';

export interface ServiceErrorBody {
  message: string;
  status: 'error';
  detail: string;
  error_code?: string;
}

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly detail: string;
  readonly errorCode: string | undefined;

  constructor(status: ErrorStatus, message: string, detail = '', errorCode?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.errorCode = errorCode;
  }

  toBody(): ServiceErrorBody {
    const body: ServiceErrorBody = { message: this.message, status: 'error', detail: this.detail };
    if (this.errorCode !== undefined) body.error_code = this.errorCode;
    return body;
  }
}

/** Message templates of the specification's Errors table, named once. */
export const messages = {
  invalidCredentials: 'The provided credentials are not correct',
  missingToken: 'Missing or malformed Authorization header: expected "Bearer <token>"',
  invalidToken: 'The access token is invalid or has expired',
  wrongEnvironment: 'The API key of this token does not belong to the environment of this resource',
  restrictedKey: 'The API key of this token is restricted to other consumers',
  scopeDenied: 'The token does not grant a scope accepted by this operation',
  mcpConsumerDenied: 'The token is bound to another consumer',
  mcpScopesUnknown: 'Unknown scope requested',
  mcpScopesNotGranted: 'The requested scopes are not granted to this API key',

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
  accountingPartnerNotFound: "The client/supplier doesn't exist in the accounting system.",
  accountingInvoiceNotFound: "The invoice doesn't exist in the accounting system.",
  accountingEntryNotFound: "The entry doesn't exist in the accounting system.",
  accountingAnalyticAccountNotFound: "The analytic account doesn't exist in the accounting system.",
  accountingOperationNotFound: "The miscellaneous operation doesn't exist in the accounting system.",

  posOrderNotFound: (orderId: string) => `The order with id ${orderId} could not be found`,
  posCustomerNotFound: (customerId: string) => `The customer with id ${customerId} could not be found`,
  commerceCustomerNotFound: "The customer doesn't exist.",
  commerceProductNotFound: "The product doesn't exist.",
  commerceVariantNotFound: "The variant doesn't exist.",
  commerceOrderNotFound: "The order doesn't exist.",

  invoicingContactNotFound: "The contact doesn't exist.",
  invoicingProductNotFound: "The product doesn't exist.",
  invoicingTaxNotFound: "The tax doesn't exist.",
  invoicingInvoiceIdInvalid: "The ID of the invoice doesn't have the correct format.",
  invoicingInvoiceNotFound: "The invoice doesn't exist in the invoicing system.",
  invoicingOpportunityNotFound: "The opportunity doesn't exist.",
  invoicingDocumentInvalid: 'The document is not a valid base64 string representing a PDF.',
  paymentNotFound: "The payment doesn't exist in the system.",

  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  payloadTooLarge: (limit: number) => `The request body is larger than the limit of ${limit} bytes`,
  unsupportedMediaType: 'The request body must be JSON, sent with Content-Type: application/json',
  jsonTooDeep: (max: number) => `JSON decode error: arrays and objects nest deeper than ${max} levels`,
  internal: 'Internal server error',
  changeNotStorable: 'The change cannot be stored: it is too large or too deeply nested',
  adminTokenRequired: 'The control endpoints need the admin token (Authorization: Bearer <admin token>)',
  clockOutOfRange: 'The sandbox clock must stay between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z',
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
  accountingCompanyIdInvalid: (detail = '') => new ApiError(400, messages.accountingCompanyIdInvalid, detail),
  accountingVatNumberInvalid: (detail = '') => new ApiError(400, messages.accountingVatNumberInvalid, detail),
  accountingPartnerDuplicate: (detail = '') => new ApiError(400, messages.accountingPartnerDuplicate, detail),
  accountingPartnerNotFound: (detail = '') => new ApiError(404, messages.accountingPartnerNotFound, detail),
  accountingInvoiceNotFound: (detail = '') => new ApiError(404, messages.accountingInvoiceNotFound, detail),
  accountingEntryNotFound: (detail = '') => new ApiError(404, messages.accountingEntryNotFound, detail),
  accountingAnalyticAccountNotFound: (detail = '') =>
    new ApiError(404, messages.accountingAnalyticAccountNotFound, detail),
  accountingOperationNotFound: (detail = '') =>
    new ApiError(404, messages.accountingOperationNotFound, detail),

  /** By-id reads of the POS and PMS verticals (their 404 names the id). */
  posOrderNotFound: (orderId: string) => new ApiError(404, messages.posOrderNotFound(orderId)),
  posCustomerNotFound: (customerId: string) => new ApiError(404, messages.posCustomerNotFound(customerId)),
  commerceCustomerNotFound: () => new ApiError(404, messages.commerceCustomerNotFound),
  commerceProductNotFound: () => new ApiError(404, messages.commerceProductNotFound),
  commerceVariantNotFound: () => new ApiError(404, messages.commerceVariantNotFound),
  commerceOrderNotFound: () => new ApiError(404, messages.commerceOrderNotFound),

  invoicingContactNotFound: (detail = '') => new ApiError(404, messages.invoicingContactNotFound, detail),
  invoicingProductNotFound: (detail = '') => new ApiError(404, messages.invoicingProductNotFound, detail),
  invoicingTaxNotFound: (detail = '') => new ApiError(404, messages.invoicingTaxNotFound, detail),
  invoicingInvoiceIdInvalid: (detail = '') => new ApiError(400, messages.invoicingInvoiceIdInvalid, detail),
  invoicingInvoiceNotFound: (detail = '') => new ApiError(404, messages.invoicingInvoiceNotFound, detail),
  invoicingOpportunityNotFound: (detail = '') =>
    new ApiError(404, messages.invoicingOpportunityNotFound, detail),
  invoicingDocumentInvalid: (detail = '') => new ApiError(400, messages.invoicingDocumentInvalid, detail),
  paymentNotFound: (detail = '') => new ApiError(404, messages.paymentNotFound, detail),

  notFound: () => new ApiError(404, messages.notFound),
  methodNotAllowed: () => new ApiError(404, messages.methodNotAllowed),
  payloadTooLarge: (limit: number) => new ApiError(413, messages.payloadTooLarge(limit)),
  unsupportedMediaType: () => new ApiError(415, messages.unsupportedMediaType),
  changeNotStorable: (detail: string) => new ApiError(422, messages.changeNotStorable, detail),
  adminTokenRequired: () => authError(messages.adminTokenRequired),
  /** A move of the sandbox clock to `target` (null: beyond any valid date), refused: see lib/clock.ts. */
  clockOutOfRange: (target: Date | null) =>
    new ApiError(
      422,
      messages.clockOutOfRange,
      target
        ? `The move would set the clock to ${target.toISOString()}`
        : 'The move would set the clock beyond any date',
    ),
};

/** One entry of the validation error body, in the shape of the reference's ValidationError. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ValidationErrorBody {
  message: 'Validation error';
  status: 'error';
  detail: ValidationIssue[];
}

export class ValidationFailure extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('Validation error');
    this.name = 'ValidationFailure';
    this.issues = issues;
  }
  toBody(): ValidationErrorBody {
    return { message: 'Validation error', status: 'error', detail: this.issues };
  }
}

export const invalidJson = (detail: string) =>
  new ValidationFailure([{ loc: ['body', 0], msg: `JSON decode error: ${detail}`, type: 'json_invalid' }]);

/** A JSON body nested deeper than the sandbox walks (see MAX_JSON_DEPTH in body-guard.ts). */
export const jsonTooDeep = (max: number) =>
  new ValidationFailure([{ loc: ['body', 0], msg: messages.jsonTooDeep(max), type: 'json_invalid' }]);
