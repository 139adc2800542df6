import { describe, expect, it } from 'vitest';
import {
  readDateText,
  readDateTimeText,
  readTimestamp,
  takesBoolText,
  takesFloatText,
  takesIntText,
  uuidRefusal,
} from '../../src/lib/pydantic-parsing.js';

/**
 * How the service's validator reads texts and numbers: each row is what pydantic v2 (and the parsers
 * it uses) answers for that input.
 */

const MIDNIGHT = { midnight: true };
const DAYTIME = { midnight: false };
const error = (text: string) => ({ error: text });

describe('a text read as a date (YYYY-MM-DD, or a timestamp)', () => {
  it.each([
    ['2026-01-15', MIDNIGHT],
    ['2024-02-29', MIDNIGHT],
    ['0', MIDNIGHT],
    ['86400.0', MIDNIGHT],
    ['12', DAYTIME],
    ['lots', error('input is too short')],
    ['2026-1-5', error('input is too short')],
    ['15/01/2026', error('invalid character in year')],
    ['2026/01/15', error('invalid date separator, expected `-`')],
    ['2026-0a-15', error('invalid character in month')],
    ['2026-01-1a', error('invalid character in day')],
    ['2026-13-01', error('month value is outside expected range of 1-12')],
    ['2026-02-29', error('day value is outside expected range')],
    ['2026-01-15T10:00:00', error('unexpected extra characters at the end of the input')],
    ['100000000000000000000', error('invalid date separator, expected `-`')],
  ])('%s', (text, reading) => {
    expect(readDateText(text)).toEqual(reading);
  });
});

describe('a text read as a datetime (RFC 3339, or a timestamp)', () => {
  it.each([
    ['2026-01-15T10:00:00+02:00', DAYTIME],
    ['2026-01-15 10:00', DAYTIME],
    ['2026-01-15T00:00:00+05:00', MIDNIGHT],
    ['2026-01-15T00:00:00.0000001', MIDNIGHT],
    ['1.5e3', DAYTIME],
    ['2026-01-15', error('invalid datetime separator, expected `T`, `t`, `_` or space')],
    ['2026-01-15T', error('input is too short')],
    ['2026-01-15T25', error('input is too short')],
    ['2026-01-15T25:00', error('hour value is outside expected range of 0-23')],
    ['2026-01-15T10-00', error('invalid time separator, expected `:`')],
    ['2026-01-15T0a:00', error('invalid character in hour')],
    ['2026-01-15T10:0a', error('invalid character in minute')],
    ['2026-01-15T10:00:', error('invalid character in second')],
    ['2026-01-15T10:60', error('minute value is outside expected range of 0-59')],
    ['2026-01-15T10:00:60', error('second value is outside expected range of 0-59')],
    ['2026-01-15T10:00:00.', error('second fraction digits missing after `.`')],
    ['2026-01-15T10:00.5', error('invalid timezone sign')],
    ['2026-01-15T10:00:00+2', error('invalid timezone hour')],
    ['2026-01-15T10:00:00-02', error('invalid timezone minute')],
    ['2026-01-15T10:00:00+23:60', error('timezone minute value is outside expected range of 0-59')],
    ['2026-01-15T10:00:00+24:00', error('timezone offset must be less than 24 hours')],
    ['2026-01-15T10:00:00Zx', error('unexpected extra characters at the end of the input')],
    ['2026-01-15Té', error('input is too short')],
  ])('%s', (text, reading) => {
    expect(readDateTimeText(text)).toEqual(reading);
  });
});

describe('a unix timestamp: seconds, or milliseconds past 2e10', () => {
  it.each([
    [0, MIDNIGHT],
    [-86_400, MIDNIGHT],
    [1e-7, MIDNIGHT],
    [1.5, DAYTIME],
    [1_700_000_000, DAYTIME],
    [-12_219_292_800_000, MIDNIGHT],
    [253_402_300_799_999, DAYTIME],
    [253_402_300_800_000, error('dates after 9999 are not supported as unix timestamps')],
    [1e20, error('dates after 9999 are not supported as unix timestamps')],
    [-1e16, error('dates before 0000 are not supported as unix timestamps')],
  ])('%s', (value, reading) => {
    expect(readTimestamp(value)).toEqual(reading);
  });
});

describe('a text read as a UUID', () => {
  it.each([
    ['c0a8012e-7f0b-4d4b-9d6f-1a2b3c4d5e6f', null],
    ['C0A8012E7F0B4D4B9D6F1A2B3C4D5E6F', null],
    ['{c0a8012e-7f0b-4d4b-9d6f-1a2b3c4d5e6f}', null],
    ['urn:uuid:c0a8012e-7f0b-4d4b-9d6f-1a2b3c4d5e6f', null],
    ['lots', 'invalid character: found `l` at 1'],
    ['abcé', 'invalid character: found `é` at 4'],
    ['urn:uuid:zz', 'invalid character: found `z` at 10'],
    ['12', 'invalid length: expected length 32 for simple format, found 2'],
    ['2026-01-15', 'invalid group count: expected 5, found 3'],
    ['{c0a8012e}', 'invalid group count: expected 5, found 1'],
    ['c0a8012e-7f0b4-d4b-9d6f-1a2b3c4d5e6f', 'invalid group length in group 1: expected 4, found 5'],
    ['c0a8012e-7f0b-4d4b-9d6f-1a2b3c4d5e6', 'invalid group length in group 4: expected 12, found 11'],
    ['{c0a8012e-7f0b-4d4b-9d6f-1a2b3c4d5e6f0}', 'invalid group length in group 4: expected 12, found 15'],
  ])('%s', (text, refusal) => {
    expect(uuidRefusal(text)).toBe(refusal);
  });
});

describe('a text read as a number, an integer, a boolean', () => {
  it.each([
    ['12', true, true],
    [' 12 ', true, true],
    ['1_000', true, true],
    ['1.0', true, true],
    ['1.5', true, false],
    ['1e3', true, false],
    ['inf', true, false],
    ['5.', true, false],
    ['1__0', false, false],
    ['_1', false, false],
    ['lots', false, false],
    ['', false, false],
  ])('%j: number %s, integer %s', (text, number, integer) => {
    expect([takesFloatText(text), takesIntText(text)]).toEqual([number, integer]);
  });

  it.each([
    ['yes', true],
    ['On', true],
    ['0', true],
    ['tRuE', true],
    [' yes ', false],
    ['2', false],
    ['1.0', false],
  ])('%j: boolean %s', (text, boolean) => {
    expect(takesBoolText(text)).toBe(boolean);
  });
});
