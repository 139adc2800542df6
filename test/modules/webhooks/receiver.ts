import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on a loopback port that answers as told (a status, or no answer at all) and
 * keeps what it got: the webhook tests' stand-in for a client's endpoint.
 */

export type Behaviour = number | 'hang';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export class Receiver {
  readonly requests: Received[] = [];
  readonly #plan: Behaviour[] = [];
  #fallback: Behaviour = 200;
  #waiters: ((r: Received) => void)[] = [];
  readonly #server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.requests.push(received);
      for (const waiter of this.#waiters.splice(0)) waiter(received);
      const behaviour = this.#plan.shift() ?? this.#fallback;
      if (behaviour === 'hang') return;
      res.writeHead(behaviour, { 'content-type': 'text/plain' }).end('ok');
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  /** The answers of the next requests, in order; then `fallback` for every later one. */
  answer(plan: Behaviour[], fallback: Behaviour = 200): void {
    this.#plan.push(...plan);
    this.#fallback = fallback;
  }

  /** Resolves with the next request the receiver gets. */
  next(): Promise<Received> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves once the receiver has got `count` requests in all. */
  async received(count: number): Promise<void> {
    while (this.requests.length < count) await this.next();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
