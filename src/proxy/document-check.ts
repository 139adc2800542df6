import { type Operation, type OperationIndex, operationIndex } from '../control/report/index.js';
import { type Deviation, distinctDeviations, SchemaWalk } from './schema-walk.js';

/**
 * The service against its own document: the operation a request reaches, then whether its answer's
 * status is one the operation declares, whether its body fits that status's schema, whether it
 * carries the headers the document names, and whether the request carried the headers the
 * operation requires. The document is the OpenAPI document the sandbox serves at /openapi.json (the
 * published one, with the corrections docs/fidelity.md lists).
 */

type Json = Record<string, unknown>;

export interface DocumentFinding {
  kind:
    | 'undeclared_status'
    | 'schema_deviation'
    | 'undocumented_field'
    | 'missing_header'
    | 'missing_request_header';
  at: string;
  expected: string;
  seen: string;
}

export interface CheckedExchange {
  operation: Operation | null;
  findings: DocumentFinding[];
}

export interface ExchangeFacts {
  method: string;
  path: string;
  status: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** The answer's body, parsed when JSON; undefined when it was not read whole. */
  body: unknown;
}

export class DocumentCheck {
  readonly index: OperationIndex;
  readonly #document: Json;
  readonly #walk: SchemaWalk;

  constructor(document: Json) {
    this.#document = document;
    this.index = operationIndex(document);
    this.#walk = new SchemaWalk((schema) => this.index.resolve(schema));
  }

  /** The request body schema of the POST at a published path (the create operation), or null. */
  createSchema(path: string): Json | null {
    const item = ((this.#document.paths ?? {}) as Record<string, Record<string, Json>>)[path];
    const body = this.index.resolve(item?.post?.requestBody);
    const content = (body?.content ?? {}) as Record<string, Json>;
    return this.index.resolve(content['application/json']?.schema) ?? null;
  }

  #raw(operation: Operation): Json {
    const item = ((this.#document.paths ?? {}) as Record<string, Record<string, Json>>)[operation.path] ?? {};
    return item[operation.method.toLowerCase()] ?? {};
  }

  check(exchange: ExchangeFacts): CheckedExchange {
    const operation = this.index.match(exchange.method, exchange.path);
    if (!operation) return { operation: null, findings: [] };
    const raw = this.#raw(operation);
    const findings: DocumentFinding[] = [...this.#requestHeaders(raw, exchange)];
    const responses = (raw.responses ?? {}) as Record<string, unknown>;
    const declared =
      responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`] ?? responses.default;
    if (declared === undefined) {
      findings.push({
        kind: 'undeclared_status',
        at: 'status',
        expected: Object.keys(responses).join(', '),
        seen: String(exchange.status),
      });
      return { operation, findings };
    }
    const response = this.index.resolve(declared) ?? {};
    for (const name of Object.keys((response.headers ?? {}) as Json)) {
      const header = this.index.resolve((response.headers as Json)[name]);
      if (header?.required !== false && !Object.hasOwn(exchange.responseHeaders, name.toLowerCase()))
        findings.push({ kind: 'missing_header', at: name, expected: 'present', seen: 'absent' });
    }
    const content = (response.content ?? {}) as Record<string, Json>;
    const schema = content['application/json']?.schema;
    if (schema !== undefined && exchange.body !== undefined)
      for (const deviation of distinctDeviations(this.#walk.check(exchange.body, schema)))
        findings.push(findingOf(deviation));
    return { operation, findings };
  }

  /** Header parameters the operation requires, which the request did not carry. */
  #requestHeaders(raw: Json, exchange: ExchangeFacts): DocumentFinding[] {
    const out: DocumentFinding[] = [];
    for (const parameter of (raw.parameters ?? []) as unknown[]) {
      const resolved = this.index.resolve(parameter);
      if (resolved?.in !== 'header' || resolved.required !== true || typeof resolved.name !== 'string')
        continue;
      if (!Object.hasOwn(exchange.requestHeaders, resolved.name.toLowerCase()))
        out.push({
          kind: 'missing_request_header',
          at: resolved.name,
          expected: 'present (required)',
          seen: 'absent',
        });
    }
    return out;
  }
}

function findingOf(deviation: Deviation): DocumentFinding {
  return {
    kind: deviation.rule === 'extra' ? 'undocumented_field' : 'schema_deviation',
    at: deviation.path,
    expected: deviation.rule === 'required' ? `${deviation.expected} (required)` : deviation.expected,
    seen: deviation.seen,
  };
}
