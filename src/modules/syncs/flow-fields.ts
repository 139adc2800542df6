import { z } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import { own, putOwn } from '../../lib/own.js';

/**
 * The configuration fields of a flow (config.definitionFields and the trigger's definitionFields):
 * objects such as `{ name: 'journal', type: 'string', optional: true, default: 'VEN' }`. A field is
 * required unless it says `optional: true` (or `required: false`) or has a default. Its type, when
 * the sandbox knows it, is checked on the values a consumer gives; unknown types take any value.
 */
export interface FieldDefinition {
  name: string;
  type: string | null;
  required: boolean;
  default: unknown;
}

const DATE = z.iso.date();
const DATETIME = z.iso.datetime({ offset: true, local: true });
const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The JSON values each known field type accepts (aliases share a check). */
const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => typeof v === 'string' && DATE.safeParse(v).success,
  datetime: (v) => typeof v === 'string' && DATETIME.safeParse(v).success,
  array: Array.isArray,
  object: isObject,
};

const ALIASES: Record<string, string> = {
  str: 'string',
  text: 'string',
  textarea: 'string',
  password: 'string',
  email: 'string',
  select: 'string',
  float: 'number',
  decimal: 'number',
  int: 'integer',
  bool: 'boolean',
  checkbox: 'boolean',
  switch: 'boolean',
  'date-time': 'datetime',
  list: 'array',
  multiselect: 'array',
  dict: 'object',
  json: 'object',
};

export const KNOWN_FIELD_TYPES = [...Object.keys(TYPE_CHECKS), ...Object.keys(ALIASES)];

export function fieldDefinitions(
  raw: readonly Record<string, unknown>[] | null | undefined,
): FieldDefinition[] {
  const out: FieldDefinition[] = [];
  for (const field of raw ?? []) {
    if (typeof field.name !== 'string' || field.name === '') continue;
    const optional = field.optional === true || field.required === false || field.default !== undefined;
    out.push({
      name: field.name,
      type: typeof field.type === 'string' ? field.type : null,
      required: !optional,
      default: field.default,
    });
  }
  return out;
}

/** Whether a value fits a field type; a type the sandbox does not know accepts anything. */
export function fitsType(type: string | null, value: unknown): boolean {
  if (type === null) return true;
  const key = type.toLowerCase();
  const check = own(TYPE_CHECKS, own(ALIASES, key) ?? key);
  return check ? check(value) : true;
}

const isUnset = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Checks values against the fields, in the order the flow declares them: the first required field
 * left unset refuses with 400 (when `requireAll`), the first value of the wrong type with 422.
 */
export function checkFieldValues(
  fields: readonly FieldDefinition[],
  values: Record<string, unknown>,
  options: { requireAll: boolean },
): void {
  const missing = options.requireAll ? fields.filter((f) => f.required && isUnset(own(values, f.name))) : [];
  for (const field of fields) {
    const value = own(values, field.name);
    if (isUnset(value)) {
      if (options.requireAll && field.required)
        throw errors.flowRequiresConfiguration(missing.map((f) => f.name));
      continue;
    }
    if (!fitsType(field.type, value)) throw errors.contextDataInvalid(field.name, field.type as string);
  }
}

/** The values with the defaults of the fields left unset. */
export function withDefaults(fields: readonly FieldDefinition[], values: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...values };
  for (const field of fields) {
    if (field.default !== undefined && isUnset(own(values, field.name)))
      putOwn(out, field.name, field.default);
  }
  return out;
}
