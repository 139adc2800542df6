import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DriftConsole } from '../../src/proxy/console.js';
import { consolePage, exchangeRow } from '../../src/proxy/console-page.js';
import type { DriftFinding } from '../../src/proxy/drift.js';
import type { CheckedLine, DriftReport } from '../../src/proxy/index.js';
import { openStream } from './event-stream.js';

/**
 * The drift console on its own, fed checked exchanges a test makes: every value a service or a
 * client chose is escaped in the page, and a stream that does not read is dropped instead of
 * holding the proxy or growing without bound.
 */

const HOSTILE = '<img src=x onerror="alert(1)">&\'';

function finding(overrides: Partial<DriftFinding> = {}): DriftFinding {
  return {
    kind: 'schema_deviation',
    group: 'document',
    severity: 'error',
    title: 'The answer leaves its schema',
    operation_id: 'invoicing_get_contacts',
    method: 'GET',
    path: '/consumers/{consumer_id}/invoicing/contacts',
    at: '$.items[].name',
    document: 'string',
    service: 'number',
    sandbox: null,
    count: 1,
    exchanges: ['x1'],
    known: false,
    ...overrides,
  };
}

function line(id: string, path: string, findings: DriftFinding[] = []): CheckedLine {
  return {
    exchange: {
      id,
      startedAt: 0,
      durationMs: 12,
      method: 'GET',
      path,
      query: '',
      requestHeaders: {},
      requestBody: '',
      requestTruncated: false,
      status: 200,
      responseHeaders: {},
      responseText: '',
      responseBody: undefined,
      responseTruncated: false,
      upstreamError: null,
      operationId: null,
      template: null,
      area: null,
    },
    findings,
    replayed: true,
  };
}

const emptyReport = (): DriftReport => ({
  upstream: 'https://api.example.com',
  generated_at: '2026-01-01T00:00:00.000Z',
  exchanges: 0,
  unchecked: 0,
  summary: [],
  findings: [],
  client_findings: [],
});

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
});

describe('the drift console page', () => {
  it('escapes every value a service, a client or the upstream chose', () => {
    const hostile = finding({
      kind: 'sandbox_shape',
      group: 'sandbox',
      at: HOSTILE,
      service: HOSTILE,
      sandbox: HOSTILE,
      path: HOSTILE,
      method: HOSTILE,
      exchanges: [HOSTILE],
    });
    const report: DriftReport = {
      ...emptyReport(),
      upstream: HOSTILE,
      summary: [
        {
          operation_id: HOSTILE,
          method: 'GET',
          path: HOSTILE,
          calls: 1,
          conforming: 0,
          replayed: 1,
          agreeing: 0,
        },
      ],
      findings: [hostile, finding({ document: HOSTILE, service: HOSTILE })],
      client_findings: [
        {
          kind: 'token_not_reused',
          severity: 'warning',
          title: HOSTILE,
          detail: HOSTILE,
          advice: HOSTILE,
          docs: HOSTILE,
          consumer_id: null,
          connection_id: null,
          operation_id: null,
          count: 1,
          requests: [],
        } as unknown as DriftReport['client_findings'][number],
      ],
    };
    const row = exchangeRow({
      ...line(HOSTILE, `/${HOSTILE}`, [hostile, finding({ document: HOSTILE })]),
      exchange: { ...line(HOSTILE, `/${HOSTILE}`).exchange, query: HOSTILE },
    });
    const failed = exchangeRow({
      ...line('x2', '/a'),
      exchange: { ...line('x2', '/a').exchange, upstreamError: HOSTILE },
    });
    const page = consolePage(report, [row, failed], 100);
    for (const html of [page, row, failed]) {
      expect(html).not.toContain('<img');
      expect(html).not.toContain('onerror="');
    }
    expect(page).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;');
    expect(failed).toContain('upstream error: &lt;img');
  });
});

describe('the drift console streams', () => {
  it('drops a stream that does not read once its queue passes its bound; the others get every event', async () => {
    const drift = await DriftConsole.start(
      { report: async () => emptyReport(), known: [] },
      { maxStreams: 2, maxQueuedBytes: 64 * 1024 },
    );
    opened.push(drift);
    // A client that asks for the stream and never reads it.
    const slow: Socket = connect(Number(new URL(drift.url).port), '127.0.0.1');
    opened.push({ close: () => slow.destroy() });
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    slow.pause();
    slow.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    const fast = await openStream(`${drift.url}/events`);
    opened.push(fast);
    for (let waited = 0; drift.streams < 2 && waited < 200; waited += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(drift.streams).toBe(2);
    // Events of ~16 KB each, until the slow one is dropped (the loopback's buffers take some MB first).
    const long = `/${'a'.repeat(16 * 1024)}`;
    let sent = 0;
    while (drift.streams === 2 && sent < 2000) {
      drift.checked(line(`x${sent + 1}`, long));
      sent += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(drift.streams).toBe(1);
    expect(sent).toBeLessThan(2000);
    // The reading stream was never held back: it gets them all.
    expect(await fast.next('exchange', (data) => data.id === `x${sent}`)).toMatchObject({ id: `x${sent}` });
    expect(fast.events.filter((event) => event.name === 'exchange')).toHaveLength(sent);
    // The dropped client's place is free again, and a new stream gets the last exchanges whole, though
    // they are more than a stream may have waiting (a first event is not a stream falling behind).
    const again = await openStream(`${drift.url}/events`);
    opened.push(again);
    expect(again.status).toBe(200);
    const recent = (await again.next('recent')) as { rows: string };
    expect(recent.rows.length).toBeGreaterThan(64 * 1024);
    expect(recent.rows).toContain(`data-id="x${sent}"`);
    expect(drift.streams).toBe(2);
  });
});
