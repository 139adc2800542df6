import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

/**
 * npx tsx bench/proxy.ts [--quick]
 *
 * What the recording proxy adds to a request over loopback: a bare node:http upstream (the fixed JSON
 * of bench/bare-server.mjs) reached directly and through the proxy (its own process, its checks on:
 * every exchange is checked against the document and replayed at its sandbox world), one request at
 * a time on a kept-alive connection, in alternating blocks so that the machine's noise falls on both.
 * Prints p50 and p99 of each and the p50 the proxy adds (target < 2 ms). Nothing is asserted.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUICK = process.argv.includes('--quick');
const BLOCKS = QUICK ? 4 : 20;
const PER_BLOCK = 250;
const WARM_UP = 300;
const PATH = '/consumers/9b4c115e-5290-4fcd-9a96-86e748871271';

function started(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /http:\/\/\S+/.exec(out)?.[0];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function once(url: string): Promise<number> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    request(`${url}${PATH}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - began));
    })
      .on('error', reject)
      .end();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number;
};

const upstream = await started(['bench/bare-server.mjs']);
const proxy = await started(['--import', 'tsx', 'bench/proxy-server.ts', upstream.url]);
try {
  for (let i = 0; i < WARM_UP; i += 1) {
    await once(upstream.url);
    await once(proxy.url);
  }
  const direct: number[] = [];
  const proxied: number[] = [];
  for (let block = 0; block < BLOCKS; block += 1) {
    for (let i = 0; i < PER_BLOCK; i += 1) direct.push(await once(upstream.url));
    for (let i = 0; i < PER_BLOCK; i += 1) proxied.push(await once(proxy.url));
  }
  const ms = (value: number) => value.toFixed(2);
  const added = percentile(proxied, 50) - percentile(direct, 50);
  console.log(`| scenario | requests | p50 ms | p99 ms | note |`);
  console.log(`|---|---|---|---|---|`);
  console.log(
    `| bare node:http upstream, directly | ${direct.length} | ${ms(percentile(direct, 50))} | ${ms(percentile(direct, 99))} | one request at a time, kept alive |`,
  );
  console.log(
    `| the same through the recording proxy (checks on) | ${proxied.length} | ${ms(percentile(proxied, 50))} | ${ms(percentile(proxied, 99))} | adds ${ms(added)} ms at p50 (target < 2 ms: ${added < 2 ? 'met' : '**not met**'}) |`,
  );
} finally {
  agent.destroy();
  proxy.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
}
