import { readFileSync, statSync } from 'node:fs';
import { yamlModule } from '../lib/yaml.js';
import { FixtureError, parsePath } from '../platform/fixtures/errors.js';
import { assertFixtureFileBudget } from './fixtures.budget.js';

/** A fixture document, or the path of a JSON or YAML file holding one. */
export type FixtureSource = string | Record<string, unknown>;

const isYaml = (file: string) => /\.ya?ml$/i.test(file);

/** The line (from 1) of a character of `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Where a parser's error points in `text`: a line, from its message (JSON) or its position (YAML). */
function lineOfSyntaxError(error: Error, text: string): number {
  const position = /position (\d+)/.exec(error.message)?.[1];
  if (position !== undefined) return lineAt(text, Number(position));
  const linePos = (error as { linePos?: { line: number }[] }).linePos;
  return linePos?.[0]?.line ?? 1;
}

/** Reads a fixture file: YAML for .yaml and .yml, JSON otherwise; its text too, to place refusals. */
export function readFixtureFile(file: string): { document: unknown; text: string } {
  let text: string;
  try {
    // One past the budget's bytes is refused unread.
    assertFixtureFileBudget(statSync(file).size, file);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof FixtureError) throw error;
    throw new FixtureError(400, 'The fixture file cannot be read', {
      path: '',
      detail: (error as Error).message,
      file,
    });
  }
  try {
    // YAML 1.2's core schema: dates stay strings, as the API takes them.
    return { document: isYaml(file) ? yamlModule().parse(text) : JSON.parse(text), text };
  } catch (error) {
    throw new FixtureError(422, `The fixture file is not valid ${isYaml(file) ? 'YAML' : 'JSON'}`, {
      path: '',
      detail: (error as Error).message.split('\n')[0] ?? '',
      file,
      line: lineOfSyntaxError(error as Error, text),
    });
  }
}

/**
 * The line of `text` (a JSON or YAML document) where the value at `path` stands, or where its
 * nearest parent does when it is missing (a required field left out); 1 when none is found.
 */
export function lineOfPath(text: string, path: string): number {
  const parts = parsePath(path);
  if (parts === null) return 1;
  // JSON is YAML: one parser places both, keys repeated or not.
  const document = yamlModule().parseDocument(text, { uniqueKeys: false });
  for (let length = parts.length; length >= 0; length -= 1) {
    const node = document.getIn(parts.slice(0, length), true) as
      | { range?: [number, number, number] }
      | undefined;
    if (node?.range) return lineAt(text, node.range[0]);
  }
  return 1;
}

/** The document of a source, the file it came from and its text (both named in every refusal). */
export function fixtureInput(source: FixtureSource): {
  input: unknown;
  file: string | null;
  text: string | null;
} {
  if (typeof source !== 'string') return { input: source, file: null, text: null };
  const { document, text } = readFixtureFile(source);
  return { input: document, file: source, text };
}

/** A refusal of a document read from a file, placed at its line; anything else as it is. */
export function placed(error: unknown, text: string | null): unknown {
  if (!(error instanceof FixtureError) || text === null || error.file === null || error.line !== null)
    return error;
  return error.atLine(lineOfPath(text, error.path));
}
