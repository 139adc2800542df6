import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type SandboxApp } from '../../src/app.js';

/**
 * A double of the service for the proxy's tests: a sandbox app served on a loopback port, whose
 * answers go through `deviate` before they leave, so that a test plays a service that departs from
 * the sandbox (and from its document) in chosen ways, and in those alone.
 */

type Json = Record<string, unknown>;

export interface Played {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a deviation sees of a request: its method, path, query, and the answer the sandbox gave. */
export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
}

/** Changes the request before the sandbox answers it (a size cap), then the answer. */
export interface Deviation {
  request?: (seen: Seen) => void;
  answer: (seen: Seen, played: Played) => Played | null;
}

export interface ServiceDouble {
  origin: string;
  app: SandboxApp;
  close(): Promise<void>;
}

export async function serviceDouble(seed: number, deviations: Deviation[]): Promise<ServiceDouble> {
  const app = createApp({ seed, connectionLife: 'off' });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://service.example');
      const seen: Seen = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams };
      for (const deviation of deviations) deviation.request?.(seen);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
      const body = Buffer.concat(chunks);
      const query = seen.query.toString();
      const answer = await app.request(`${seen.path}${query ? `?${query}` : ''}`, {
        method: seen.method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      let played: Played = {
        status: answer.status,
        headers: Object.fromEntries(
          [...answer.headers.entries()].filter(([name]) => name !== 'content-length'),
        ),
        body: await answer.text(),
      };
      for (const deviation of deviations) played = deviation.answer(seen, played) ?? played;
      res.writeHead(played.status, played.headers);
      res.end(played.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A deviation of the JSON answers of one method and path (a regular expression of the path). */
export function onJson(
  method: string,
  path: RegExp,
  change: (body: Json, played: Played) => Played | Json,
): Deviation {
  return {
    answer(seen, played) {
      if (seen.method !== method || !path.test(seen.path)) return null;
      if (!(played.headers['content-type'] ?? '').includes('json')) return null;
      const changed = change(JSON.parse(played.body) as Json, played);
      if (
        'status' in changed &&
        'headers' in changed &&
        'body' in changed &&
        typeof changed.body === 'string'
      )
        return changed as unknown as Played;
      return { ...played, body: JSON.stringify(changed) };
    },
  };
}
