import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { errors, ValidationFailure } from './errors.js';
import { withClientRequestId } from './transactions.js';
import { locationOf, toValidationIssues } from './validation.js';

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
  })
  .openapi('ValidationError');

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

const requireAuth = (scopes: Scopes, area: string | null): MiddlewareHandler<AppEnv> =>
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
    c.set('principal', principal);
    // Client request ids only concern writes.
    if (c.req.method === 'GET') return next();
    return withClientRequestId(c, next, area);
  };

/**
 * What a route needs to require the bearer token: the OpenAPI security requirement (with the MCP
 * scopes it accepts) and the middleware that enforces it before any input is read. `area` is the
 * One API or path group the operation belongs to (the first of its scopes, by default): a write's
 * client request id is recorded against the consumer's active connection of that One API.
 */
export function secured(scopes: Scopes = null, area: string | null = scopes?.[0] ?? null) {
  const security: Record<string, string[]>[] = [{ bearerAuth: [] }];
  if (scopes) security.push({ mcp_auth: [...scopes] });
  return { security, middleware: [requireAuth(scopes, area)] as [MiddlewareHandler<AppEnv>] };
}

/**
 * A body the reference types anyOf [Item, null]. (`.nullable()` on a registered schema would make
 * the component itself nullable.) Register such routes with `nullableBodyHook`.
 */
export const itemOrNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/**
 * Validation hook of the routes whose body is anyOf [Item, null]: a body that is neither is reported
 * with the item's own issues (as a nullable field is), rather than as a failed union.
 */
export function nullableBodyHook(result: {
  success: boolean;
  error?: z.ZodError;
  data?: unknown;
  target: string;
}): undefined {
  if (result.success || !result.error) return undefined;
  const issues = result.error.issues.flatMap((issue) =>
    issue.code === 'invalid_union' && issue.path.length === 0 ? (issue.errors[0] ?? [issue]) : [issue],
  );
  throw new ValidationFailure(
    toValidationIssues(new z.ZodError(issues), result.data, locationOf(result.target)),
  );
}
