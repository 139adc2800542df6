import type { z } from '@hono/zod-openapi';

/**
 * Files of JSON lines the sandbox reads back (the world file and its journal, the requests file) are
 * input like any other: a line is parsed with its zod schema before anything uses it, and a line that
 * does not pass says, in one line, which file, which line and which field.
 */

/** A line of a file that is not what its schema says. */
export class FileLineError extends Error {
  readonly file: string;
  /** 1 for the first line. */
  readonly line: number;
  /** The field refused (`headers[3]`, `control_calls`), or '' for the line as a whole. */
  readonly field: string;
  readonly why: string;

  constructor(file: string, line: number, field: string, why: string) {
    super(`${file}, line ${line}${field ? `, field ${field}` : ''}: ${why}`);
    this.name = 'FileLineError';
    this.file = file;
    this.line = line;
    this.field = field;
    this.why = why;
  }
}

/** A field's path as the docs write it: `o[2].p`, `headers[0]`. */
export function fieldPath(parts: readonly PropertyKey[]): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The first issue of a zod error as a FileLineError of `file`, line `line`. */
export function lineIssue(error: z.ZodError, file: string, line: number): FileLineError {
  const issue = error.issues[0];
  return new FileLineError(file, line, fieldPath(issue?.path ?? []), issue?.message ?? 'not valid');
}

/** The JSON of a line, or a FileLineError saying it is not JSON. */
export function jsonOfLine(text: string, file: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FileLineError(file, line, '', `not JSON (${(error as Error).message})`);
  }
}

/** One line of a file parsed with `schema`: its value, or a FileLineError naming the line and field. */
export function parseLine<S extends z.ZodType>(
  schema: S,
  text: string,
  file: string,
  line: number,
): z.output<S> {
  const parsed = schema.safeParse(jsonOfLine(text, file, line));
  if (!parsed.success) throw lineIssue(parsed.error, file, line);
  return parsed.data;
}
