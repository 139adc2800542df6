import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { FixtureError } from '../platform/fixtures/errors.js';
import { assertFixtureFileBudget } from './fixtures.budget.js';

/**
 * The YAML parser, loaded the first time a YAML file is read: importing it costs some 30 to 100 ms,
 * which a start without a YAML fixture need not pay (createApp is synchronous, hence require).
 */
let yamlParse: ((text: string) => unknown) | undefined;
const parseYaml = (text: string): unknown => {
  yamlParse ??= (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse;
  return yamlParse(text);
};

/** A fixture document, or the path of a JSON or YAML file holding one. */
export type FixtureSource = string | Record<string, unknown>;

const isYaml = (file: string) => /\.ya?ml$/i.test(file);

/** Reads a fixture file: YAML for .yaml and .yml, JSON otherwise; one past the budget's bytes, unread. */
export function readFixtureFile(file: string): unknown {
  const unreadable = (error: unknown) =>
    new FixtureError(400, 'The fixture file cannot be read', {
      path: '',
      detail: (error as Error).message,
      file,
    });
  let bytes: number;
  let text: string;
  try {
    bytes = statSync(file).size;
  } catch (error) {
    throw unreadable(error);
  }
  assertFixtureFileBudget(bytes, file);
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw unreadable(error);
  }
  try {
    // YAML 1.2's core schema: dates stay strings, as the API takes them.
    return isYaml(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new FixtureError(422, `The fixture file is not valid ${isYaml(file) ? 'YAML' : 'JSON'}`, {
      path: '',
      detail: (error as Error).message.split('\n')[0] ?? '',
      file,
    });
  }
}

/** The document of a source, and the file it came from (named in every error). */
export function fixtureInput(source: FixtureSource): { input: unknown; file: string | null } {
  if (typeof source === 'string') return { input: readFixtureFile(source), file: source };
  return { input: source, file: null };
}
