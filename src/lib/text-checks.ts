/**
 * Checks of text from requests that used to be regular expressions with overlapping quantifiers
 * (`\/+$` backtracks once per slash, quadratic in the input). Each is a single pass, so its time
 * grows with the length of the input and nothing else, whatever the input holds.
 */

/** The text without the run of `char` that ends it (what `replace(/x+$/, '')` does, in one pass). */
export function trimTrailing(value: string, char: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === char) end -= 1;
  return value.slice(0, end);
}
