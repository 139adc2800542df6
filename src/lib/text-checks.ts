/**
 * Checks of text from requests that used to be regular expressions with overlapping quantifiers
 * (`[^@\s]+\.[^@\s]+` backtracks once per dot, quadratic in the input). Each is a single pass, so
 * its time grows with the length of the input and nothing else, whatever the input holds.
 */

// One character class and no quantifier: at most one step per character.
const WHITESPACE = /\s/;

/**
 * The e-mail form the verticals accept: no whitespace, exactly one `@` with text before it, and
 * after it a dot that is neither the first nor the last character (the language of
 * `^[^@\s]+@[^@\s]+\.[^@\s]+$`, whitespace meaning what `\s` means, Unicode spaces included).
 */
export function isEmailAddress(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  if (WHITESPACE.test(value)) return false;
  // The first dot from the second character of the domain on; it must not end the address.
  const dot = value.indexOf('.', at + 2);
  return dot !== -1 && dot < value.length - 1;
}

/** The text without the run of `char` that ends it (what `replace(/x+$/, '')` does, in one pass). */
export function trimTrailing(value: string, char: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === char) end -= 1;
  return value.slice(0, end);
}
