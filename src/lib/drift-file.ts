import { readFileSync, statSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { DRIFT_KINDS, type DriftKind } from './drift-kinds.js';
import { yamlModule } from './yaml.js';

/**
 * The drift file: the differences with the service a vendor knows of and accepts, each an entry made
 * from a finding of the recording proxy. Both read it: the proxy marks the findings it names known,
 * and the sandbox (`serve --drift`) follows the service where an entry says how (platform/drift.ts).
 */

const KINDS = Object.keys(DRIFT_KINDS) as [DriftKind, ...DriftKind[]];

export const DriftEntrySchema = z
  .object({
    kind: z.enum(KINDS),
    method: z.string().min(1).max(10),
    path: z.string().min(1).max(2000).describe('The operation path as published, or the request path'),
    at: z.string().min(1).max(2000),
    service: z
      .string()
      .max(2000)
      .optional()
      .describe('What the service answered there; left out, any value matches'),
    document: z.string().max(2000).optional().describe('What the document declares there'),
    sandbox: z.string().max(2000).optional().describe('What the sandbox answered there'),
    note: z.string().max(2000).optional(),
  })
  .strict();

export type DriftEntry = z.infer<typeof DriftEntrySchema>;

const DriftFileSchema = z.object({ known: z.array(DriftEntrySchema).max(10_000) }).strict();

/**
 * How a finding shows a field of a refusal (its message, error code, status word): as JSON, whole up
 * to the length an entry holds, so that an entry carries the service's message as it is.
 */
export const refusalField = (value: unknown): string =>
  (JSON.stringify(value) ?? String(value)).slice(0, 2000);

/** The largest drift file read. */
const MAX_BYTES = 1024 * 1024;

export class DriftFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DriftFileError';
  }
}

/** Reads a drift file (YAML or JSON), checked whole: a refusal names the file and the entry. */
export function readDriftFile(path: string): DriftEntry[] {
  let text: string;
  try {
    if (statSync(path).size > MAX_BYTES) throw new DriftFileError(`${path} is larger than 1 MiB`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof DriftFileError) throw error;
    throw new DriftFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = yamlModule().parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new DriftFileError(`${path} is not YAML or JSON: ${(error as Error).message}`);
  }
  const parsed = DriftFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DriftFileError(
      `${path}, ${issue?.path.join('.') || 'the document'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data.known;
}
