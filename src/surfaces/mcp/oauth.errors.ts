/**
 * The refusals of the MCP server's OAuth authorization server, the protocol's own
 * ({error, error_description}, RFC 6749 section 5.2), and their descriptions.
 */

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_token'
  | 'temporarily_unavailable';

/** The descriptions of the OAuth refusals, each once. */
export const oauthMessages = {
  bodyNotReadable: 'The body must be application/x-www-form-urlencoded or JSON',
  redirectUrisMissing: 'redirect_uris must be a non-empty array of absolute urls',
  redirectUriInvalid: (uri: string) =>
    `The redirect uri '${uri}' is not allowed: an https url, an http url of a loopback host, or a private-use scheme, without a fragment`,
  metadataInvalid: (field: string) => `The client metadata field '${field}' is not valid`,
  clientUnknown: 'The client is not registered (register again: POST /oauth/register)',
  redirectUriUnregistered: 'redirect_uri is not one of the client’s registered redirect uris',
  responseTypeUnsupported: 'Only response_type=code is supported',
  pkceRequired: 'PKCE is required: code_challenge with code_challenge_method=S256',
  resourceInvalid: (resource: string) => `The resource '${resource}' is not this MCP server`,
  signInExpired: 'The sign-in has expired or is unknown: start again from the client',
  noConsumer: 'Pick a consumer',
  noScope: 'Tick at least one scope',
  scopeNotAllowed: (scope: string) => `The scope '${scope}' is not allowed for this API key and environment`,
  denied: 'The user denied the authorization',
  grantTypeUnsupported: 'Supported grant types: authorization_code, refresh_token',
  fieldMissing: (field: string) => `${field} is required`,
  codeInvalid: 'The authorization code is invalid, expired or already used',
  redirectUriMismatch: 'redirect_uri differs from the one of the authorization request',
  clientMismatch: 'The code or refresh token was issued to another client',
  verifierMismatch: 'code_verifier does not match the code_challenge',
  refreshInvalid: 'The refresh token is invalid, expired or already used',
  grantRevoked: (detail: string) => `The grant no longer holds: ${detail}`,
  redirectUriRequired: 'redirect_uri is required: one of the client’s registered redirect uris, exactly',
  parameterRepeated: (name: string) => `The parameter '${name}' is given more than once`,
  tooManyRegistrations: (max: number) =>
    `The ${max} clients registered from this address are all in use: try again later, or register with an API token of the account (Authorization: Bearer)`,
  accountClientsFull: (max: number) =>
    `The ${max} clients registered for this account are all in use: try again later`,
  anonymousRegistrationsFull: (max: number) =>
    `The sandbox holds ${max} anonymous registrations: try again later, or register with an API token of the account (Authorization: Bearer)`,
} as const;

type OAuthStatus = 400 | 401 | 413 | 429;

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly status: OAuthStatus = code === 'invalid_client' || code === 'invalid_token' ? 401 : 400,
    /** For a refusal that passes with time: the seconds to wait. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'OAuthError';
  }

  toBody() {
    return { error: this.code, error_description: this.message };
  }
}
