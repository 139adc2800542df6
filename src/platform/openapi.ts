import { type OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { errors, ValidationFailure } from '../lib/errors.js';
import { locationOf, toValidationIssues } from '../lib/validation.js';
import { pydanticIssue } from '../lib/validation-errors.js';
import { isAdmin } from './access.js';
import { isJsonRequest } from './body-guard.js';
import type { AppEnv } from './context.js';
import { withClientRequestId } from './transactions.js';
import { routeDefinitions } from './vertical-mount.js';

/** Wire shapes and route pieces shared by every resource group. */

export const ServiceError = z
  .object({
    message: z.string(),
    status: z.string().nullable().default('error'),
    detail: z.string().nullable().default(''),
    error_code: z.string().nullable().optional(),
  })
  .openapi('ServiceError', { description: 'The error body of every refused request but validation.' });

export const ValidationError = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
    input: z
      .unknown()
      .optional()
      .openapi({ description: 'The value refused (for a missing field, its object)' }),
    ctx: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'What the message is built from (a bound, the values expected...)' }),
  })
  .openapi('ValidationError', {
    description: "One refused input, in the words of the service's validator (pydantic)",
  });

export const HTTPValidationError = z
  .object({
    message: z.string().default('Validation error'),
    status: z.string().default('error'),
    detail: z.array(ValidationError),
  })
  .openapi('HTTPValidationError', {
    description: 'The body of a 422 answer for input that fails validation.',
  });

const ERROR_DESCRIPTIONS = {
  400: 'Bad request: the input breaks a rule of the service',
  401: 'Authentication failure (error_code ERROR_SERVICE_AUTHENTICATION_ERROR)',
  404: 'The resource does not exist',
  409: 'Conflict: the record already exists in the target software',
  413: 'The request body is too large',
  422: 'Validation error',
  429: 'Too many: a bound of the sandbox is reached',
} as const;

type ErrorCode = keyof typeof ERROR_DESCRIPTIONS;

const errorContent = (code: ErrorCode, schema: z.ZodType) => ({
  description: ERROR_DESCRIPTIONS[code],
  content: { 'application/json': { schema } },
});

/**
 * The error responses of a route. 422 is the validation body unless `serviceError422` is set (some
 * operations answer their own 422 messages in the ServiceError shape as well).
 */
export function errorResponses(codes: ErrorCode[], options: { serviceError422?: boolean } = {}) {
  const out: Partial<Record<ErrorCode, ReturnType<typeof errorContent>>> = {};
  for (const code of codes) {
    out[code] =
      code === 422 && !options.serviceError422
        ? errorContent(422, HTTPValidationError)
        : code === 422
          ? errorContent(422, z.union([HTTPValidationError, ServiceError]))
          : errorContent(code, ServiceError);
  }
  return out;
}

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T, description: string, required = true) => ({
  description,
  required,
  content: { 'application/json': { schema } },
});

export const emptyResponse = (description: string) => ({ description });

/** An MCP scope list, as the reference declares it per operation; null: refused to MCP tokens. */
export type Scopes = readonly string[] | null;

/** Whether an operation reads what it reaches or changes it. */
export type ScopeAccess = 'read' | 'write';

/**
 * The MCP scopes of an operation, as the reference derives them from its One API or path group
 * (`area`: accounting, pos, consumers...), its resource group and its access, broadest first: a read
 * accepts [area, area.read, area.group, area.group.read], a write [area, area.group]. Without a
 * group, the area's alone: [area, area.read] or [area].
 */
export function scopesFor(area: string, group: string | null, access: ScopeAccess): readonly string[] {
  const levels = group === null ? [area] : [area, `${area}.${group}`];
  return levels.flatMap((level) => (access === 'read' ? [level, `${level}.read`] : [level]));
}

/**
 * Whether an MCP token carrying `granted` may call an operation that accepts `accepted`: any one of
 * them ('*' grants all); an operation refused to MCP tokens (null) accepts none. The one copy of the
 * rule: requireAuth enforces it, the MCP server's tools/list shows what it lets through.
 */
export function grantsScope(granted: readonly string[], accepted: Scopes): boolean {
  return accepted !== null && (granted.includes('*') || granted.some((s) => accepted.includes(s)));
}

/**
 * Who may call an operation, as each route declares it:
 * - `public`: anyone, without a token (getting a token, the pages of a connection link...);
 * - `account`: any API token of the account's environment; a key restricted to consumers sees only
 *   what is kept for them, an MCP token only what its scopes and its consumer reach;
 * - `account-wide`: the operation changes the account as a whole (its consumers list, its syncs and
 *   their flows), which reaches consumers a restricted key does not see and is not one consumer's
 *   business: refused to keys restricted to consumers and to MCP tokens, before any input is read;
 * - `consumer`: the operation acts on the consumer of its path, which must be one the caller may see
 *   (canSee in lib/access.ts, checked where the consumer is looked up);
 * - `admin`: a control endpoint, under the admin rule (isAdmin in lib/access.ts).
 */
export type AccessPolicy = 'public' | 'account' | 'account-wide' | 'consumer' | 'admin';

/** The policies of the operations that take an API or MCP token. */
export type TokenPolicy = Extract<AccessPolicy, 'account' | 'account-wide' | 'consumer'>;

/**
 * The policy of each declaration, keyed by the route's security list: that list is the one piece of
 * the declaration the OpenAPI registry keeps as is (it drops the middleware), and the served document
 * shows only its content, so keying by it leaves the document unchanged.
 */
const policies = new WeakMap<object, AccessPolicy>();

type Security = Record<string, string[]>[];

function declare(security: Security, policy: AccessPolicy): Security {
  policies.set(security, policy);
  return security;
}

/** The policy a route declares, if it declares one. */
export function policyOf(route: { security?: unknown }): AccessPolicy | undefined {
  const { security } = route;
  return typeof security === 'object' && security !== null ? policies.get(security) : undefined;
}

/**
 * The declared policy of every documented operation of an app, by "METHOD /path" (the method in
 * capitals, the path as documented); an operation that declares none is left out.
 */
export function accessPolicies(app: Pick<OpenAPIHono<AppEnv>, 'openAPIRegistry'>): Map<string, AccessPolicy> {
  const out = new Map<string, AccessPolicy>();
  for (const definition of routeDefinitions(app)) {
    if (definition.type !== 'route') continue;
    const policy = policyOf(definition.route);
    if (policy) out.set(`${definition.route.method.toUpperCase()} ${definition.route.path}`, policy);
  }
  return out;
}

const requireAuth = (policy: TokenPolicy, scopes: Scopes, area: string | null): MiddlewareHandler<AppEnv> =>
  async function authenticate(c, next) {
    // c.get, not c.var: this runs on every request, and c.var builds a new object each time.
    const pending = c.get('tokens').authenticate(c.req.header('authorization'));
    const principal = pending instanceof Promise ? await pending : pending;
    if (principal.mcp) {
      if (!grantsScope(principal.mcp.scopes, scopes)) throw errors.scopeDenied(scopes ?? []);
      const consumerId = c.req.param('consumer_id');
      if (consumerId !== undefined && consumerId.toLowerCase() !== principal.mcp.consumerid) {
        throw errors.mcpConsumerDenied();
      }
    }
    if (policy === 'account-wide') {
      // A token bound to one consumer, or a key restricted to some, may not change what every
      // consumer of the account shares.
      if (principal.mcp) throw errors.mcpConsumerDenied();
      if (principal.consumers) throw errors.restrictedKey();
    }
    c.set('principal', principal);
    // Client request ids only concern writes.
    if (c.req.method === 'GET') return next();
    return withClientRequestId(c, next, area);
  };

/**
 * What a route needs to require the bearer token: the OpenAPI security requirement (with the MCP
 * scopes it accepts), the middleware that enforces it before any input is read, and the route's
 * access policy (see AccessPolicy), which that middleware applies. `area` is the One API or path
 * group the operation belongs to (the first of its scopes, by default): a write's client request id
 * is recorded against the consumer's active connection of that One API.
 */
export function secured(
  policy: TokenPolicy,
  scopes: Scopes = null,
  area: string | null = scopes?.[0] ?? null,
) {
  const security: Security = [{ bearerAuth: [] }];
  if (scopes) security.push({ mcp_auth: [...scopes] });
  return {
    security: declare(security, policy),
    middleware: [requireAuth(policy, scopes, area)] as [MiddlewareHandler<AppEnv>],
  };
}

/** What a route open to anyone declares (spread into createRoute): no token, and no middleware of ours. */
export function publicRoute() {
  return { security: declare([], 'public') };
}

/**
 * What a control endpoint declares (spread into createRoute): the admin security scheme, and the
 * middleware that applies the admin rule.
 */
export function adminRoute(guard: MiddlewareHandler<AppEnv>) {
  return {
    security: declare([{ sandboxAdmin: [] }], 'admin'),
    middleware: [guard] as [MiddlewareHandler<AppEnv>],
  };
}

/** Control endpoints are open on loopback; with an admin token configured they need it. */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isAdmin(c.get('config').adminToken, c.req.header('authorization'))) throw errors.adminTokenRequired();
  await next();
};

/** The guard of every control endpoint, and its `admin` access policy (spread into createRoute). */
export const admin = adminRoute(requireAdmin);

/**
 * A body the reference types anyOf [Item, null]. (`.nullable()` on a registered schema would make
 * the component itself nullable.) A body that is neither is reported with the item's own issues, as
 * a nullable field is (lib/validation.ts).
 */
export const itemOrNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** What a validation hook is handed. */
export interface ValidationResult {
  success: boolean;
  error?: z.ZodError;
  data?: unknown;
  target: string;
}

/** The JSON body schema a route declares. */
export function jsonBodySchemaOf(route: RouteConfig): z.ZodType | undefined {
  const media = route.request?.body?.content?.['application/json'];
  return media && 'schema' in media ? (media.schema as z.ZodType) : undefined;
}

/**
 * The schema the route at hand validates `target` with (json, query, param, header), read off the
 * app's registry by the route's method and path (hono writes the document's `{name}` as `:name`): it
 * tells the validation entries a number from an integer, a date from a text. Only a failed request
 * asks; a route left out of the document has none.
 */
export function requestSchemaOf(
  app: Pick<OpenAPIHono<AppEnv>, 'openAPIRegistry'>,
  method: string,
  routePath: string,
  target: string,
): z.ZodType | undefined {
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    if (route.method.toUpperCase() !== method) continue;
    if (route.path.replaceAll(/\{([^}]+)\}/g, ':$1') !== routePath) continue;
    const request = route.request;
    if (target === 'json') return jsonBodySchemaOf(route);
    const schema =
      target === 'query' ? request?.query : target === 'param' ? request?.params : request?.headers;
    return schema as z.ZodType | undefined;
  }
  return undefined;
}

/**
 * The validation hook of an app (or of a vertical's sub-app): a required JSON body sent without one
 * (no body, or not JSON) reaches it as {}; a failure is reported with each field's type read off the
 * schema the route of `registryOf()` declares.
 */
export function validationHook(
  registryOf: () => Pick<OpenAPIHono<AppEnv>, 'openAPIRegistry'>,
): OpenAPIHono<AppEnv>['defaultHook'] {
  return (result, c) => {
    if (result.target === 'json' && !isJsonRequest(c.req.header('content-type'))) {
      throw new ValidationFailure([pydanticIssue(['body'], 'missing', null)]);
    }
    if (!result.success) {
      const schema = requestSchemaOf(registryOf(), c.req.method, c.req.routePath, result.target);
      throw validationFailure(result, schema);
    }
  };
}

/** The validation body of a failed result, each field's type read off `schema` (the one it was validated with). */
export function validationFailure(
  result: ValidationResult,
  schema: z.ZodType | undefined,
): ValidationFailure {
  const error = result.error ?? new z.ZodError([]);
  return new ValidationFailure(toValidationIssues(error, result.data, locationOf(result.target), schema));
}

/** The path parameter of every consumer-scoped route. */
export const ConsumerIdParam = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
});
