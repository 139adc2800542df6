import { JSON_DECODE_ERRORS } from './validation-errors.js';

/**
 * Where and why the service's JSON reader (Python's json module, as FastAPI calls it) refuses a
 * body: its error and position, which the service answers in its validation body. A walk of the
 * text that stops at the first fault, linear in the text; objects and arrays nest as deep as the
 * body guard lets a body through (it refuses deeper ones before any route reads them).
 */
export interface JsonDecodeError {
  /** In characters (code points), as Python counts them. */
  pos: number;
  msg: string;
}

/** A fault at a place of the text (a UTF-16 index), thrown within the walk. */
class Fault {
  constructor(
    readonly at: number,
    readonly msg: string,
  ) {}
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
/** The words Python's reader takes besides JSON's (it reads NaN and Infinity as numbers). */
const WORDS = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity'];
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX = /^[0-9a-fA-F]{4}$/;
/** Past this depth the walk gives up (the body guard refuses such bodies first). */
const MAX_DEPTH = 1000;

const skip = (s: string, i: number): number => {
  let at = i;
  while (at < s.length && WHITESPACE.has(s[at] as string)) at++;
  return at;
};

/** A string whose opening quote is at `begin`: where it ends. */
function readString(s: string, begin: number): number {
  let at = begin + 1;
  for (;;) {
    while (at < s.length && s[at] !== '"' && s[at] !== '\\') {
      if (s.charCodeAt(at) <= 0x1f) throw new Fault(at, JSON_DECODE_ERRORS.controlCharacter);
      at++;
    }
    if (at >= s.length) throw new Fault(begin, JSON_DECODE_ERRORS.unterminated);
    if (s[at] === '"') return at + 1;
    const escaped = at + 1;
    if (escaped >= s.length) throw new Fault(begin, JSON_DECODE_ERRORS.unterminated);
    if (s[escaped] !== 'u') {
      if (!ESCAPES.has(s[escaped] as string)) throw new Fault(at, JSON_DECODE_ERRORS.escape);
      at = escaped + 1;
      continue;
    }
    const end = escaped + 5;
    if (end >= s.length) throw new Fault(escaped, JSON_DECODE_ERRORS.unicodeEscape);
    if (!HEX.test(s.slice(escaped + 1, end))) throw new Fault(escaped, JSON_DECODE_ERRORS.unicodeEscape);
    at = end;
  }
}

/** A list of `close`-terminated items read by `item`, from just after its opening bracket. */
function readItems(s: string, start: number, close: string, item: (at: number) => number): number {
  let at = skip(s, start);
  if (s[at] === close) return at + 1;
  for (;;) {
    at = skip(s, item(at));
    if (s[at] === close) return at + 1;
    if (s[at] !== ',') throw new Fault(at, JSON_DECODE_ERRORS.comma);
    at = skip(s, at + 1);
  }
}

/** A value at `at`: where it ends. */
function readValue(s: string, at: number, depth: number): number {
  if (depth > MAX_DEPTH || at >= s.length) throw new Fault(at, JSON_DECODE_ERRORS.value);
  const first = s[at];
  if (first === '"') return readString(s, at);
  if (first === '[') return readItems(s, at + 1, ']', (i) => readValue(s, i, depth + 1));
  if (first === '{') {
    return readItems(s, at + 1, '}', (i) => {
      if (s[i] !== '"') throw new Fault(i, JSON_DECODE_ERRORS.propertyName);
      const colon = skip(s, readString(s, i));
      if (s[colon] !== ':') throw new Fault(colon, JSON_DECODE_ERRORS.colon);
      return readValue(s, skip(s, colon + 1), depth + 1);
    });
  }
  const word = WORDS.find((w) => s.startsWith(w, at));
  if (word) return at + word.length;
  NUMBER.lastIndex = at;
  const number = NUMBER.exec(s);
  if (number) return at + number[0].length;
  throw new Fault(at, JSON_DECODE_ERRORS.value);
}

/** Python's error for `text`; null when Python reads it (NaN, Infinity, which JSON.parse does not). */
export function pythonJsonError(text: string): JsonDecodeError | null {
  try {
    const end = skip(text, readValue(text, skip(text, 0), 0));
    if (end !== text.length) throw new Fault(end, JSON_DECODE_ERRORS.extraData);
    return null;
  } catch (error) {
    if (!(error instanceof Fault)) throw error;
    return { pos: [...text.slice(0, error.at)].length, msg: error.msg };
  }
}
