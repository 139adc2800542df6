import { DATE_TIME_ERRORS, UUID_ERRORS } from './validation-errors.js';

/**
 * How the service's validator (pydantic v2, lax mode) reads a text or a number it is given for a
 * typed field: whether it takes it, and when it does not, why. The sandbox's own schemas decide what
 * it accepts; these say what the service would have answered, so a refusal carries its words:
 * - a number, an integer or a boolean given as a text, as pydantic parses one;
 * - a date or a datetime given as a text or a number, as its parser (speedate) reads RFC 3339 texts
 *   and unix timestamps (seconds, or milliseconds past 2e10);
 * - a UUID given as a text, as its parser (the uuid crate) diagnoses one.
 * Each walk is linear in the text and bounded by it.
 */

/** A date or datetime the parser takes (`midnight`: no time of day), or why it does not. */
export type TimeReading = { midnight: boolean } | { error: string };

const utf8 = new TextEncoder();
const DIGIT_0 = 48;
const digitAt = (bytes: Uint8Array, i: number): number | undefined => {
  const b = bytes[i];
  return b !== undefined && b >= DIGIT_0 && b <= DIGIT_0 + 9 ? b - DIGIT_0 : undefined;
};
const is = (bytes: Uint8Array, i: number, ...chars: string[]) =>
  bytes[i] !== undefined && chars.some((c) => c.charCodeAt(0) === bytes[i]);

/** A refusal of the parser, thrown within a reading and returned as its `error`. */
class Refused {
  constructor(readonly error: string) {}
}

/** The number written by two digits at `i`, or the refusal `error`. */
function twoDigits(bytes: Uint8Array, i: number, error: string): number {
  const tens = digitAt(bytes, i);
  const units = digitAt(bytes, i + 1);
  if (tens === undefined || units === undefined) throw new Refused(error);
  return tens * 10 + units;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** YYYY-MM-DD at the start of `bytes` (the rest unread). */
function readDay(bytes: Uint8Array): void {
  if (bytes.length < 10) throw new Refused(DATE_TIME_ERRORS.tooShort);
  const year = twoDigits(bytes, 0, DATE_TIME_ERRORS.year) * 100 + twoDigits(bytes, 2, DATE_TIME_ERRORS.year);
  if (!is(bytes, 4, '-')) throw new Refused(DATE_TIME_ERRORS.dateSeparator);
  const month = twoDigits(bytes, 5, DATE_TIME_ERRORS.month);
  if (!is(bytes, 7, '-')) throw new Refused(DATE_TIME_ERRORS.dateSeparator);
  const day = twoDigits(bytes, 8, DATE_TIME_ERRORS.day);
  if (month < 1 || month > 12) throw new Refused(DATE_TIME_ERRORS.monthRange);
  if (day < 1 || day > daysIn(year, month)) throw new Refused(DATE_TIME_ERRORS.dayRange);
}

/** HH:MM[:SS[.ffffff]] at `offset`: where it ends, and whether it is midnight. */
function readTime(bytes: Uint8Array, offset: number): { end: number; midnight: boolean } {
  if (bytes.length - offset < 5) throw new Refused(DATE_TIME_ERRORS.tooShort);
  const hour = twoDigits(bytes, offset, DATE_TIME_ERRORS.hour);
  if (!is(bytes, offset + 2, ':')) throw new Refused(DATE_TIME_ERRORS.timeSeparator);
  const minute = twoDigits(bytes, offset + 3, DATE_TIME_ERRORS.minute);
  let second = 0;
  let fraction = false;
  let end = offset + 5;
  if (is(bytes, end, ':')) {
    second = twoDigits(bytes, offset + 6, DATE_TIME_ERRORS.second);
    end = offset + 8;
    if (is(bytes, end, '.', ',')) {
      let digits = 0;
      while (digitAt(bytes, end + 1 + digits) !== undefined) {
        // Past six digits the parser drops them (microseconds).
        if (digits < 6 && digitAt(bytes, end + 1 + digits) !== 0) fraction = true;
        digits++;
      }
      if (digits === 0) throw new Refused(DATE_TIME_ERRORS.fractionMissing);
      end += 1 + digits;
    }
  }
  if (hour > 23) throw new Refused(DATE_TIME_ERRORS.hourRange);
  if (minute > 59) throw new Refused(DATE_TIME_ERRORS.minuteRange);
  if (second > 59) throw new Refused(DATE_TIME_ERRORS.secondRange);
  return { end, midnight: hour === 0 && minute === 0 && second === 0 && !fraction };
}

/** Z, or ±HH[:]MM, at `at`: where it ends. */
function readOffset(bytes: Uint8Array, at: number): number {
  if (bytes[at] === undefined) return at;
  if (is(bytes, at, 'Z', 'z')) return at + 1;
  if (!is(bytes, at, '+', '-')) throw new Refused(DATE_TIME_ERRORS.tzSign);
  const hours = twoDigits(bytes, at + 1, DATE_TIME_ERRORS.tzHour);
  const minutesAt = is(bytes, at + 3, ':') ? at + 4 : at + 3;
  const minutes = twoDigits(bytes, minutesAt, DATE_TIME_ERRORS.tzMinute);
  if (minutes > 59) throw new Refused(DATE_TIME_ERRORS.tzMinuteRange);
  if (hours * 60 + minutes >= 24 * 60) throw new Refused(DATE_TIME_ERRORS.tzRange);
  return minutesAt + 2;
}

function rfc3339Date(bytes: Uint8Array): TimeReading {
  readDay(bytes);
  if (bytes.length > 10) throw new Refused(DATE_TIME_ERRORS.extraCharacters);
  return { midnight: true };
}

function rfc3339DateTime(bytes: Uint8Array): TimeReading {
  readDay(bytes);
  if (!is(bytes, 10, 'T', 't', ' ', '_')) throw new Refused(DATE_TIME_ERRORS.dateTimeSeparator);
  const time = readTime(bytes, 11);
  const end = readOffset(bytes, time.end);
  if (bytes.length > end) throw new Refused(DATE_TIME_ERRORS.extraCharacters);
  return { midnight: time.midnight };
}

const I64_MAX = 2n ** 63n - 1n;
const INTEGER_TEXT = /^[+-]?\d+$/;
const DECIMAL_TEXT = /^[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number the date parser reads in a text: an i64, or a decimal with a point; else none. */
function timestampText(text: string): number | undefined {
  if (INTEGER_TEXT.test(text)) {
    const value = BigInt(text);
    return value >= -I64_MAX - 1n && value <= I64_MAX ? Number(value) : undefined;
  }
  return DECIMAL_TEXT.test(text) ? Number(text) : undefined;
}

/** Seconds past this many are milliseconds. */
const MS_WATERSHED = 2e10;
const YEAR_9999_END = 253_402_300_799;
const YEAR_0000_START = -62_167_219_200;
const DAY_SECONDS = 86_400;

/** A unix timestamp as the parser reads it. */
export function readTimestamp(value: number): TimeReading {
  const seconds = Math.abs(value) > MS_WATERSHED ? value / 1000 : value;
  if (Number.isNaN(seconds) || Math.floor(seconds) > YEAR_9999_END) {
    return { error: DATE_TIME_ERRORS.afterYear9999 };
  }
  const whole = Math.floor(seconds);
  if (whole < YEAR_0000_START) return { error: DATE_TIME_ERRORS.beforeYear0000 };
  // The parser keeps microseconds, rounded.
  const micros = Math.round((seconds - whole) * 1e6);
  const day = micros === 1e6 ? whole + 1 : whole;
  return { midnight: (micros === 0 || micros === 1e6) && day % DAY_SECONDS === 0 };
}

function reading(text: string, rfc3339: (bytes: Uint8Array) => TimeReading): TimeReading {
  try {
    return rfc3339(utf8.encode(text));
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    const timestamp = timestampText(text);
    return timestamp === undefined ? { error: error.error } : readTimestamp(timestamp);
  }
}

/** A text read as a date: YYYY-MM-DD, or a timestamp. */
export const readDateText = (text: string): TimeReading => reading(text, rfc3339Date);

/** A text read as a datetime: an RFC 3339 date and time, or a timestamp. */
export const readDateTimeText = (text: string): TimeReading => reading(text, rfc3339DateTime);

/**
 * Why the uuid crate refuses a text (null: it takes it): its first character that is neither a hex
 * digit nor a hyphen, else the length of a simple form, the count of hyphenated groups, or the first
 * group of the wrong length. Braces and the urn:uuid: prefix are read around it.
 */
export function uuidRefusal(text: string): string | null {
  const wrapped = /^\{(.*)\}$/s.exec(text)?.[1] ?? (text.startsWith('urn:uuid:') ? text.slice(9) : undefined);
  const body = wrapped ?? text;
  const offset = wrapped === undefined ? 0 : text.startsWith('{') ? 1 : 9;
  const hyphens: number[] = [];
  let byte = 0;
  for (const character of body) {
    if (character === '-') hyphens.push(byte);
    else if (!/^[0-9a-fA-F]$/.test(character)) return UUID_ERRORS.character(character, byte + offset + 1);
    byte += utf8.encode(character).length;
  }
  const starts = [0, 9, 14, 19, 24];
  const lengths = [8, 4, 4, 4, 12];
  const fits =
    (wrapped === undefined && hyphens.length === 0 && body.length === 32) ||
    (hyphens.length === 4 &&
      body.length === 36 &&
      hyphens.every((at, i) => at === (starts[i + 1] as number) - 1));
  if (fits) return null;
  if (hyphens.length === 0 && wrapped === undefined)
    return UUID_ERRORS.simpleLength(utf8.encode(text).length);
  if (hyphens.length !== 4) return UUID_ERRORS.groupCount(hyphens.length + 1);
  for (let group = 0; group < 4; group++) {
    const start = starts[group] as number;
    if (hyphens[group] !== (starts[group + 1] as number) - 1) {
      return UUID_ERRORS.groupLength(group, lengths[group] as number, (hyphens[group] as number) - start);
    }
  }
  // The crate counts the last group from the whole text, braces or prefix included.
  return UUID_ERRORS.groupLength(4, 12, utf8.encode(text).length - (starts[4] as number));
}

/** Underscores as Python's numbers take them: single, between two characters. */
const withoutUnderscores = (text: string): string | undefined =>
  /^_|_$|__/.test(text) ? undefined : text.replaceAll('_', '');

const FLOAT_TEXT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;
const INT_TEXT = /^[+-]?\d+(?:\.0+)?$/;

/** Whether pydantic reads `text` as a number. */
export function takesFloatText(text: string): boolean {
  const bare = withoutUnderscores(text.trim());
  return bare !== undefined && FLOAT_TEXT.test(bare);
}

/** Whether pydantic reads `text` as an integer. */
export function takesIntText(text: string): boolean {
  const bare = withoutUnderscores(text.trim());
  return bare !== undefined && INT_TEXT.test(bare);
}

const BOOLEAN_TEXTS = new Set(['0', 'off', 'f', 'false', 'n', 'no', '1', 'on', 't', 'true', 'y', 'yes']);

/** Whether pydantic reads `text` as a boolean. */
export const takesBoolText = (text: string): boolean => BOOLEAN_TEXTS.has(text.toLowerCase());
