import { type DriftEntry, DriftEntrySchema, DriftFileError, readDriftFile } from '../lib/drift-file.js';
import { yamlModule } from '../lib/yaml.js';
import type { DriftReport } from './drift.js';

/**
 * The drift file (its schema and reader in lib/drift-file.ts): the differences a vendor knows of and
 * accepts, each an entry made from a finding (`--drift-out FILE` writes every finding of a run as
 * one; keep those you accept). Given back to the proxy (`--drift FILE`), a finding an entry matches
 * is marked `known`: it stays in the report, and no longer fails a run (`--fail-on`), so that CI
 * fails on new drift alone. Given to the sandbox (`serve --drift FILE`), the entries it can follow
 * change its answers (platform/drift.ts).
 */

export { type DriftEntry, DriftEntrySchema, DriftFileError, readDriftFile };

/** Every finding of a report as an entry of a drift file, as YAML (or JSON for a .json path). */
export function driftFileText(report: DriftReport, path: string): string {
  const known: DriftEntry[] = report.findings.map((finding) => ({
    kind: finding.kind,
    method: finding.method,
    path: finding.path,
    at: finding.at,
    service: finding.service,
    ...(finding.document !== null ? { document: finding.document } : {}),
    ...(finding.sandbox !== null ? { sandbox: finding.sandbox } : {}),
    note: `${finding.title}${finding.group === 'document' ? ` (document: ${finding.document})` : ` (sandbox: ${finding.sandbox})`}; seen ${finding.count} times, from ${report.upstream}`,
  }));
  if (path.endsWith('.json')) return `${JSON.stringify({ known }, null, 2)}\n`;
  return `# The differences with the service that are known and accepted: give this file back with --drift.\n${yamlModule().stringify({ known })}`;
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
