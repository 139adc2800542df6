/**
 * nginx in front of sandbox processes, for the tests that run the arrangement of docs/scaling.md for
 * real: the configuration the page shows, nginx found on the machine, and plain HTTP from a chosen
 * local address (a router that routes by client address sees each as another client).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, type ServingCli, serveWith, stop } from '../cli/helpers.js';

/** What the test says when nginx is missing: it fails, and says how to get it. */
export const NGINX_MISSING =
  'nginx is not installed: .ci/run installs it when missing (Debian: apt-get install -y --no-install-recommends nginx); the router test of docs/scaling.md runs it';

/** The nginx executable: on the PATH, else where Debian puts it (/usr/sbin is not on every PATH). */
export function findNginx(): string | undefined {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore', timeout: 10_000 }).status === 0) return candidate;
  }
  return undefined;
}

/** The ports docs/scaling.md's configuration names: the router's, and the two processes'. */
export const DOC_PORTS = { router: 80, p1: 4011, p2: 4012 } as const;

/**
 * The nginx configuration of docs/scaling.md (its one `nginx` block), its ports replaced by the
 * given ones and the router bound to loopback; throws when the page no longer has the lines replaced.
 */
export function docConfiguration(ports: { router: number; p1: number; p2: number }): string {
  const page = readFileSync(join(ROOT, 'docs', 'scaling.md'), 'utf8');
  const blocks = [...page.matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  if (blocks.length !== 1) throw new Error(`docs/scaling.md has ${blocks.length} nginx blocks, not one`);
  let config = blocks[0] ?? '';
  const replace = (from: string, to: string) => {
    if (!config.includes(from)) throw new Error(`the nginx block of docs/scaling.md has no '${from}'`);
    config = config.replaceAll(from, to);
  };
  replace(`listen ${DOC_PORTS.router};`, `listen 127.0.0.1:${ports.router};`);
  replace(`127.0.0.1:${DOC_PORTS.p1};`, `127.0.0.1:${ports.p1};`);
  replace(`127.0.0.1:${DOC_PORTS.p2};`, `127.0.0.1:${ports.p2};`);
  return config;
}

/** A port free on 127.0.0.1 now (nothing holds it once this resolves). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  child: ChildProcess;
  /** What it printed on stderr (its error log). */
  log(): string;
}

/**
 * Starts `nginx -e stderr -p <dir> -c nginx.conf` in the foreground (the configuration says `daemon
 * off`) and resolves once `port` accepts connections; rejects with its log when it exits first.
 */
export function startNginx(nginx: string, dir: string, port: number): Promise<RunningNginx> {
  const child = spawn(nginx, ['-e', 'stderr', '-p', dir, '-c', 'nginx.conf'], { cwd: dir });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const running: RunningNginx = { child, log: () => stderr };
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 15_000;
    const onExit = (code: number | null) => reject(new Error(`nginx exited with ${code}: ${stderr}`));
    child.once('exit', onExit);
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        child.off('exit', onExit);
        resolve(running);
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nginx did not listen on ${port}: ${stderr}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** The sandbox processes of docs/scaling.md, by their names in the router's paths. */
export const PROCESS_NAMES = ['p1', 'p2'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

export interface Arrangement {
  /** The router's url (http://127.0.0.1:<port>). */
  router: string;
  /** Each process, reached straight (its own url), with its child. */
  processes: Record<ProcessName, ServingCli>;
  nginx: RunningNginx;
  /** The folder nginx runs from (its configuration, pid and temp/). */
  dir: string;
  /** Stops nginx and the processes, and removes the folder nginx ran from. */
  close(): Promise<void>;
}

/**
 * docs/scaling.md's arrangement on loopback: two processes of the built CLI with the page's options
 * (a seed of their own, `adminToken`, their route through the router as public url, `--cors none`,
 * then `args`), and nginx with the page's configuration in a temporary folder. Whatever started is
 * stopped again when a later step fails.
 */
export async function startArrangement(
  nginxPath: string,
  adminToken: string,
  args: string[] = [],
): Promise<Arrangement> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-router-'));
  const started: ServingCli[] = [];
  let nginx: RunningNginx | undefined;
  const close = async () => {
    if (nginx) await stop(nginx.child);
    for (const served of started) await stop(served.child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Started by root, nginx's workers run as another user: they go through this folder to its temp/.
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'temp'));
    const port = await freePort();
    const router = `http://127.0.0.1:${port}`;
    for (const name of PROCESS_NAMES) {
      // The page gives each process its port as its seed.
      const seed = String(DOC_PORTS[name]);
      const options = [
        '--seed',
        seed,
        '--admin-token',
        adminToken,
        '--public-url',
        `${router}/${name}`,
        '--cors',
        'none',
      ];
      started.push(
        await serveWith([join(ROOT, 'dist', 'cli.mjs'), '--port', '0', '--quiet', ...options, ...args]),
      );
    }
    const [p1, p2] = started as [ServingCli, ServingCli];
    const ports = { router: port, p1: Number(new URL(p1.url).port), p2: Number(new URL(p2.url).port) };
    writeFileSync(join(dir, 'nginx.conf'), docConfiguration(ports));
    nginx = await startNginx(nginxPath, dir, port);
    return { router, processes: { p1, p2 }, nginx, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The local address the request leaves from (any of 127.0.0.0/8 on loopback). */
  from?: string;
}

/**
 * One HTTP request with node:http, which lets a test choose the local address and send any Host;
 * rejects when the connection closes without an answer (a dropped connection).
 */
export function send(url: string, options: RawRequest = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers, localAddress: options.from, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', reject);
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
