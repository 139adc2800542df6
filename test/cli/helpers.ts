import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = ['--import', 'tsx', 'bin/unified-api-sandbox.ts'];

/** Runs the CLI to completion (from source, through tsx). */
export function runCli(args: string[]) {
  const out = spawnSync(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

export interface ServingCli {
  child: ChildProcess;
  url: string;
}

/** Starts `serve --quiet` (from source) and resolves with the url it prints. */
export function serveCli(args: string[]): Promise<ServingCli> {
  return serveWith([...CLI, 'serve', '--quiet', ...args]);
}

/** Starts node with `argv` (a command line of the sandbox that serves) and resolves with the url it prints. */
export function serveWith(argv: string[]): Promise<ServingCli> {
  const child = spawn(process.execPath, argv, { cwd: ROOT });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${err}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/\S+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[0] });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}: ${err}`));
    });
  });
}

export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

const TSX = fileURLToPath(import.meta.resolve('tsx'));

/**
 * Starts the CLI's `serve` (not --quiet) and resolves with the whole banner once it is printed. The
 * child joins `running` at once, so that a test stops it even when it fails to start.
 */
export function serveWithBanner(
  running: ChildProcess[],
  script: string,
  args: string[],
  cwd = ROOT,
): Promise<{ child: ChildProcess; banner: string; url: string }> {
  const child = spawn(process.execPath, ['--import', TSX, script, 'serve', ...args], { cwd });
  running.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${err}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /API\s+(http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('Ctrl-C stops.')) {
        clearTimeout(timer);
        resolve({ child, banner: out, url });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`CLI exited with ${code}: ${err}`));
    });
  });
}
