/**
 * What the tests of the package share: the repository's manifest, npm run as a newcomer runs it, and
 * the processes it starts (`npx unified-api-sandbox ...`) stopped whole.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const run = promisify(execFile);

export interface PackageJson {
  name: string;
  version: string;
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
  files: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
export const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/**
 * The environment of the npm commands: that of the outer `npm test` would make them act on this
 * repository (its prefix, its package) instead of the temporary project.
 */
export const npmEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm_package_|npm_lifecycle_|npm_command$|npm_config_local_prefix$|INIT_CWD$)/i.test(key),
  ),
);

export function npm(args: string[], cwd: string, timeout: number, env: NodeJS.ProcessEnv = npmEnv) {
  return run('npm', args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function printedUrl(child: ChildProcess, timeout: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no url within ${timeout} ms: ${err}`)), timeout);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /http:\/\/\S+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${err}`));
    });
  });
}

export function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve();
    const pid = child.pid;
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
      resolve();
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}
