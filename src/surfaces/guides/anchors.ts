/**
 * The anchors of a guide's headings, as GitHub gives them, so that a link written for the repository
 * (`control.md#worlds-over-http`, `docs/readiness.md#token_not_reused`) finds the same section on the
 * served page: the heading's text in lower case, without punctuation or symbols (letters, digits,
 * `_` and `-` stay), each space a `-`; a repeated anchor gets `-1`, `-2`... in its order.
 */

/** What an anchor keeps of a heading: letters, marks, digits, connector punctuation (`_`), `-` and spaces. */
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;

/** The anchors of one document, each heading's in turn. */
export class Anchors {
  readonly #seen = new Map<string, number>();

  /** The anchor of the next heading, whose text (without its Markdown) is `text`. */
  next(text: string): string {
    const base = text.toLowerCase().replace(DROPPED, '').replaceAll(' ', '-');
    let anchor = base;
    while (this.#seen.has(anchor)) {
      const repeats = (this.#seen.get(base) ?? 0) + 1;
      this.#seen.set(base, repeats);
      anchor = `${base}-${repeats}`;
    }
    this.#seen.set(anchor, 0);
    return anchor;
  }
}
