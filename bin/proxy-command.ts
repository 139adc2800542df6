import { parseArgs } from 'node:util';
import { SHARED_FILE, writeFileAtomic } from '../src/lib/file-writer.js';
import {
  type DriftReport,
  driftFailing,
  driftFileText,
  driftToJUnit,
  driftToMarkdown,
  exchangeLine,
  ProxyError,
  type RunningProxy,
  readDriftFile,
  startProxy,
} from '../src/proxy/index.js';
import { packageVersion } from './version.js';

/** `unified-api-sandbox proxy`: its options, its live lines, and what it writes when it stops. */

export const PROXY_USAGE = `unified-api-sandbox proxy --upstream URL [options]

A server on 127.0.0.1 that a client points at instead of the service: every request goes to the
upstream as it is, and its answer comes back as it is (status, headers, body, streamed; no header
added, no redirect followed, an upstream failure passed on, never a made-up answer). It forwards to
the upstream and nowhere else. Each exchange is checked, behind the forwarding, against the
service's document (status, body schema, headers) and replayed at a sandbox world (same outcome for
refusals, same shape for data); a line per exchange says what was found (/guides/proxy).
Credentials pass through and are written nowhere: the report, the world and the HAR are scrubbed.
Ctrl-C (or SIGTERM) stops it and writes the files asked for.

Options:
  --upstream URL    the service's base url (http or https)                        (required)
  --port N          port to listen on; 0 picks a free one                 (default 4011)
  --console-port N  also serve a page of the drift as it happens, on 127.0.0.1 at this port
                    (0 picks a free one; its url is printed at start)     (default: none)
  --seed N          seed of the sandbox world the traffic is replayed at  (default 1)
  --report FILE     write the drift report to FILE when stopped: JSON for .json, JUnit for .xml,
                    else Markdown
  --fail-on LIST    exit 1 when a finding of these kinds, or of this severity and above
                    (error, warning, info, any), is in the report (a known one never fails)
  --drift FILE      the known differences (a drift file, YAML or JSON): the findings its entries
                    name are marked known in the report
  --follow FILE     the sandbox world the traffic is replayed at follows this drift file, as
                    'serve --drift FILE' does: the differences it follows are no longer found
  --drift-out FILE  write every finding as an entry of a drift file when stopped (keep those you
                    accept, and give the file back with --drift)
  --record FILE     write the world the client read as a fixture document (YAML for .yaml or
                    .yml, else JSON) that 'serve --fixtures FILE' loads
  --keep-values     with --record, keep personal values (names, e-mails, phones, addresses, IBANs,
                    VAT numbers) instead of replacing them by generated ones
  --har FILE        write the exchanges, scrubbed, as a HAR 1.2 file
  --quiet           print only the url (no line per exchange)
  -h, --help        this text`;

const OPTIONS = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  'console-port': { type: 'string' },
  seed: { type: 'string' },
  report: { type: 'string' },
  'fail-on': { type: 'string' },
  record: { type: 'string' },
  drift: { type: 'string' },
  follow: { type: 'string' },
  'drift-out': { type: 'string' },
  'keep-values': { type: 'boolean' },
  har: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function whole(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new ProxyError(`--${name} takes a whole number, not '${value}'`);
  return Number(value);
}

async function write(path: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(path, text, SHARED_FILE);
  } catch (error) {
    throw new ProxyError(`cannot write ${path}: ${(error as Error).message}`);
  }
}

const reportText = (report: DriftReport, path: string, failOn: string) =>
  path.endsWith('.json')
    ? `${JSON.stringify(report, null, 2)}\n`
    : path.endsWith('.xml')
      ? driftToJUnit(report, failOn || 'error')
      : driftToMarkdown(report);

/** Runs `proxy` on its arguments (those after the command's name). */
export async function proxyCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
  if (values.help) return console.log(PROXY_USAGE);
  if (!values.upstream) throw new ProxyError(`--upstream is required. ${PROXY_USAGE}`);
  if (values['keep-values'] && !values.record) throw new ProxyError('--keep-values goes with --record');
  const failOn = values['fail-on'] ?? '';
  // A fail-on list is read before anything starts: a typo is said now, not after the run.
  driftFailing({ findings: [] } as unknown as DriftReport, failOn);
  const quiet = values.quiet === true;
  const entriesOf = (file: string | undefined): ReturnType<typeof readDriftFile> => {
    if (!file) return [];
    try {
      return readDriftFile(file);
    } catch (error) {
      throw new ProxyError((error as Error).message);
    }
  };
  const known = entriesOf(values.drift);
  const follow = entriesOf(values.follow);
  const proxy = await startProxy({
    known,
    ...(follow.length > 0 ? { follow } : {}),
    upstream: values.upstream,
    port: whole('port', values.port, 4011),
    seed: whole('seed', values.seed, 1),
    ...(values.record ? { record: { keepValues: values['keep-values'] === true } } : {}),
    har: values.har !== undefined,
    version: packageVersion(),
    ...(quiet ? {} : { onChecked: (line) => console.log(exchangeLine(line)) }),
    ...(values['console-port'] !== undefined
      ? { console: { port: whole('console-port', values['console-port'], 0), failOn } }
      : {}),
  });
  if (quiet) console.log([proxy.url, ...(proxy.consoleUrl ? [proxy.consoleUrl] : [])].join('\n'));
  else
    console.log(
      [
        'unified-api-sandbox proxy is running',
        '',
        `  Proxy      ${proxy.url}   (point the client here)`,
        `  Upstream   ${values.upstream}`,
        ...(proxy.consoleUrl ? [`  Console    ${proxy.consoleUrl}   (the drift, live, in a browser)`] : []),
        `  Replayed   at a sandbox world of seed ${whole('seed', values.seed, 1)}`,
        ...(values.report ? [`  Report     ${values.report}   (written when stopped)`] : []),
        ...(values.record ? [`  World      ${values.record}   (written when stopped)`] : []),
        ...(values.har ? [`  HAR        ${values.har}   (written when stopped)`] : []),
        '  Ctrl-C stops.',
        '',
      ].join('\n'),
    );
  const stop = (signal: NodeJS.Signals) => {
    stopProxy(proxy, { ...values, failOn }).then(
      (code) => process.exit(code),
      (error: unknown) => {
        console.error(`unified-api-sandbox proxy: ${(error as Error).message} (on ${signal})`);
        process.exit(2);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** Stops forwarding, waits for the checks, writes the files; the exit code (1 when --fail-on matched). */
async function stopProxy(
  proxy: RunningProxy,
  files: {
    report?: string | undefined;
    record?: string | undefined;
    har?: string | undefined;
    'drift-out'?: string | undefined;
    failOn: string;
  },
): Promise<number> {
  await proxy.close();
  const report = await proxy.report();
  if (files.report) await write(files.report, reportText(report, files.report, files.failOn));
  if (files.record) await write(files.record, await proxy.worldText(files.record));
  if (files.har) await write(files.har, `${JSON.stringify(await proxy.har(), null, 2)}\n`);
  const driftOut = files['drift-out'];
  if (driftOut) await write(driftOut, driftFileText(report, driftOut));
  const failed = files.failOn ? driftFailing(report, files.failOn) : [];
  console.error(
    `unified-api-sandbox proxy: ${report.exchanges} exchanges, ${report.findings.length} findings${failed.length ? `, ${failed.length} fail the run` : ''}`,
  );
  return failed.length > 0 ? 1 : 0;
}
