/**
 * The validation body of the service (HTTPValidationError) and every text of it, each once. The
 * service is a FastAPI app validating with pydantic v2 in its default (lax) mode: each entry of the
 * body names pydantic's error type, its message, the offending input and, for the types that have
 * one, the context the message is built from. Vendors' code matches on these, so the sandbox speaks
 * the same words (src/lib/validation.ts decides which entry a refused value gets).
 */

/** One entry of the validation error body, in the shape of the reference's ValidationError. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  /** What was refused: the value at `loc`, or for a missing field the object it is missing from. */
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export interface ValidationErrorBody {
  message: 'Validation error';
  status: 'error';
  detail: ValidationIssue[];
}

export class ValidationFailure extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super('Validation error');
    this.name = 'ValidationFailure';
    this.issues = issues;
  }
  toBody(): ValidationErrorBody {
    return { message: 'Validation error', status: 'error', detail: this.issues };
  }
}

/**
 * pydantic's message template of each error type the sandbox answers: `{name}` is filled from the
 * entry's context, `{expected_plural}` is "s" unless the count the message names is 1.
 */
export const PYDANTIC_MESSAGES = {
  /** FastAPI's, for a body that is not JSON: `ctx.error` says why, as Python's json module does. */
  json_invalid: 'JSON decode error',
  missing: 'Field required',
  extra_forbidden: 'Extra inputs are not permitted',
  none_required: 'Input should be None',
  string_type: 'Input should be a valid string',
  string_too_short: 'String should have at least {min_length} character{expected_plural}',
  string_too_long: 'String should have at most {max_length} character{expected_plural}',
  string_pattern_mismatch: "String should match pattern '{pattern}'",
  int_type: 'Input should be a valid integer',
  int_parsing: 'Input should be a valid integer, unable to parse string as an integer',
  int_from_float: 'Input should be a valid integer, got a number with a fractional part',
  int_parsing_size: 'Unable to parse input string as an integer, exceeded maximum size',
  float_type: 'Input should be a valid number',
  float_parsing: 'Input should be a valid number, unable to parse string as a number',
  finite_number: 'Input should be a finite number',
  bool_type: 'Input should be a valid boolean',
  bool_parsing: 'Input should be a valid boolean, unable to interpret input',
  list_type: 'Input should be a valid list',
  dict_type: 'Input should be a valid dictionary',
  model_attributes_type: 'Input should be a valid dictionary or object to extract fields from',
  too_short:
    '{field_type} should have at least {min_length} item{expected_plural} after validation, not {actual_length}',
  too_long:
    '{field_type} should have at most {max_length} item{expected_plural} after validation, not {actual_length}',
  greater_than: 'Input should be greater than {gt}',
  greater_than_equal: 'Input should be greater than or equal to {ge}',
  less_than: 'Input should be less than {lt}',
  less_than_equal: 'Input should be less than or equal to {le}',
  enum: 'Input should be {expected}',
  literal_error: 'Input should be {expected}',
  date_type: 'Input should be a valid date',
  date_from_datetime_parsing: 'Input should be a valid date or datetime, {error}',
  date_from_datetime_inexact: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
  datetime_type: 'Input should be a valid datetime',
  datetime_parsing: 'Input should be a valid datetime, {error}',
  datetime_from_date_parsing: 'Input should be a valid datetime or date, {error}',
  uuid_type: 'UUID input should be a string, bytes or UUID object',
  uuid_parsing: 'Input should be a valid UUID, {error}',
  url_parsing: 'Input should be a valid URL, {error}',
  value_error: 'Value error, {error}',
  /** Not pydantic's: what the sandbox says of a value matching none of the types a field allows. */
  union_type: 'Input does not match any of the allowed types',
} as const;

export type PydanticType = keyof typeof PYDANTIC_MESSAGES;

/**
 * Why pydantic's date and time parser (speedate) refuses a text, as the `error` of a date or
 * datetime entry.
 */
export const DATE_TIME_ERRORS = {
  tooShort: 'input is too short',
  extraCharacters: 'unexpected extra characters at the end of the input',
  year: 'invalid character in year',
  dateSeparator: 'invalid date separator, expected `-`',
  month: 'invalid character in month',
  day: 'invalid character in day',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  dateTimeSeparator: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  hour: 'invalid character in hour',
  timeSeparator: 'invalid time separator, expected `:`',
  minute: 'invalid character in minute',
  second: 'invalid character in second',
  fractionMissing: 'second fraction digits missing after `.`',
  hourRange: 'hour value is outside expected range of 0-23',
  minuteRange: 'minute value is outside expected range of 0-59',
  secondRange: 'second value is outside expected range of 0-59',
  tzSign: 'invalid timezone sign',
  tzHour: 'invalid timezone hour',
  tzMinute: 'invalid timezone minute',
  tzMinuteRange: 'timezone minute value is outside expected range of 0-59',
  tzRange: 'timezone offset must be less than 24 hours',
  afterYear9999: 'dates after 9999 are not supported as unix timestamps',
  beforeYear0000: 'dates before 0000 are not supported as unix timestamps',
} as const;

/** Why the parser of UUIDs pydantic uses refuses a text, as the `error` of a uuid_parsing entry. */
export const UUID_ERRORS = {
  character: (character: string, at: number) => `invalid character: found \`${character}\` at ${at}`,
  simpleLength: (length: number) => `invalid length: expected length 32 for simple format, found ${length}`,
  groupCount: (count: number) => `invalid group count: expected 5, found ${count}`,
  groupLength: (group: number, expected: number, found: number) =>
    `invalid group length in group ${group}: expected ${expected}, found ${found}`,
  /** Not the parser's: a UUID it takes that the sandbox does not (it keeps to RFC 4122's). */
  notRfc4122: 'the sandbox takes RFC 4122 UUIDs only (xxxxxxxx-xxxx-Mxxx-Nxxx-xxxxxxxxxxxx, M 1-8, N 8-b)',
};

/** Why Python's json module refuses a text, as the `error` of a json_invalid entry. */
export const JSON_DECODE_ERRORS = {
  value: 'Expecting value',
  propertyName: 'Expecting property name enclosed in double quotes',
  colon: "Expecting ':' delimiter",
  comma: "Expecting ',' delimiter",
  extraData: 'Extra data',
  unterminated: 'Unterminated string starting at',
  controlCharacter: 'Invalid control character at',
  escape: 'Invalid \\escape',
  unicodeEscape: 'Invalid \\uXXXX escape',
} as const;

/** The message of an entry of `type`, its template filled from `ctx`. */
export function pydanticMessage(type: PydanticType, ctx: Record<string, unknown> = {}): string {
  return PYDANTIC_MESSAGES[type].replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (name === 'expected_plural') {
      const count = ctx.min_length ?? ctx.max_length;
      return count === 1 ? '' : 's';
    }
    return Object.hasOwn(ctx, name) ? String(ctx[name]) : whole;
  });
}

/** An entry of pydantic's vocabulary at `loc`: its message from the table, its context when it has one. */
export function pydanticIssue(
  loc: (string | number)[],
  type: PydanticType,
  input: unknown,
  ctx?: Record<string, unknown>,
): ValidationIssue {
  const issue: ValidationIssue = { type, loc, msg: pydanticMessage(type, ctx), input };
  if (ctx !== undefined) issue.ctx = ctx;
  return issue;
}
