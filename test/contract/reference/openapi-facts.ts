/**
 * What the contract test compares of an OpenAPI document, and how it is read. The reference
 * description of the real service is reduced once, by scripts/reference-facts.ts, to the facts below
 * (test/contract/reference/facts.json); the contract test reads the served document with the same functions.
 */

// biome-ignore lint/suspicious/noExplicitAny: the documents are walked as plain JSON
export type Json = any;
export type Schema = Record<string, Json>;

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  method: string;
  path: string;
  op: Schema;
}

export const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] as Schema })),
  );

export const refName = (ref: string) => ref.split('/').pop() as string;

export function deref(doc: Json, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === 'string' && hops < 50; hops++) {
    current = doc.components.schemas[refName(current.$ref)] ?? {};
  }
  return current;
}

/** Follows $refs and drops a null alternative: anyOf [X, null] is X. */
export function unwrap(doc: Json, schema: Schema | undefined): Schema {
  const current = deref(doc, schema);
  const alternatives = (current.anyOf ?? current.oneOf) as Schema[] | undefined;
  if (alternatives) {
    const rest = alternatives.filter((s) => s.type !== 'null');
    if (rest.length === 1) return unwrap(doc, rest[0]);
  }
  return current;
}

export type Shape =
  | { kind: 'object'; properties: Record<string, Schema>; required: string[] }
  | { kind: 'array'; items: Shape }
  | { kind: 'union'; variants: Shape[] }
  | { kind: 'other' };

/** The top level of a schema: its properties and required list, allOf merged, arrays by their items. */
export function shapeOf(doc: Json, schema: Schema | undefined): Shape {
  const s = unwrap(doc, schema);
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alternatives) {
    return {
      kind: 'union',
      variants: alternatives.filter((a) => a.type !== 'null').map((a) => shapeOf(doc, a)),
    };
  }
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    return { kind: 'array', items: shapeOf(doc, s.items) };
  }
  if (s.properties || s.allOf || s.type === 'object') {
    const properties: Record<string, Schema> = {};
    const required = new Set<string>();
    for (const part of (s.allOf ?? []) as Schema[]) {
      const piece = shapeOf(doc, part);
      if (piece.kind !== 'object') continue;
      Object.assign(properties, piece.properties);
      for (const name of piece.required) required.add(name);
    }
    Object.assign(properties, s.properties ?? {});
    for (const name of (s.required ?? []) as string[]) required.add(name);
    return { kind: 'object', properties, required: [...required].sort() };
  }
  return { kind: 'other' };
}

/** The enum values of a schema (null left out), also through allOf [X, {decoration}]. */
export function enumOf(doc: Json, schema: Schema | undefined): string[] | undefined {
  const s = unwrap(doc, schema);
  if (Array.isArray(s.enum))
    return (s.enum as unknown[])
      .filter((v) => v !== null)
      .map(String)
      .sort();
  for (const part of (s.allOf ?? []) as Schema[]) {
    const values = enumOf(doc, part);
    if (values) return values;
  }
  return undefined;
}

/**
 * The values a property or parameter is checked against: its enum, or for an array without one, the
 * enum of its items. Neither: nothing is checked.
 */
export interface EnumFact {
  enum?: string[];
  itemsEnum?: string[];
}

export function enumFact(doc: Json, schema: Schema | undefined): EnumFact {
  const values = enumOf(doc, schema);
  if (values) return { enum: values };
  const s = unwrap(doc, schema);
  if (s.type === 'array') {
    const items = enumOf(doc, s.items);
    if (items) return { itemsEnum: items };
  }
  return {};
}

/** A shape with its property names, and the EnumFact of those that have one. */
export type ShapeFact =
  | { kind: 'object'; properties: string[]; required: string[]; enums?: Record<string, EnumFact> }
  | { kind: 'array'; items: ShapeFact }
  | { kind: 'union'; variants: ShapeFact[] }
  | { kind: 'other' };

export function shapeFact(doc: Json, shape: Shape): ShapeFact {
  switch (shape.kind) {
    case 'object': {
      const enums = Object.entries(shape.properties)
        .map(([name, schema]) => [name, enumFact(doc, schema)] as const)
        .filter(([, fact]) => fact.enum || fact.itemsEnum);
      return {
        kind: 'object',
        properties: Object.keys(shape.properties),
        required: shape.required,
        ...(enums.length ? { enums: Object.fromEntries(enums) } : {}),
      };
    }
    case 'array':
      return { kind: 'array', items: shapeFact(doc, shape.items) };
    case 'union':
      return { kind: 'union', variants: shape.variants.map((v) => shapeFact(doc, v)) };
    default:
      return { kind: 'other' };
  }
}

export const jsonSchemaOf = (content: Schema | undefined): Schema | undefined =>
  content?.['application/json']?.schema as Schema | undefined;

/** Every component name reachable from a piece of a document. */
export function referencedNames(doc: Json, node: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedNames(doc, item, into);
  } else if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string') {
      const name = refName(node.$ref);
      if (!into.has(name)) {
        into.add(name);
        referencedNames(doc, doc.components.schemas[name], into);
      }
    }
    for (const value of Object.values(node)) referencedNames(doc, value, into);
  }
  return into;
}

export type ParameterPlace = 'path' | 'query';

export function paramsOf(
  doc: Json,
  op: Schema,
  where: ParameterPlace,
): Map<string, { required: boolean; schema: Schema }> {
  const out = new Map<string, { required: boolean; schema: Schema }>();
  for (const raw of (op.parameters ?? []) as Schema[]) {
    const p = deref(doc, raw);
    if (p.in === where) out.set(p.name, { required: p.required === true, schema: p.schema ?? {} });
  }
  return out;
}

export const mcpScopes = (op: Schema): string[] | undefined => {
  const entry = ((op.security ?? []) as Schema[]).find((s) => 'mcp_auth' in s);
  return entry ? [...(entry.mcp_auth as string[])].sort() : undefined;
};

export const successCodes = (op: Schema): string[] =>
  Object.keys(op.responses ?? {})
    .filter((code) => code.startsWith('2'))
    .sort();

/** Everything the contract test compares of one operation of the reference. */
export interface OperationFacts {
  method: string;
  path: string;
  operationId: string;
  /** The tags, in order (an OpenAPI-driven client names its command group after the first). */
  tags: string[];
  /** The summary (a client names the command after it). */
  summary: string;
  /** Path and query parameters, in the reference's order. */
  parameters: ({ in: ParameterPlace; name: string; required: boolean } & EnumFact)[];
  /** Absent: the operation takes no JSON body. */
  requestBody?: { required: boolean; shape: ShapeFact };
  /** The 2xx status codes, sorted. */
  success: string[];
  /** The JSON body of the 200 answer; absent when there is none. */
  response?: ShapeFact;
  /** Every schema name the operation reaches, the reference's spelling, sorted. */
  schemas: string[];
  /** The mcp_auth scopes, sorted; absent when the operation has no mcp_auth entry. */
  mcpScopes?: string[];
}

export interface ReferenceFacts {
  reference: { file: string; sha256: string; operations: number };
  operations: OperationFacts[];
}

/**
 * The operations a newer published version adds to the reference version (facts-newer.json): the
 * version is the newer file's date, newerThan the reference version it is compared with.
 */
export interface NewerReferenceFacts {
  reference: ReferenceFacts['reference'] & { version: string; newerThan: { file: string; sha256: string } };
  operations: OperationFacts[];
}

export function operationFacts(doc: Json, { method, path, op }: Operation): OperationFacts {
  const parameters: OperationFacts['parameters'] = [];
  for (const place of ['path', 'query'] as const) {
    for (const [name, p] of paramsOf(doc, op, place)) {
      parameters.push({ in: place, name, required: p.required, ...enumFact(doc, p.schema) });
    }
  }
  const body = jsonSchemaOf(op.requestBody?.content);
  const response = jsonSchemaOf(op.responses?.['200']?.content);
  const scopes = mcpScopes(op);
  return {
    method,
    path,
    operationId: op.operationId as string,
    tags: (op.tags ?? []) as string[],
    summary: (op.summary ?? '') as string,
    parameters,
    ...(body
      ? {
          requestBody: {
            required: op.requestBody.required === true,
            shape: shapeFact(doc, shapeOf(doc, body)),
          },
        }
      : {}),
    success: successCodes(op),
    ...(response ? { response: shapeFact(doc, shapeOf(doc, response)) } : {}),
    schemas: [...referencedNames(doc, op)].sort(),
    ...(scopes ? { mcpScopes: scopes } : {}),
  };
}

export const referenceFacts = (doc: Json, source: ReferenceFacts['reference']): ReferenceFacts => ({
  reference: source,
  operations: operationsOf(doc).map((o) => operationFacts(doc, o)),
});

// ---------------------------------------------------------------------------------------------
// An answer against the schema a document gives it.

const typesOf = (s: Schema): string[] => (s.type === undefined ? [] : [s.type].flat());
const allowsNull = (doc: Json, s: Schema): boolean =>
  s.nullable === true ||
  typesOf(s).includes('null') ||
  ((s.anyOf ?? s.oneOf) as Schema[] | undefined)?.some((a) => allowsNull(doc, deref(doc, a))) === true;
const jsTypes = (v: unknown): string[] =>
  Array.isArray(v) ? ['array'] : Number.isInteger(v) ? ['integer', 'number'] : [typeof v];
const ID_KEY = /^(id|[a-z]+id)$/;
const FORMATS: Record<string, RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** What the walk also checks: keys the schema does not name (a response model answers only its own). */
export interface AnswerChecks {
  extraKeys?: boolean;
}

/**
 * What of `value` disagrees with `schema`, each as "where: what": a required key missing, a JSON
 * type other than the one typed (a number served as a string), a null where none is allowed, a value
 * outside its enum, a date or date-time or uuid not so written, an empty id; with `extraKeys`, a key
 * the schema does not name.
 */
export function answerProblems(
  doc: Json,
  schema: Schema | undefined,
  value: unknown,
  at: string,
  checks: AnswerChecks = {},
  out: string[] = [],
): string[] {
  const s = deref(doc, schema);
  const types = typesOf(s).filter((t) => t !== 'null');
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (value === null) {
    if ((types.length || alternatives || s.properties || s.enum) && !allowsNull(doc, s))
      out.push(`${at}: null`);
    return out;
  }
  if (alternatives) {
    const live = alternatives.filter((a) => !typesOf(deref(doc, a)).includes('null'));
    const tries = live.map((a) => answerProblems(doc, a, value, at, checks, []));
    if (tries.length && tries.every((t) => t.length))
      out.push(`${at}: no variant fits (${tries[0]?.join('; ')})`);
    return out;
  }
  for (const part of (s.allOf ?? []) as Schema[]) answerProblems(doc, part, value, at, checks, out);
  if (types.length && !jsTypes(value).some((t) => types.includes(t))) {
    out.push(`${at}: ${JSON.stringify(value)} is a JSON ${jsTypes(value)[0]}, typed ${types.join('|')}`);
    return out;
  }
  if (Array.isArray(s.enum) && !s.enum.includes(value)) {
    out.push(`${at}: ${JSON.stringify(value)} is none of ${JSON.stringify(s.enum)}`);
  }
  const format = typeof value === 'string' ? FORMATS[s.format as string] : undefined;
  if (format && !format.test(value as string)) out.push(`${at}: ${JSON.stringify(value)} is no ${s.format}`);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      answerProblems(doc, s.items, item, `${at}[${i}]`, checks, out);
    });
  } else if (typeof value === 'object' && (s.properties || types.includes('object'))) {
    const record = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) {
      if (record[key] === undefined) out.push(`${at}.${key}: required, missing`);
    }
    for (const [key, sub] of Object.entries(properties)) {
      if (record[key] === undefined) continue;
      if (ID_KEY.test(key) && typeof record[key] === 'string' && record[key] === '')
        out.push(`${at}.${key}: empty id`);
      answerProblems(doc, sub, record[key], `${at}.${key}`, checks, out);
    }
    if (checks.extraKeys && s.properties && !s.allOf && s.additionalProperties === undefined) {
      for (const key of Object.keys(record))
        if (!Object.hasOwn(properties, key)) out.push(`${at}.${key}: not in the schema`);
    }
  }
  return out;
}
