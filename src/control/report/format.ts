import { errors } from '../../lib/errors.js';
import type { Finding, ReadinessReport } from './analyse.js';
import { FINDING_KIND_NAMES, type FindingKindName, type Severity } from './kinds.js';

/**
 * The readiness report as a person reads it (Markdown) and as CI collects it (JUnit XML), and which
 * findings fail a run (`--fail-on`, `fail_on=`).
 */

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** A parsed fail-on list: kind names, and severities meaning that severity and above. */
export interface FailOn {
  kinds: ReadonlySet<FindingKindName>;
  /** The lowest severity that fails (error < warning < info), or null. */
  severity: Severity | null;
}

/**
 * Reads a fail-on list: comma-separated kinds (`token_not_reused,duplicate_write`), severities
 * (`error`: every error; `warning`: warnings and errors; `info` or `any`: everything), or nothing.
 * Anything else throws the envelope's 400 naming the words it does not know.
 */
export function parseFailOn(text: string | undefined): FailOn {
  const kinds = new Set<FindingKindName>();
  let severity: Severity | null = null;
  const unknown: string[] = [];
  for (const word of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const name = word === 'any' ? 'info' : word;
    if ((SEVERITIES as readonly string[]).includes(name)) {
      const rank = SEVERITIES.indexOf(name as Severity);
      if (severity === null || rank > SEVERITIES.indexOf(severity)) severity = name as Severity;
    } else if ((FINDING_KIND_NAMES as readonly string[]).includes(name)) kinds.add(name as FindingKindName);
    else unknown.push(word);
  }
  if (unknown.length > 0)
    throw errors.badReportFailOn(unknown, [...SEVERITIES, 'any', ...FINDING_KIND_NAMES]);
  return { kinds, severity };
}

export function fails(finding: Finding, failOn: FailOn): boolean {
  if (failOn.kinds.has(finding.kind)) return true;
  return (
    failOn.severity !== null && SEVERITIES.indexOf(finding.severity) <= SEVERITIES.indexOf(failOn.severity)
  );
}

/** The findings that fail the run. */
export const failing = (report: ReadinessReport, failOn: FailOn): Finding[] =>
  report.findings.filter((finding) => fails(finding, failOn));

const where = (finding: Finding): string =>
  [
    finding.consumer_id ? `consumer ${finding.consumer_id}` : null,
    finding.connection_id ? `connection ${finding.connection_id}` : null,
    finding.operation_id ? `operation ${finding.operation_id}` : null,
  ]
    .filter(Boolean)
    .join(', ');

/**
 * A link shown as its target, which Markdown follows whether it is a url or a path (a path is no
 * autolink); `<...>` keeps a path with spaces whole.
 */
const markdownLink = (target: string): string =>
  `[${target.replaceAll('[', '\\[').replaceAll(']', '\\]')}](${/[\s()]/.test(target) ? `<${target}>` : target})`;

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function toMarkdown(report: ReadinessReport): string {
  const lines: string[] = [];
  const { summary, requests, tokens } = report;
  lines.push('# Integration readiness report', '');
  lines.push(
    `Sandbox time ${report.generated_at}${report.consumer_id ? `, consumer ${report.consumer_id}` : ''}${report.connection_id ? `, connection ${report.connection_id}` : ''}: ${requests.api_calls} API calls and ${requests.token_requests} token requests recorded${requests.first ? ` from ${requests.first} to ${requests.last}` : ''}.`,
    '',
  );
  lines.push(
    `**${summary.errors} errors, ${summary.warnings} warnings, ${summary.infos} notes.** Tokens: ${tokens.requested} requested (at most ${tokens.most_in_one_hour} in one hour), ${tokens.distinct_used} used, ${tokens.expired_uses} requests with an expired token. Writes: ${report.writes.total}, ${report.writes.with_request_id} with a request id; transactions looked up: ${report.writes.transactions_looked_up}.`,
    '',
  );
  if (report.findings.length > 0) {
    lines.push('## Findings', '');
    for (const finding of report.findings) {
      lines.push(`### ${finding.severity}: ${finding.title} (\`${finding.kind}\`)`, '');
      const place = where(finding);
      if (place) lines.push(`${place}.`, '');
      lines.push(
        finding.detail,
        '',
        `What to change: ${finding.advice} See ${markdownLink(finding.docs)}.`,
        '',
      );
      if (finding.requests.length > 0) lines.push(`Requests: ${finding.requests.join(', ')}`, '');
      if (finding.deliveries.length > 0) lines.push(`Deliveries: ${finding.deliveries.join(', ')}`, '');
    }
  } else {
    lines.push('No findings.', '');
  }
  if (report.coverage.length > 0) {
    lines.push('## Coverage', '');
    lines.push('| Consumer | Connection | Integration | Operation | Calls | Errors | Supported |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const entry of report.coverage) {
      for (const operation of entry.operations) {
        lines.push(
          `| ${entry.consumer_id} | ${entry.connection_id ?? ''} | ${cell(entry.integration ?? '')} | ${operation.operation_id} | ${operation.calls} | ${operation.errors} | ${operation.supported === null ? '' : operation.supported ? 'yes' : 'no'} |`,
        );
      }
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}

const xml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    // Characters XML 1.0 cannot carry.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * One test case per finding (failed when `failOn` fails it), in one suite; a report without findings
 * is one passing case, so that CI shows the check ran.
 */
export function toJUnit(report: ReadinessReport, failOn: FailOn): string {
  const cases = report.findings.map((finding) => {
    const name = `${finding.kind}${where(finding) ? ` (${where(finding)})` : ''}`;
    const text = `${finding.detail}\nWhat to change: ${finding.advice}\nSee ${finding.docs}\nRequests: ${finding.requests.join(', ')}`;
    const body = fails(finding, failOn)
      ? `<failure type="${finding.kind}" message="${xml(finding.title)}">${xml(text)}</failure>`
      : `<system-out>${xml(`${finding.severity}: ${text}`)}</system-out>`;
    return `    <testcase classname="readiness.${finding.severity}" name="${xml(name)}">${body}</testcase>`;
  });
  if (cases.length === 0) cases.push('    <testcase classname="readiness" name="no findings"/>');
  const failures = report.findings.filter((finding) => fails(finding, failOn)).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="readiness" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="Integration readiness" tests="${cases.length}" failures="${failures}" timestamp="${report.generated_at}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
