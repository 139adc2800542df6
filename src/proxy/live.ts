import type { CheckedLine } from './checks.js';

/**
 * The console's live line of a checked exchange: its id, request, status, time, and what the checks
 * found (`ok` when nothing), as `proxy` prints it while the client runs.
 */
export function exchangeLine({ exchange, findings, replayed }: CheckedLine): string {
  const target = `${exchange.method} ${exchange.path}${exchange.query ? `?${exchange.query}` : ''}`;
  const head = `${exchange.id.padEnd(5)} ${target} ${exchange.status} ${Math.round(exchange.durationMs)}ms`;
  if (exchange.upstreamError !== null) return `${head}  upstream error: ${exchange.upstreamError}`;
  const document = findings.filter((finding) => finding.group === 'document');
  const sandbox = findings.filter((finding) => finding.group === 'sandbox');
  const said = (list: typeof findings) =>
    list
      .map(
        (finding) =>
          `${finding.kind} ${finding.at} (${finding.group === 'document' ? finding.document : finding.service} / ${finding.group === 'document' ? finding.service : finding.sandbox})`,
      )
      .join('; ');
  return [
    head,
    `  document: ${document.length === 0 ? 'ok' : said(document)}`,
    `  sandbox: ${!replayed ? 'not replayed' : sandbox.length === 0 ? 'ok' : said(sandbox)}`,
  ].join('');
}
