/**
 * The operations of the published document, as the readiness report matches requests to them: by
 * method and path (a literal segment before a parameter), with what the report reads of each: its
 * id, tag, whether it is deprecated, the query parameters it takes, and its request body's schema.
 */

import { CLIENT_ROUTE_MARKER, NEWER_REFERENCE_MARKER } from '../../lib/client-routes.js';

type Json = Record<string, unknown>;

/**
 * Where an operation is described: the published document; the sandbox's own, as a route the
 * official clients call (the service answers it) or as an operation of a newer published version;
 * or the sandbox's own alone (its control endpoints, link pages, images).
 */
export type OperationSource = 'published' | 'client' | 'newer' | 'sandbox';

export interface Operation {
  operationId: string;
  method: string;
  /** The path as published, `/consumers/{consumer_id}/accounting/invoices`. */
  path: string;
  tag: string;
  summary: string;
  deprecated: boolean;
  /** Query parameters it takes. */
  query: ReadonlySet<string>;
  /** The JSON schema of its request body, when it takes one. */
  body: unknown;
  /** The first segment after /consumers/{consumer_id}/ (accounting, pos...), else null. */
  area: string | null;
  source: OperationSource;
}

interface Candidate {
  operation: Operation;
  segments: (string | null)[];
  literals: number;
}

/**
 * The facts of the published document's request bodies (fixtures/published-bodies.json, derived from
 * it by scripts/reference-facts.ts): schemas by operationId, and the schemas they name (`published:`).
 */
export interface PublishedBodies {
  bodies: Record<string, unknown>;
  schemas: Record<string, Json>;
}

export interface OperationIndex {
  /** The operation a request reaches, or null when the document has none there. */
  match(method: string, path: string): Operation | null;
  byId(operationId: string): Operation | undefined;
  /** Resolves a `$ref` of the document. */
  resolve(schema: unknown): Json | null;
  readonly operations: readonly Operation[];
  /** The first segments of the published paths (consumers, token, webhooks...): the API's namespace. */
  readonly roots: ReadonlySet<string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

/**
 * The index of the published OpenAPI document (its JSON) and of the sandbox's own (what it serves
 * beyond): a request matches the published operation first.
 */
export function operationIndex(
  document: Json,
  sandboxDocument: Json = {},
  published: PublishedBodies = { bodies: {}, schemas: {} },
): OperationIndex {
  const buckets = new Map<string, Candidate[]>();
  const operations: Operation[] = [];
  const ids = new Map<string, Operation>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const components = {
    ...(((sandboxDocument.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>),
    ...(((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>),
    ...published.schemas,
  };
  const resolve = (schema: unknown): Json | null => {
    let current = schema;
    for (let hops = 0; hops < 32; hops += 1) {
      if (current === null || typeof current !== 'object') return null;
      const ref = (current as Json).$ref;
      if (typeof ref !== 'string') return current as Json;
      const name = ref.startsWith('#/components/schemas/') ? ref.slice(21) : null;
      current = name !== null && Object.hasOwn(components, name) ? components[name] : null;
    }
    return null;
  };
  const sources: [Record<string, Record<string, Json>>, boolean][] = [
    [paths, true],
    [(sandboxDocument.paths ?? {}) as Record<string, Record<string, Json>>, false],
  ];
  for (const [documentPaths, isPublished] of sources)
    for (const [path, item] of Object.entries(documentPaths)) {
      const segments = segmentsOf(path);
      for (const method of METHODS) {
        const raw = item[method];
        if (!raw) continue;
        const parameters = [
          ...((item.parameters as Json[] | undefined) ?? []),
          ...((raw.parameters as Json[]) ?? []),
        ];
        const query = new Set(
          parameters.flatMap((parameter) => {
            const resolved = resolve(parameter) ?? parameter;
            return resolved.in === 'query' && typeof resolved.name === 'string' ? [resolved.name] : [];
          }),
        );
        const content = (resolve(raw.requestBody)?.content ?? {}) as Record<string, Json>;
        const operation: Operation = {
          operationId: String(raw.operationId ?? `${method} ${path}`),
          method: method.toUpperCase(),
          path,
          tag: String((raw.tags as string[] | undefined)?.[0] ?? ''),
          summary: String(raw.summary ?? ''),
          deprecated: raw.deprecated === true,
          query,
          // The published document's own schema where it has one (the served one may take more).
          body:
            (isPublished && Object.hasOwn(published.bodies, String(raw.operationId))
              ? published.bodies[String(raw.operationId)]
              : undefined) ??
            content['application/json']?.schema ??
            null,
          area: segments[0] === 'consumers' && segments.length > 2 ? (segments[2] as string) : null,
          source: published
            ? 'published'
            : raw[CLIENT_ROUTE_MARKER]
              ? 'client'
              : raw[NEWER_REFERENCE_MARKER]
                ? 'newer'
                : 'sandbox',
        };
        operations.push(operation);
        ids.set(operation.operationId, operation);
        const pattern = segments.map((segment) => (/^\{.+\}$/.test(segment) ? null : segment));
        const key = `${operation.method} ${segments.length}`;
        const bucket = buckets.get(key) ?? [];
        bucket.push({ operation, segments: pattern, literals: pattern.filter((s) => s !== null).length });
        buckets.set(key, bucket);
      }
    }
  // The one with the most literal segments first (as the router), the published one of a shape first.
  const rank = (candidate: Candidate) =>
    (candidate.operation.source === 'published' ? 1000 : 0) + candidate.literals;
  for (const bucket of buckets.values()) bucket.sort((a, b) => rank(b) - rank(a));
  const roots = new Set(Object.keys(paths).map((path) => segmentsOf(path)[0] ?? ''));
  return {
    operations,
    roots,
    resolve,
    byId: (operationId) => ids.get(operationId),
    match(method, path) {
      const segments = segmentsOf(path);
      const bucket = buckets.get(`${method.toUpperCase()} ${segments.length}`);
      if (!bucket) return null;
      for (const candidate of bucket) {
        if (candidate.segments.every((segment, i) => segment === null || segment === segments[i])) {
          return candidate.operation;
        }
      }
      return null;
    },
  };
}

/** How many unknown fields of one body the report names at most. */
const MAX_UNKNOWN_FIELDS = 20;

/**
 * The fields of `value` the schema does not define (`lines[0].colour`), as far as it can tell: a
 * schema that accepts any property, or a union whose branches disagree, names none under it.
 */
export function unknownFields(value: unknown, schema: unknown, index: OperationIndex): string[] {
  const out: string[] = [];
  walk(value, schema, '', index, out, 0);
  return out.slice(0, MAX_UNKNOWN_FIELDS);
}

/** The properties an object schema defines, or null when it takes any (or cannot be told). */
function propertiesOf(
  schema: Json | null,
  index: OperationIndex,
  depth: number,
): Map<string, unknown> | null {
  if (schema === null || depth > 16) return null;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    // A union: a field is known when any object branch defines it.
    const merged = new Map<string, unknown>();
    let objects = 0;
    for (const branch of branches) {
      const resolved = index.resolve(branch);
      if (resolved === null || resolved.type === 'null') continue;
      const properties = propertiesOf(resolved, index, depth + 1);
      if (properties === null) {
        if (resolved.type === 'object' || resolved.properties) return null;
        continue;
      }
      objects += 1;
      for (const [name, sub] of properties) if (!merged.has(name)) merged.set(name, sub);
    }
    return objects > 0 ? merged : null;
  }
  if (Array.isArray(schema.allOf)) {
    const merged = new Map<string, unknown>();
    for (const part of schema.allOf) {
      const properties = propertiesOf(index.resolve(part), index, depth + 1);
      if (properties === null) return null;
      for (const [name, sub] of properties) merged.set(name, sub);
    }
    return merged;
  }
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties || typeof properties !== 'object') return null;
  const additional = schema.additionalProperties;
  if (additional !== undefined && additional !== false) return null;
  return new Map(Object.entries(properties));
}

function itemsOf(schema: Json | null, index: OperationIndex): unknown {
  if (schema === null) return null;
  if (schema.items) return schema.items;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (!Array.isArray(branches)) return null;
  for (const branch of branches) {
    const resolved = index.resolve(branch);
    if (resolved?.items) return resolved.items;
  }
  return null;
}

function walk(
  value: unknown,
  schema: unknown,
  at: string,
  index: OperationIndex,
  out: string[],
  depth: number,
) {
  if (out.length >= MAX_UNKNOWN_FIELDS || depth > 12 || value === null || typeof value !== 'object') return;
  const resolved = index.resolve(schema);
  if (Array.isArray(value)) {
    const items = itemsOf(resolved, index);
    if (items === null) return;
    for (const [i, item] of value.slice(0, 50).entries())
      walk(item, items, `${at}[${i}]`, index, out, depth + 1);
    return;
  }
  const properties = propertiesOf(resolved, index, 0);
  if (properties === null) return;
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    const path = at === '' ? name : `${at}.${name}`;
    if (!properties.has(name)) {
      out.push(path);
      if (out.length >= MAX_UNKNOWN_FIELDS) return;
      continue;
    }
    walk(field, properties.get(name), path, index, out, depth + 1);
  }
}

/** How many departures from the schema of one body the report names at most. */
const MAX_INVALID_VALUES = 20;

/**
 * Where `value` departs from the schema besides unknown fields: a value of another type, one outside
 * its enum, a required field missing (`lines[0].quantity: a string where the schema has a number`), a
 * string beyond its length or pattern, a number beyond its bounds. A union is met when one of its
 * branches is; formats are not checked.
 */
export function invalidValues(value: unknown, schema: unknown, index: OperationIndex): string[] {
  const out: string[] = [];
  check(value, schema, '', index, out, 0);
  return out.slice(0, MAX_INVALID_VALUES);
}

/** Whether `text` matches a schema's pattern; a pattern JavaScript cannot read says nothing. */
function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

function typeMatches(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = typeOf(value);
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
}

function check(
  value: unknown,
  schema: unknown,
  at: string,
  index: OperationIndex,
  out: string[],
  depth: number,
) {
  if (out.length >= MAX_INVALID_VALUES || depth > 12) return;
  const resolved = index.resolve(schema);
  if (resolved === null) return;
  const where = at === '' ? 'the body' : at;
  const branches = (resolved.anyOf ?? resolved.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    // Met when one branch has nothing to say.
    const said = branches.map((branch) => {
      const issues: string[] = [];
      check(value, branch, at, index, issues, depth + 1);
      return issues;
    });
    if (said.some((issues) => issues.length === 0)) return;
    const nearest = said.reduce((a, b) => (b.length < a.length ? b : a));
    out.push(...nearest.slice(0, MAX_INVALID_VALUES - out.length));
    return;
  }
  if (Array.isArray(resolved.allOf)) {
    for (const part of resolved.allOf) check(value, part, at, index, out, depth + 1);
    return;
  }
  if (resolved.type !== undefined && !typeMatches(value, resolved.type)) {
    const expected = Array.isArray(resolved.type) ? resolved.type.join(' or ') : String(resolved.type);
    out.push(`${where}: ${typeOf(value)} where the schema has ${expected}`);
    return;
  }
  if (Array.isArray(resolved.enum) && !resolved.enum.some((allowed) => allowed === value)) {
    out.push(
      `${where}: ${JSON.stringify(value).slice(0, 60)} is not one of ${resolved.enum.slice(0, 12).join(', ')}`,
    );
    return;
  }
  if (resolved.const !== undefined && resolved.const !== value) {
    out.push(
      `${where}: ${JSON.stringify(value).slice(0, 60)} where the schema has ${JSON.stringify(resolved.const)}`,
    );
    return;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof resolved.maxLength === 'number' && length > resolved.maxLength) {
      out.push(`${where}: ${length} characters where the schema allows ${resolved.maxLength} at most`);
    } else if (typeof resolved.minLength === 'number' && length < resolved.minLength) {
      out.push(`${where}: ${length} characters where the schema wants ${resolved.minLength} at least`);
    } else if (
      typeof resolved.pattern === 'string' &&
      value.length <= 1000 &&
      !matches(resolved.pattern, value)
    ) {
      out.push(`${where}: ${JSON.stringify(value.slice(0, 60))} does not match ${resolved.pattern}`);
    }
    return;
  }
  if (typeof value === 'number') {
    if (typeof resolved.maximum === 'number' && value > resolved.maximum) {
      out.push(`${where}: ${value} above the schema's maximum ${resolved.maximum}`);
    } else if (typeof resolved.minimum === 'number' && value < resolved.minimum) {
      out.push(`${where}: ${value} below the schema's minimum ${resolved.minimum}`);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (resolved.items)
      for (const [i, item] of value.slice(0, 50).entries())
        check(item, resolved.items, `${at}[${i}]`, index, out, depth + 1);
    return;
  }
  if (value !== null && typeof value === 'object') {
    const properties = (resolved.properties ?? {}) as Record<string, unknown>;
    for (const name of (resolved.required as string[] | undefined) ?? []) {
      if (!Object.hasOwn(value, name)) out.push(`${at === '' ? name : `${at}.${name}`}: required, missing`);
    }
    for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
      if (Object.hasOwn(properties, name))
        check(field, properties[name], at === '' ? name : `${at}.${name}`, index, out, depth + 1);
    }
  }
}
