import { describe, expect, it } from 'vitest';
import { pythonJsonError } from '../../src/lib/python-json.js';

/** Where and why Python's json module stops on a text: each row is what json.loads raises. */
describe("a body read as Python's json module reads it", () => {
  it.each([
    ['', 0, 'Expecting value'],
    [' ', 1, 'Expecting value'],
    ['nul', 0, 'Expecting value'],
    ['-', 0, 'Expecting value'],
    ['{', 1, 'Expecting property name enclosed in double quotes'],
    ['{a:1}', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['{"é":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['{"😀":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['{"a":', 5, 'Expecting value'],
    ['{"a":1', 6, "Expecting ',' delimiter"],
    ['[1 2]', 3, "Expecting ',' delimiter"],
    ['[01]', 2, "Expecting ',' delimiter"],
    ['[1,]', 3, 'Expecting value'],
    ['[1,,2]', 3, 'Expecting value'],
    ['01', 1, 'Extra data'],
    ['1.', 1, 'Extra data'],
    ['{"a":1}x', 7, 'Extra data'],
    ['"abc', 0, 'Unterminated string starting at'],
    ['"a\tb"', 2, 'Invalid control character at'],
    ['"a\\x"', 2, 'Invalid \\escape'],
    ['"a\\u12"', 3, 'Invalid \\uXXXX escape'],
    ['"a\\uZZZZ"', 3, 'Invalid \\uXXXX escape'],
  ])('%j: at %i, %s', (text, pos, msg) => {
    expect(pythonJsonError(text)).toEqual({ pos, msg });
  });

  it.each(['{"a": [1, {"b": null}]}', ' 1e5 ', 'NaN', '[-Infinity]'])('%j is read', (text) => {
    expect(pythonJsonError(text)).toBeNull();
  });
});
