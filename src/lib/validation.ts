import type { z } from '@hono/zod-openapi';
import type { ValidationIssue } from './errors.js';

/**
 * Turns zod issues into the entries of the service's validation body. The service's entries follow
 * pydantic's vocabulary (`missing`, `string_type`, `uuid_parsing`, ...), which vendors' code matches
 * on, so the sandbox speaks it too.
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

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const TYPE_MESSAGES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  int: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  boolean: ['bool_parsing', 'Input should be a valid boolean'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
  null: ['none_required', 'Input should be None'],
};

const FORMAT_MESSAGES: Record<string, [string, string]> = {
  uuid: ['uuid_parsing', 'Input should be a valid UUID'],
  guid: ['uuid_parsing', 'Input should be a valid UUID'],
  datetime: ['datetime_from_date_parsing', 'Input should be a valid datetime'],
  date: ['date_from_datetime_parsing', 'Input should be a valid date'],
  email: ['value_error', 'value is not a valid email address'],
  url: ['url_parsing', 'Input should be a valid URL'],
};

function describe(issue: z.core.$ZodIssue, value: unknown): [string, string] {
  const aboutTheValue =
    issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union';
  if (value === undefined && aboutTheValue && issue.path.length > 0) return ['missing', 'Field required'];
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return ['missing', 'Field required'];
      if (issue.expected === 'number' && typeof value === 'number') {
        return ['int_type', 'Input should be a valid integer'];
      }
      return TYPE_MESSAGES[issue.expected] ?? ['type_error', issue.message];
    case 'invalid_format':
      return FORMAT_MESSAGES[issue.format] ?? ['string_pattern_mismatch', issue.message];
    case 'too_small':
      if (issue.origin === 'string') {
        return [
          'string_too_short',
          `String should have at least ${issue.minimum} character${issue.minimum === 1 ? '' : 's'}`,
        ];
      }
      if (issue.origin === 'array') return ['too_short', `List should have at least ${issue.minimum} items`];
      return issue.inclusive === false
        ? ['greater_than', `Input should be greater than ${issue.minimum}`]
        : ['greater_than_equal', `Input should be greater than or equal to ${issue.minimum}`];
    case 'too_big':
      if (issue.origin === 'string') {
        return [
          'string_too_long',
          `String should have at most ${issue.maximum} character${issue.maximum === 1 ? '' : 's'}`,
        ];
      }
      if (issue.origin === 'array') return ['too_long', `List should have at most ${issue.maximum} items`];
      return issue.inclusive === false
        ? ['less_than', `Input should be less than ${issue.maximum}`]
        : ['less_than_equal', `Input should be less than or equal to ${issue.maximum}`];
    case 'invalid_value': {
      const options = issue.values.map((v) => `'${String(v)}'`);
      const last = options.pop();
      const list = options.length ? `${options.join(', ')} or ${last}` : `${last}`;
      return ['enum', `Input should be ${list}`];
    }
    case 'unrecognized_keys':
      return ['extra_forbidden', `Extra inputs are not permitted: ${issue.keys.join(', ')}`];
    case 'invalid_union':
      return ['union_type', 'Input does not match any of the allowed types'];
    default:
      return ['value_error', issue.message];
  }
}

export function toValidationIssues(
  error: z.ZodError,
  input: unknown,
  target: ValidationTarget,
): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const value = valueAt(input, issue.path);
    const [type, msg] = describe(issue, value);
    return { loc: [target, ...path], msg, type };
  });
}
