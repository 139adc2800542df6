import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NotingResponse } from '../../src/lib/noting-response.js';

/** A server whose answers are NotingResponses: each request's answer is written by `answer`. */
async function serverWith(answer: (res: NotingResponse) => void, noted: (string | null)[]): Promise<Server> {
  const server = createServer({ ServerResponse: NotingResponse }, (_req, res) => {
    const noting = res as NotingResponse;
    noting.onEnd = (text) => noted.push(text);
    answer(noting);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

describe('NotingResponse', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('tells the text an answer ends with, once, before the client has it', async () => {
    const noted: (string | null)[] = [];
    server = await serverWith((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"a":1}');
      res.end();
    }, noted);
    const res = await fetch(urlOf(server));
    expect(await res.text()).toBe('{"a":1}');
    expect(noted).toEqual(['{"a":1}']);
  });

  it('tells null for a streamed answer, for bytes, and for an answer destroyed before its end', async () => {
    const noted: (string | null)[] = [];
    let kind = 'stream';
    server = await serverWith((res) => {
      if (kind === 'stream') {
        res.write('{"a":');
        res.end('1}');
      } else if (kind === 'bytes') res.end(Buffer.from('{"a":1}'));
      else res.destroy();
    }, noted);
    expect(await (await fetch(urlOf(server))).text()).toBe('{"a":1}');
    kind = 'bytes';
    expect(await (await fetch(urlOf(server))).text()).toBe('{"a":1}');
    kind = 'destroyed';
    await expect(fetch(urlOf(server))).rejects.toThrow();
    expect(noted).toEqual([null, null, null]);
  });

  it('answers as a ServerResponse when nobody asks, and a failing listener fails no answer', async () => {
    const noted: (string | null)[] = [];
    server = await serverWith((res) => {
      res.onEnd = () => {
        throw new Error('the listener failed');
      };
      res.end('kept');
    }, noted);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args[0]);
    try {
      expect(await (await fetch(urlOf(server))).text()).toBe('kept');
    } finally {
      console.error = original;
    }
    expect(errors).toEqual(['[unified-api-sandbox] an answer could not be noted:']);
  });
});
