import type { z } from '@hono/zod-openapi';
import { ApiError, type ErrorStatus, type ServiceErrorBody, ValidationFailure } from '../lib/errors.js';
import { toValidationIssues } from '../lib/validation.js';

/**
 * Why a fixture document was refused: where (the file, when it was read from one, and the JSON path
 * of the offending value) and which rule (the message and detail the API answers for the same
 * record). It is an ApiError, so the control endpoint answers it with the ServiceError envelope;
 * its own `message` (what createApp and the command line show) holds all of it in one line.
 */
export class FixtureError extends ApiError {
  /** The JSON path of the value refused, e.g. consumers[1].connections[0].accounting.invoices[2]. */
  readonly path: string;
  readonly file: string | null;
  /** The API's message for the rule (the envelope's `message`). */
  readonly rule: string;
  /** The status the API answers for the same record (404 for an unknown account, say). */
  readonly apiStatus: number;

  constructor(
    status: ErrorStatus,
    rule: string,
    options: { path: string; detail: string; file: string | null; errorCode?: string; apiStatus?: number },
  ) {
    const where = [options.file, options.path || (options.file ? '' : '(document)')]
      .filter(Boolean)
      .join(': ');
    super(status, rule, options.detail, options.errorCode);
    this.message = `${where}: ${rule}${options.detail ? ` (${options.detail})` : ''}`;
    this.name = 'FixtureError';
    this.path = options.path;
    this.file = options.file;
    this.rule = rule;
    this.apiStatus = options.apiStatus ?? status;
  }

  override toBody(): ServiceErrorBody {
    const where = [this.file, this.path || (this.file ? '' : '(document)')].filter(Boolean).join(': ');
    const detail = `${where}: ${this.detail || this.rule}`;
    const body: ServiceErrorBody = { message: this.rule, status: 'error', detail };
    if (this.errorCode !== undefined) body.error_code = this.errorCode;
    return body;
  }
}

export type PathPart = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JSON path as the documentation writes it: consumers[1].connections[0].name. */
export function formatPath(parts: readonly PathPart[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (IDENTIFIER.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** Schema violations: every issue as "path: message", the first one's path as the error's. */
export function schemaError(
  error: z.ZodError,
  input: unknown,
  base: readonly PathPart[],
  file: string | null,
): FixtureError {
  const issues = toValidationIssues(error, input, 'body').map((issue) => ({
    path: formatPath([...base, ...issue.loc.slice(1)]),
    msg: issue.msg,
  }));
  const [first, ...others] = issues;
  // The first issue's path is the error's; the others follow its message with their own.
  const detail = [first?.msg ?? '', ...others.map((issue) => `${issue.path || '(document)'}: ${issue.msg}`)];
  return new FixtureError(422, 'Validation error', {
    path: first?.path ?? formatPath(base),
    detail: detail.join('; '),
    file,
  });
}

function childOf(node: unknown, key: PathPart): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  return Object.hasOwn(node, key) ? (node as Record<PathPart, unknown>)[key] : undefined;
}

/** The parts of a path written as the API's details write them: lines[0].product_id, items[2]. */
function parseSubPath(text: string): PathPart[] {
  const parts: PathPart[] = [];
  for (const segment of text.split('.')) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)$/.exec(segment);
    if (!match) return [];
    parts.push(match[1] as string);
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) parts.push(Number(index[1]));
  }
  return parts;
}

/** Where in `record` the API's detail points: a leading field path, then a quoted value it names. */
export function locateInRecord(record: unknown, detail: string): PathPart[] {
  const found: PathPart[] = [];
  let node = record;
  let rest = detail;
  // "lines[0]: tax_rate 6 is not ...", "lines[0].product_id 'x' is not ...", "partner_id 'x' is ..."
  for (;;) {
    const lead = /^([A-Za-z_][A-Za-z0-9_.[\]]*)(?=[:\s]|$)/.exec(rest);
    if (!lead) break;
    const parts = parseSubPath(lead[1] as string);
    if (parts.length === 0) break;
    let target: unknown = node;
    for (const part of parts) target = childOf(target, part);
    if (target === undefined) break;
    found.push(...parts);
    node = target;
    rest = rest.slice((lead[1] as string).length).replace(/^:?\s*/, '');
  }
  // A quoted value: the first leaf (or key) of the part found that holds it.
  for (const quoted of detail.matchAll(/'([^']+)'/g)) {
    const hit = findValue(node, quoted[1] as string);
    if (hit) return [...found, ...hit];
  }
  return found;
}

function findValue(node: unknown, value: string): PathPart[] | null {
  if (node === null || typeof node !== 'object') return null;
  const entries: [PathPart, unknown][] = Array.isArray(node)
    ? node.map((child, i) => [i, child])
    : Object.entries(node);
  for (const [key, child] of entries) {
    if ((typeof child === 'string' || typeof child === 'number') && String(child) === value) return [key];
  }
  for (const [key] of entries) {
    if (!Array.isArray(node) && key === value) return [key];
  }
  for (const [key, child] of entries) {
    const deeper = findValue(child, value);
    if (deeper) return [key, ...deeper];
  }
  return null;
}

/**
 * An error of the API's rules raised while a record was applied, as a FixtureError at the record's
 * path (refined to the field the detail names, when it names one). Anything else is rethrown.
 */
export function ruleError(
  error: unknown,
  record: unknown,
  base: readonly PathPart[],
  file: string | null,
): never {
  if (error instanceof FixtureError) throw error;
  if (error instanceof ValidationFailure) {
    // A 422 of a domain function names its place as the request body does: ['body', ...].
    const issue = error.issues[0];
    const parts = (issue?.loc.slice(1) ?? []) as PathPart[];
    throw new FixtureError(422, 'Validation error', {
      path: formatPath([...base, ...parts]),
      detail: issue?.msg ?? '',
      file,
    });
  }
  if (error instanceof ApiError) {
    const within = locateInRecord(record, error.detail || error.message);
    // 404 and 409 describe a missing or clashing resource of a request; refusing a document is a 400.
    const status: ErrorStatus = error.status === 422 ? 422 : 400;
    throw new FixtureError(status, error.message, {
      path: formatPath([...base, ...within]),
      detail: error.detail,
      file,
      ...(error.errorCode !== undefined ? { errorCode: error.errorCode } : {}),
      apiStatus: error.status,
    });
  }
  throw error;
}
