import { readFileSync, statSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { parse, stringify } from 'yaml';
import { DRIFT_KINDS, type DriftKind, type DriftReport } from './drift.js';

/**
 * The drift file: the differences a vendor knows of and accepts, each an entry made from a finding
 * (`--drift-out FILE` writes every finding of a run as one; keep those you accept). Given back to the
 * proxy (`--drift FILE`), a finding an entry matches is marked `known`: it stays in the report, and
 * no longer fails a run (`--fail-on`), so that CI fails on new drift alone.
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
    note: z.string().max(2000).optional(),
  })
  .strict();

export type DriftEntry = z.infer<typeof DriftEntrySchema>;

const DriftFileSchema = z.object({ known: z.array(DriftEntrySchema).max(10_000) }).strict();

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
    value = parse(text, { maxAliasCount: 100 });
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

/** Every finding of a report as an entry of a drift file, as YAML (or JSON for a .json path). */
export function driftFileText(report: DriftReport, path: string): string {
  const known: DriftEntry[] = report.findings.map((finding) => ({
    kind: finding.kind,
    method: finding.method,
    path: finding.path,
    at: finding.at,
    service: finding.service,
    note: `${finding.title}${finding.group === 'document' ? ` (document: ${finding.document})` : ` (sandbox: ${finding.sandbox})`}; seen ${finding.count} times, from ${report.upstream}`,
  }));
  if (path.endsWith('.json')) return `${JSON.stringify({ known }, null, 2)}\n`;
  return `# The differences with the service that are known and accepted: give this file back with --drift.\n${stringify({ known })}`;
}

/** Whether an entry names a finding. */
const matches = (entry: DriftEntry, finding: DriftReport['findings'][number]) =>
  entry.kind === finding.kind &&
  entry.method === finding.method &&
  entry.path === finding.path &&
  entry.at === finding.at &&
  (entry.service === undefined || entry.service === finding.service);

/** The report with the findings the entries name marked known. */
export function withKnown(report: DriftReport, entries: readonly DriftEntry[]): DriftReport {
  if (entries.length === 0) return report;
  return {
    ...report,
    findings: report.findings.map((finding) =>
      entries.some((entry) => matches(entry, finding)) ? { ...finding, known: true } : finding,
    ),
  };
}
