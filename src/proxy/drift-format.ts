import { DRIFT_KINDS, type DriftFinding, type DriftKind, type DriftReport, type Severity } from './drift.js';

/** The drift report as a person reads it (Markdown), as CI collects it (JUnit), and what fails a run. */

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/**
 * The findings a fail-on list names: kinds (`sandbox_error,schema_deviation`), or a severity and the
 * ones above it (`error`, `warning`, `info` or `any`). Throws on a word it does not know.
 */
export function driftFailing(report: DriftReport, failOn: string): DriftFinding[] {
  const words = failOn
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
  let lowest = -1;
  const kinds = new Set<string>();
  for (const word of words) {
    const severity = SEVERITIES.indexOf((word === 'any' ? 'info' : word) as Severity);
    if (severity !== -1) lowest = Math.max(lowest, severity);
    else if (Object.hasOwn(DRIFT_KINDS, word)) kinds.add(word);
    else
      throw new Error(
        `--fail-on takes ${[...SEVERITIES, 'any'].join(', ')} or finding kinds (${Object.keys(DRIFT_KINDS).join(', ')}), not '${word}'`,
      );
  }
  return report.findings.filter(
    (finding) =>
      !finding.known && (kinds.has(finding.kind) || SEVERITIES.indexOf(finding.severity) <= lowest),
  );
}

const cell = (text: string | null): string =>
  text === null ? '' : text.replaceAll('|', '\\|').replaceAll('\n', ' ').replaceAll('`', "'");

const sides = (finding: DriftFinding): string =>
  finding.group === 'document'
    ? `document: ${finding.document ?? ''}; service: ${finding.service}`
    : `service: ${finding.service}; sandbox: ${finding.sandbox ?? ''}`;

export function driftToMarkdown(report: DriftReport): string {
  const lines: string[] = ['# Drift report', ''];
  const agreeing = report.summary.reduce((n, entry) => n + entry.agreeing, 0);
  const replayed = report.summary.reduce((n, entry) => n + entry.replayed, 0);
  const conforming = report.summary.reduce((n, entry) => n + entry.conforming, 0);
  const calls = report.summary.reduce((n, entry) => n + entry.calls, 0);
  lines.push(
    `Upstream ${report.upstream}, ${report.generated_at}: ${report.exchanges} exchanges, ${calls} of published operations; ${conforming} conform to the document; ${agreeing} of ${replayed} replayed agree with the sandbox${report.unchecked ? `; ${report.unchecked} not checked (a body past the limit, or too many waiting)` : ''}.`,
    '',
  );
  for (const group of ['document', 'sandbox'] as const) {
    const found = report.findings.filter((finding) => finding.group === group);
    lines.push(
      group === 'document' ? '## The service against its document' : '## The sandbox against the service',
      '',
    );
    if (found.length === 0) {
      lines.push('No finding.', '');
      continue;
    }
    lines.push(
      group === 'document'
        ? '| severity | kind | operation | at | document | service | seen | exchanges |'
        : '| severity | kind | operation | at | service | sandbox | seen | exchanges |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const f of found)
      lines.push(
        `| ${f.severity}${f.known ? ' (known)' : ''} | ${f.kind} | ${cell(`${f.method} ${f.path}`)} | ${cell(f.at)} | ${cell(group === 'document' ? f.document : f.service)} | ${cell(group === 'document' ? f.service : f.sandbox)} | ${f.count} | ${f.exchanges.join(', ')} |`,
      );
    lines.push('');
  }
  lines.push(
    '## By operation',
    '',
    '| operation | calls | conforming | replayed | agreeing |',
    '|---|---|---|---|---|',
  );
  for (const entry of report.summary)
    lines.push(
      `| ${cell(`${entry.method} ${entry.path}`)} | ${entry.calls} | ${entry.conforming} | ${entry.replayed} | ${entry.agreeing} |`,
    );
  lines.push('');
  if (report.client_findings.length > 0) {
    // The client's findings, as the readiness report words them (its guide says what to change).
    lines.push('## The client (readiness findings)', '');
    for (const finding of report.client_findings)
      lines.push(
        `- **${finding.severity}** \`${finding.kind}\`: ${finding.title}. ${cell(finding.detail)} (${finding.docs})`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

const xml = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** One test suite per operation seen, one test case per finding; those `failOn` names fail. */
export function driftToJUnit(report: DriftReport, failOn = 'error'): string {
  const failing = new Set(driftFailing(report, failOn));
  const suites = new Map<string, string[]>();
  for (const entry of report.summary) suites.set(`${entry.method} ${entry.path}`, []);
  for (const finding of report.findings) {
    const suite = `${finding.method} ${finding.path}`;
    const text = `${finding.title}\n${sides(finding)}\nSeen ${finding.count} times: ${finding.exchanges.join(', ')}`;
    const body = failing.has(finding)
      ? `<failure type="${finding.kind}" message="${xml(`${finding.kind} at ${finding.at}`)}">${xml(text)}</failure>`
      : `<system-out>${xml(`${finding.severity}: ${text}`)}</system-out>`;
    const cases = suites.get(suite) ?? [];
    cases.push(
      `    <testcase classname="drift.${finding.group}" name="${xml(`${finding.kind} at ${finding.at}`)}">${body}</testcase>`,
    );
    suites.set(suite, cases);
  }
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = [...suites.values()].reduce((n, cases) => n + Math.max(cases.length, 1), 0);
  out.push(`<testsuites name="drift" tests="${total}" failures="${failing.size}">`);
  for (const [name, cases] of suites) {
    const failures = cases.filter((c) => c.includes('<failure')).length;
    if (cases.length === 0) cases.push(`    <testcase classname="drift" name="${xml(name)} agrees"/>`);
    out.push(
      `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}">`,
      ...cases,
      '  </testsuite>',
    );
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

export type { DriftKind };
