import type { z } from '@hono/zod-openapi';
import {
  readDateText,
  readDateTimeText,
  readTimestamp,
  type TimeReading,
  takesBoolText,
  takesFloatText,
  takesIntText,
  uuidRefusal,
} from './pydantic-parsing.js';
import { type PydanticType, pydanticIssue, UUID_ERRORS, type ValidationIssue } from './validation-errors.js';

/**
 * Turns zod issues into the entries of the service's validation body. The service validates with
 * pydantic v2 (lax mode) behind FastAPI, and its entries depend on two things: the type of the field
 * and the JSON type of the value sent. REFUSALS below is that table, written once; the field's type
 * is read off the route's schema at the issue's path (the issue alone does not tell a number from an
 * integer, nor a date from a string), the value off the input.
 *
 * Where pydantic's lax mode would take a value the sandbox's schema refuses (a number sent as "12", a
 * boolean as 1, a date as a midnight timestamp), the entry is the one pydantic's strict mode gives.
 */
export type ValidationTarget = 'body' | 'query' | 'path' | 'header';

const TARGET_OF: Record<string, ValidationTarget> = {
  json: 'body',
  form: 'body',
  query: 'query',
  param: 'path',
  header: 'header',
};

export const locationOf = (target: string | undefined): ValidationTarget =>
  TARGET_OF[target ?? 'json'] ?? 'body';

/** The types of field the table knows, in pydantic's terms. */
export type FieldKind =
  | 'number'
  | 'integer'
  | 'string'
  | 'boolean'
  | 'enum'
  | 'literal'
  | 'date'
  | 'datetime'
  | 'uuid'
  | 'array'
  | 'dict'
  | 'model'
  | 'null';

/** The JSON types of a value, a number told apart by what pydantic does with it. */
export type JsonKind =
  | 'string'
  | 'integer'
  | 'fraction'
  | 'nonfinite'
  | 'boolean'
  | 'null'
  | 'array'
  | 'object';

export function jsonKindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return !Number.isFinite(value) ? 'nonfinite' : Number.isInteger(value) ? 'integer' : 'fraction';
    default:
      return 'object';
  }
}

interface Refusal {
  type: PydanticType;
  ctx?: Record<string, unknown>;
}

/** A cell of the table: the entry's type, or how the value itself decides it. */
type Cell = PydanticType | ((value: never, field: { values: readonly unknown[] }) => Refusal);

const timeRefusal = (
  reading: TimeReading,
  parsing: PydanticType,
  inexact: PydanticType | null,
  taken: PydanticType,
): Refusal => {
  if ('error' in reading) return { type: parsing, ctx: { error: reading.error } };
  // A datetime given to a date field must be a day's midnight; one that is, pydantic takes.
  return { type: inexact !== null && !reading.midnight ? inexact : taken };
};

/** A date field given a text: a day, else read as a datetime that must be exact. */
const dateText = (text: string): Refusal => {
  const day = readDateText(text);
  if ('midnight' in day && day.midnight) return { type: 'date_type' };
  return timeRefusal(
    readDateTimeText(text),
    'date_from_datetime_parsing',
    'date_from_datetime_inexact',
    'date_type',
  );
};

/** A datetime field given a text: a datetime, else a day; the error is the day's. */
const dateTimeText = (text: string): Refusal => {
  const reading = readDateTimeText(text);
  if ('midnight' in reading) return { type: 'datetime_type' };
  return timeRefusal(readDateText(text), 'datetime_from_date_parsing', null, 'datetime_type');
};

/** `'a', 'b' or 'c'`, as pydantic lists the values a field takes. */
const expectedOf = (values: readonly unknown[]): string => {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  const last = quoted.pop();
  return quoted.length ? `${quoted.join(', ')} or ${last}` : `${last}`;
};

const SAFE = Number.MAX_SAFE_INTEGER;
/** Past a 64-bit integer, pydantic reads no integer out of a number. */
const I64 = 2 ** 63;
const JSON_KINDS: readonly JsonKind[] = [
  'string',
  'integer',
  'fraction',
  'nonfinite',
  'boolean',
  'null',
  'array',
  'object',
];

/** A row of the table that answers the same whatever the JSON type of the value. */
const everyKind = (cell: Cell): Record<JsonKind, Cell> =>
  Object.fromEntries(JSON_KINDS.map((kind) => [kind, cell])) as Record<JsonKind, Cell>;

/**
 * (field type × JSON type of the value) → pydantic's entry. A cell for a JSON type the field takes is
 * reached only when the sandbox's schema refuses what pydantic would take (the strict-mode entry).
 */
const REFUSALS: Record<FieldKind, Record<JsonKind, Cell>> = {
  number: {
    string: (text: string) => ({ type: takesFloatText(text) ? 'float_type' : 'float_parsing' }),
    integer: 'float_type',
    fraction: 'float_type',
    nonfinite: 'finite_number',
    boolean: 'float_type',
    null: 'float_type',
    array: 'float_type',
    object: 'float_type',
  },
  integer: {
    string: (text: string) => ({ type: takesIntText(text) ? 'int_type' : 'int_parsing' }),
    // Only past 2^53 (the safe integers) does the sandbox refuse an integer: pydantic takes any it
    // can hold, and says int_parsing_size of one past 64 bits written as a float (1e20).
    integer: (n: number) => ({ type: Math.abs(n) >= I64 ? 'int_parsing_size' : 'int_type' }),
    fraction: 'int_from_float',
    nonfinite: 'finite_number',
    boolean: 'int_type',
    null: 'int_type',
    array: 'int_type',
    object: 'int_type',
  },
  string: everyKind('string_type'),
  boolean: {
    string: (text: string) => ({ type: takesBoolText(text) ? 'bool_type' : 'bool_parsing' }),
    // 0 and 1 pydantic takes; other integers it tries to read and cannot; other numbers are no boolean.
    integer: (n: number) => ({
      type: n === 0 || n === 1 || Math.abs(n) >= I64 ? 'bool_type' : 'bool_parsing',
    }),
    fraction: 'bool_type',
    nonfinite: 'bool_type',
    boolean: 'bool_type',
    null: 'bool_type',
    array: 'bool_type',
    object: 'bool_type',
  },
  enum: everyKind((_: unknown, field) => ({ type: 'enum', ctx: { expected: expectedOf(field.values) } })),
  literal: everyKind((_: unknown, field) => ({
    type: 'literal_error',
    ctx: { expected: expectedOf(field.values) },
  })),
  date: {
    string: dateText,
    integer: (n: number) =>
      timeRefusal(readTimestamp(n), 'date_from_datetime_parsing', 'date_from_datetime_inexact', 'date_type'),
    fraction: (n: number) =>
      timeRefusal(readTimestamp(n), 'date_from_datetime_parsing', 'date_from_datetime_inexact', 'date_type'),
    nonfinite: (n: number) => timeRefusal(readTimestamp(n), 'date_from_datetime_parsing', null, 'date_type'),
    boolean: 'date_type',
    null: 'date_type',
    array: 'date_type',
    object: 'date_type',
  },
  datetime: {
    string: dateTimeText,
    integer: (n: number) => timeRefusal(readTimestamp(n), 'datetime_parsing', null, 'datetime_type'),
    fraction: (n: number) => timeRefusal(readTimestamp(n), 'datetime_parsing', null, 'datetime_type'),
    nonfinite: (n: number) => timeRefusal(readTimestamp(n), 'datetime_parsing', null, 'datetime_type'),
    boolean: 'datetime_type',
    null: 'datetime_type',
    array: 'datetime_type',
    object: 'datetime_type',
  },
  uuid: {
    // A text the uuid parser takes but the sandbox's schema does not (no RFC 4122 version or variant,
    // braces, a urn: prefix) has no entry of the service: the parsing one says what the sandbox takes.
    string: (text: string) => ({
      type: 'uuid_parsing',
      ctx: { error: uuidRefusal(text) ?? UUID_ERRORS.notRfc4122 },
    }),
    integer: 'uuid_type',
    fraction: 'uuid_type',
    nonfinite: 'uuid_type',
    boolean: 'uuid_type',
    null: 'uuid_type',
    array: 'uuid_type',
    object: 'uuid_type',
  },
  array: everyKind('list_type'),
  dict: everyKind('dict_type'),
  model: everyKind('model_attributes_type'),
  null: everyKind('none_required'),
};

/** The entry pydantic gives a field of `kind` for `value` (values: an enum's or literal's). */
export function refusalOf(kind: FieldKind, value: unknown, values: readonly unknown[] = []): Refusal {
  const cell = REFUSALS[kind][jsonKindOf(value)];
  return typeof cell === 'string'
    ? { type: cell }
    : (cell as (v: unknown, f: object) => Refusal)(value, { values });
}

// ---------------------------------------------------------------------------------------------
// The field's type, read off the schema.

/** What the walk reads of a zod schema: its kind and, in zod's `def`, the parts it is made of. */
interface SchemaNode {
  type: string;
  def: {
    innerType?: SchemaNode;
    in?: SchemaNode;
    out?: SchemaNode;
    getter?: () => SchemaNode;
    options?: SchemaNode[];
    shape?: Record<string, SchemaNode>;
    catchall?: SchemaNode;
    element?: SchemaNode;
    valueType?: SchemaNode;
    left?: SchemaNode;
    right?: SchemaNode;
    items?: SchemaNode[];
    rest?: SchemaNode | null;
  };
  isInt?: boolean;
  format?: string | null;
  options?: readonly unknown[];
  values?: ReadonlySet<unknown>;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);
/** Schemas wrap one another a few levels deep; a lazy one may refer to itself. */
const MAX_HOPS = 32;

/** The schema under its wrappers (optional, default, a pipe's input, a union with null...). */
function unwrap(schema: SchemaNode | undefined, hops = 0): SchemaNode | undefined {
  let node = schema;
  for (let hop = hops; node !== undefined && hop < MAX_HOPS; hop++) {
    const { type, def } = node;
    if (WRAPPERS.has(type)) node = def.innerType;
    else if (type === 'lazy') node = def.getter?.();
    else if (type === 'pipe') node = def.in?.type === 'transform' ? def.out : def.in;
    else if (type === 'union') {
      const live = (def.options ?? []).filter((option) => unwrap(option, hop + 1)?.type !== 'null');
      if (live.length !== 1) return node;
      node = live[0];
    } else return node;
  }
  return undefined;
}

function childOf(node: SchemaNode, key: PropertyKey, hops: number): SchemaNode | undefined {
  const { def } = node;
  switch (node.type) {
    case 'object':
      return def.shape && Object.hasOwn(def.shape, key) ? def.shape[key as string] : def.catchall;
    case 'array':
      return def.element;
    case 'record':
      return def.valueType;
    case 'tuple':
      return (typeof key === 'number' ? def.items?.[key] : undefined) ?? def.rest ?? undefined;
    case 'intersection':
    case 'union':
      for (const part of node.type === 'union' ? (def.options ?? []) : [def.left, def.right]) {
        const inner = unwrap(part, hops + 1);
        const found = inner && hops < MAX_HOPS ? childOf(inner, key, hops + 1) : undefined;
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** The schema of the field at `path` of `root`, unwrapped. */
export function fieldAt(root: z.ZodType | undefined, path: readonly PropertyKey[]): SchemaNode | undefined {
  let node = unwrap(root as unknown as SchemaNode | undefined);
  for (const key of path) {
    if (node === undefined) return undefined;
    node = unwrap(childOf(node, key, 0));
  }
  return node;
}

const STRING_FORMATS: Record<string, FieldKind> = {
  date: 'date',
  datetime: 'datetime',
  uuid: 'uuid',
  guid: 'uuid',
};
const KIND_OF_TYPE: Record<string, FieldKind> = {
  boolean: 'boolean',
  enum: 'enum',
  literal: 'literal',
  array: 'array',
  tuple: 'array',
  set: 'array',
  record: 'dict',
  map: 'dict',
  object: 'model',
  null: 'null',
};

/** The type of a field, in the table's terms; undefined: one the table does not know (a union...). */
export function kindOf(field: SchemaNode | undefined): FieldKind | undefined {
  if (field === undefined) return undefined;
  if (field.type === 'number') return field.isInt ? 'integer' : 'number';
  if (field.type === 'string') return STRING_FORMATS[field.format ?? ''] ?? 'string';
  return KIND_OF_TYPE[field.type];
}

const valuesOf = (field: SchemaNode | undefined): readonly unknown[] =>
  field?.type === 'enum' ? (field.options ?? []) : field?.type === 'literal' ? [...(field.values ?? [])] : [];

// ---------------------------------------------------------------------------------------------
// Issues to entries.

const EXPECTED_KIND: Record<string, FieldKind> = {
  number: 'number',
  int: 'integer',
  string: 'string',
  boolean: 'boolean',
  object: 'model',
  record: 'dict',
  map: 'dict',
  array: 'array',
  tuple: 'array',
  set: 'array',
  null: 'null',
};

/** The field's type as the issue tells it, where the schema is not at hand. */
function kindOfIssue(issue: z.core.$ZodIssue): FieldKind | undefined {
  if (issue.code === 'invalid_type') return EXPECTED_KIND[issue.expected];
  if (issue.code === 'invalid_format') return STRING_FORMATS[issue.format];
  if (issue.code === 'invalid_value') return 'enum';
  return undefined;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Whether an issue is zod's safe-integer bound, which pydantic does not have. */
const isSafeIntegerBound = (issue: z.core.$ZodIssue): boolean =>
  (issue.code === 'too_big' && issue.origin === 'int' && Number(issue.maximum) === SAFE) ||
  (issue.code === 'too_small' && issue.origin === 'int' && Number(issue.minimum) === -SAFE);

/** A bound of a string, a list or a number, as pydantic words it. */
function boundRefusal(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, value: unknown): Refusal {
  const small = issue.code === 'too_small';
  const limit = Number(
    small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum,
  );
  if (issue.origin === 'string') {
    return small
      ? { type: 'string_too_short', ctx: { min_length: limit } }
      : { type: 'string_too_long', ctx: { max_length: limit } };
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    const actual_length = Array.isArray(value) ? value.length : 0;
    return small
      ? { type: 'too_short', ctx: { field_type: 'List', min_length: limit, actual_length } }
      : { type: 'too_long', ctx: { field_type: 'List', max_length: limit, actual_length } };
  }
  if (small)
    return issue.inclusive === false
      ? { type: 'greater_than', ctx: { gt: limit } }
      : { type: 'greater_than_equal', ctx: { ge: limit } };
  return issue.inclusive === false
    ? { type: 'less_than', ctx: { lt: limit } }
    : { type: 'less_than_equal', ctx: { le: limit } };
}

/** Where the issues are reported, and what they are read against. */
interface Scope {
  input: unknown;
  target: ValidationTarget;
  schema: z.ZodType | undefined;
}

/** The issues of the one option of a union with null that is not null: the field is nullable. */
function nullableIssues(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] | undefined {
  const live = issue.errors.filter(
    (option) => !(option.length === 1 && option[0]?.code === 'invalid_type' && option[0].expected === 'null'),
  );
  if (live.length !== 1 || live.length === issue.errors.length) return undefined;
  return (live[0] ?? []).map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

function entriesOf(issue: z.core.$ZodIssue, scope: Scope): ValidationIssue[] {
  const path = issue.path as PropertyKey[];
  const loc = [scope.target, ...path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const value = valueAt(scope.input, path);
  if (issue.code === 'invalid_union') {
    const inner = nullableIssues(issue);
    if (inner) return inner.flatMap((i) => entriesOf(i, scope));
  }
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) =>
      pydanticIssue([...loc, key], 'extra_forbidden', (value as Record<string, unknown> | undefined)?.[key]),
    );
  }
  const aboutTheValue = ['invalid_type', 'invalid_value', 'invalid_union', 'invalid_format'].includes(
    issue.code,
  );
  // FastAPI reads a body of null as none sent; a missing parameter has no input, a missing field the
  // object it is missing from.
  const absent = value === undefined || (value === null && path.length === 0 && scope.target === 'body');
  if (aboutTheValue && absent) {
    const from = path.length > 0 && scope.target === 'body' ? valueAt(scope.input, path.slice(0, -1)) : null;
    return [pydanticIssue(loc, 'missing', from)];
  }
  const field = fieldAt(scope.schema, path);
  const kind = kindOf(field) ?? kindOfIssue(issue);
  const typed =
    issue.code === 'invalid_type' ||
    issue.code === 'invalid_value' ||
    (issue.code === 'invalid_format' && STRING_FORMATS[issue.format] !== undefined) ||
    isSafeIntegerBound(issue);
  if (typed && kind !== undefined) {
    const { type, ctx } = refusalOf(
      kind,
      value,
      issue.code === 'invalid_value' ? issue.values : valuesOf(field),
    );
    return [pydanticIssue(loc, type, value, ctx)];
  }
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      const { type, ctx } = boundRefusal(issue, value);
      return [pydanticIssue(loc, type, value, ctx)];
    }
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && /^Invalid string/.test(issue.message)) {
        return [pydanticIssue(loc, 'string_pattern_mismatch', value, { pattern: String(issue.pattern) })];
      }
      return [{ type: 'string_pattern_mismatch', loc, msg: issue.message, input: value }];
    case 'invalid_union':
      return [pydanticIssue(loc, 'union_type', value)];
    default:
      // A rule of the sandbox's own schema (a refinement): its message is the service's words.
      return [{ type: 'value_error', loc, msg: issue.message, input: value }];
  }
}

/**
 * The entries of the validation body for a zod error on `input` (the value validated, at `target`):
 * `schema`, the schema it was validated with, tells each field's type; without it the issue's own
 * words are used.
 */
export function toValidationIssues(
  error: z.ZodError,
  input: unknown,
  target: ValidationTarget,
  schema?: z.ZodType,
): ValidationIssue[] {
  return error.issues.flatMap((issue) => entriesOf(issue, { input, target, schema }));
}
