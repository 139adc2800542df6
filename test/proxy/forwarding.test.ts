import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';

/**
 * The forwarding: what reaches the proxy goes to its upstream, and only there, as it was; the
 * upstream's answer comes back as it was, streamed, whatever it is (a redirect, a 501, a failure).
 * The upstream here is a double that answers what each test tells it to.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Upstream {
  origin: string;
  server: Server;
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  handle: Handler;
}

const opened: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

async function upstreamDouble(handle: Handler): Promise<Upstream> {
  const upstream = { seen: [], handle } as unknown as Upstream;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      upstream.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      upstream.handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.server = server;
  upstream.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  opened.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return upstream;
}

async function proxyTo(origin: string, options: { timeoutMs?: number } = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ upstream: origin, ...options });
  opened.push(proxy);
  return proxy;
}

/** A raw HTTP/1.1 exchange over a socket: what the proxy answers to a request a client library would not send. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let out = '';
    socket.on('data', (chunk) => {
      out += chunk.toString();
    });
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('the proxy forwards to its upstream as it is', () => {
  it('passes the request and the answer unchanged, and adds no header to the answer', async () => {
    const upstream = await upstreamDouble((_req, res) => {
      // No Date: the proxy must not add one either.
      res.sendDate = false;
      res.writeHead(207, 'Odd Status', [
        'x-rate-limit-remaining',
        '41',
        'set-cookie',
        'a=1',
        'set-cookie',
        'b=2',
        'content-type',
        'application/json',
      ]);
      res.end('{"ok":true}');
    });
    const proxy = await proxyTo(upstream.origin);
    const direct = await fetch(`${upstream.origin}/consumers?x=1`);
    await direct.text();
    const res = await fetch(`${proxy.url}/consumers?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client': 'mine', authorization: 'Bearer abc.def' },
      body: '{"name":"Acme"}',
    });
    expect(res.status).toBe(207);
    expect(res.statusText).toBe('Odd Status');
    expect(await res.text()).toBe('{"ok":true}');
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    // The same headers as the upstream's own answer, but for those of the connection.
    const names = (headers: Headers) =>
      [...headers.keys()].filter((name) => !['connection', 'keep-alive'].includes(name)).sort();
    expect(names(res.headers)).toEqual(names(direct.headers));
    expect(res.headers.get('date')).toBeNull();
    const seen = upstream.seen.at(-1);
    expect(seen?.url).toBe('/consumers?x=1');
    expect(seen?.body).toBe('{"name":"Acme"}');
    expect(seen?.headers['x-client']).toBe('mine');
    expect(seen?.headers.authorization).toBe('Bearer abc.def');
    // Host is the upstream's, whatever the client said.
    expect(seen?.headers.host).toBe(new URL(upstream.origin).host);
  });

  it('sends Host as the upstream, and never elsewhere, whatever Host the client gives', async () => {
    const upstream = await upstreamDouble((_req, res) => res.end('upstream'));
    const proxy = await proxyTo(upstream.origin);
    const answer = await raw(
      proxy.port,
      'GET /consumers HTTP/1.1\r\nHost: evil.example\r\nConnection: close, x-drop\r\nx-drop: 1\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.endsWith('upstream')).toBe(true);
    expect(upstream.seen[0]?.headers.host).toBe(new URL(upstream.origin).host);
    // A header the Connection header names belongs to that hop: not forwarded.
    expect(upstream.seen[0]?.headers['x-drop']).toBeUndefined();
  });

  it('refuses a request target in absolute form and CONNECT, forwarding nothing', async () => {
    const upstream = await upstreamDouble((_req, res) => res.end('upstream'));
    const proxy = await proxyTo(upstream.origin);
    const absolute = await raw(
      proxy.port,
      'GET http://evil.example/steal HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 400/);
    expect(absolute).toContain('forwards only to its upstream');
    const tunnel = await raw(
      proxy.port,
      'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n',
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 405/);
    expect(upstream.seen).toEqual([]);
  });

  it('gives a redirect back as it is, never following it', async () => {
    const elsewhere = await upstreamDouble((_req, res) => res.end('followed'));
    const upstream = await upstreamDouble((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}/landing` });
      res.end();
    });
    const proxy = await proxyTo(upstream.origin);
    const res = await fetch(`${proxy.url}/go`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${elsewhere.origin}/landing`);
    expect(elsewhere.seen).toEqual([]);
  });

  it("passes an upstream's failure on as it is: a 501 stays a 501, with its body", async () => {
    const upstream = await upstreamDouble((_req, res) => {
      res.writeHead(501, { 'content-type': 'application/json' });
      res.end('{"message":"Not implemented"}');
    });
    const proxy = await proxyTo(upstream.origin);
    const res = await fetch(`${proxy.url}/consumers`);
    expect(res.status).toBe(501);
    expect(await res.text()).toBe('{"message":"Not implemented"}');
  });

  it('answers 502 naming the error, never a made-up answer, when the upstream cannot be reached', async () => {
    const upstream = await upstreamDouble((_req, res) => res.end());
    const origin = upstream.origin;
    await opened.pop()?.close();
    const proxy = await proxyTo(origin);
    const res = await fetch(`${proxy.url}/consumers`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toContain('ECONNREFUSED');
  });

  it('answers 502 when the upstream does not start answering in time', async () => {
    const upstream = await upstreamDouble(() => undefined);
    const proxy = await proxyTo(upstream.origin, { timeoutMs: 300 });
    const res = await fetch(`${proxy.url}/consumers`);
    expect(res.status).toBe(502);
    expect(await res.text()).toContain('did not answer within 300 ms');
  });

  it('streams a 10 MB answer: the client reads its start before the upstream has written its end', async () => {
    const MiB = 1024 * 1024;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let lastWritten = false;
    const upstream = await upstreamDouble((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(10 * MiB) });
      res.write(Buffer.alloc(MiB, 1));
      // The rest only once the client has seen the first megabyte through the proxy.
      void released.then(async () => {
        for (let i = 1; i < 10; i += 1) {
          if (!res.write(Buffer.alloc(MiB, 2))) await new Promise((resolve) => res.once('drain', resolve));
        }
        lastWritten = true;
        res.end();
      });
    });
    const proxy = await proxyTo(upstream.origin);
    const received = await new Promise<number>((resolve, reject) => {
      request(`${proxy.url}/big`, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) {
            expect(lastWritten).toBe(false);
            release();
          }
          bytes += chunk.length;
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(received).toBe(10 * MiB);
    expect(lastWritten).toBe(true);
    // The checks kept at most their limit of it (1 MiB): the exchange is counted as not checked.
    const report = await proxy.report();
    expect(report).toMatchObject({ exchanges: 1, unchecked: 1 });
  });
});
