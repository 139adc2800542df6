import { describe, expect, it, vi } from 'vitest';
import { type JournalRecord, RequestJournal } from '../../src/control/requests/index.js';
import { ByteArena } from '../../src/lib/byte-arena.js';

/** A record as capture makes one: node's flat header list, an answer's text, a caller. */
function recordOf(i: number, overrides: Partial<JournalRecord> = {}): JournalRecord {
  return {
    seq: 0,
    chars: 0,
    at: Date.UTC(2026, 0, 15) + i,
    method: i % 3 === 0 ? 'POST' : 'GET',
    path: `/consumers/c-${i}/accounting/invoices`,
    url: `http://sandbox.test/consumers/c-${i}/accounting/invoices?page=${i}&size=2`,
    headers: [
      'Host',
      'sandbox.test',
      'Authorization',
      `Bearer t${i}`,
      'X-Note',
      `naïve ☃ ${i}`,
      'X-Empty',
      '',
    ],
    principal: { kind: i % 2 ? 'mcp' : 'api', clientid: `client-${i}` },
    consumerId: `c-${i}`,
    connectionId: i % 4 ? `conn-${i}` : null,
    requestBody: i % 3 === 0 ? `{"name":"é ${'x'.repeat(i % 50)} 🎉"}` : null,
    requestTruncated: false,
    status: 200,
    responseBody: `{"items":[],"total":${i},"page":1,"size":2}`,
    responseTruncated: i % 5 === 0,
    durationMs: i / 100,
    fault: i % 7 === 0 ? 'slow "one"\nline' : null,
    page: i % 2 ? { total: i, page: 1, size: 2 } : null,
    ...overrides,
  };
}

describe('journal storage', () => {
  it('gives back every text it was given, across growth, compaction and release', () => {
    const arena = new ByteArena(16);
    const held: [start: number, bytes: number, text: string][] = [];
    let peak = 0;
    let longest = 0;
    for (let i = 0; i < 2_000; i++) {
      const text = i % 11 === 0 ? '' : `${i}:${'ü☃🎉'.repeat(i % 40)}${'a'.repeat(i % 300)}`;
      const start = arena.end;
      held.push([start, arena.append(text), text]);
      // Keep the latest 50: the front is released as a ring's oldest entries leave.
      if (held.length > 50) {
        const [oldStart, oldBytes] = held.shift() as [number, number, string];
        arena.release(oldStart + oldBytes);
      }
      for (const [s, b, t] of held.slice(-3)) expect(arena.read(s, b)).toBe(t);
      peak = Math.max(peak, arena.held);
      longest = Math.max(longest, text.length);
    }
    for (const [s, b, t] of held) expect(arena.read(s, b)).toBe(t);
    const bytesHeld = held.reduce((sum, [, b]) => sum + b, 0);
    expect(arena.held).toBe(bytesHeld);
    // The buffer stays under twice the most it held (with the room one append asks for: three bytes
    // a character), never near what was ever written.
    expect(arena.allocated).toBeLessThan(2 * (peak + 3 * longest));
    expect(arena.end).toBeGreaterThan(10 * arena.allocated);
    expect(() => arena.read(0, 10)).toThrow(RangeError);
  });

  it('reads back each record as it was recorded, also once the ring has wrapped and grown', () => {
    const journal = new RequestJournal(300);
    for (let i = 1; i <= 1_000; i++) journal.record(recordOf(i));
    const records = journal.records();
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 300 }, (_, k) => 701 + k));
    for (const record of records) {
      const i = record.seq;
      const expected = recordOf(i);
      const { principal, ...rest } = expected;
      // Kept as scrubbed when recorded: a bearer that is no API token is only the marker.
      const headers = (rest.headers as string[]).map((value) =>
        value === `Bearer t${i}` ? 'redacted' : value,
      );
      expect(record).toEqual({
        ...rest,
        headers,
        seq: i,
        chars: (expected.requestBody?.length ?? 0) + (expected.responseBody?.length ?? 0),
        principal: { kind: principal?.kind, clientid: principal?.clientid },
      });
    }
    expect(journal.get('req_700')).toBeUndefined();
    expect(journal.get('req_1000')?.request.headers).toEqual({
      host: 'sandbox.test',
      authorization: 'client-1000',
      'x-note': 'naïve ☃ 1000',
      'x-empty': '',
    });
  });

  it('keeps the headers of a request made in process (a Headers object)', () => {
    const journal = new RequestJournal(5);
    const headers = new Headers({ 'content-type': 'application/json', 'x-chift-client-requestid': 'r-1' });
    journal.record(recordOf(1, { headers, principal: null }));
    journal.record(recordOf(2, { headers: null }));
    const [second, first] = journal.list();
    expect(first?.request.headers).toEqual({
      'content-type': 'application/json',
      'x-chift-client-requestid': 'r-1',
    });
    expect(first?.client_request_id).toBe('r-1');
    expect(second?.request.headers).toEqual({});
  });

  it('holds bytes for the requests it keeps, not for every request it saw', () => {
    const journal = new RequestJournal(100);
    const big = 'z'.repeat(4_000);
    for (let i = 1; i <= 200; i++) journal.record(recordOf(i, { responseBody: big }));
    const after200 = journal.footprint();
    for (let i = 201; i <= 5_000; i++) journal.record(recordOf(i, { responseBody: big }));
    const after5000 = journal.footprint();
    expect(after5000.requests).toBe(100);
    expect(after5000.bytes).toBeGreaterThan(100 * 4_000);
    expect(after5000.bytes).toBeLessThan(100 * 5_000);
    expect(after5000.allocatedBytes).toBeLessThanOrEqual(2 * after200.allocatedBytes);
    journal.clear();
    expect(journal.footprint()).toEqual({ requests: 0, bytes: 0, allocatedBytes: 0 });
    journal.record(recordOf(5_001));
    expect(journal.list().map((entry) => entry.id)).toEqual(['req_5001']);
  });

  it('drops the oldest bodies past its budget, and the bytes they held', () => {
    const journal = new RequestJournal(50, { bodyBudget: 10_000 });
    for (let i = 1; i <= 50; i++)
      journal.record(recordOf(i, { requestBody: null, responseBody: 'b'.repeat(1_000) }));
    const entries = journal.list();
    const kept = entries.filter((entry) => entry.response.body !== null);
    expect(kept.map((entry) => entry.id)).toEqual(Array.from({ length: 10 }, (_, k) => `req_${50 - k}`));
    expect(
      entries.filter((entry) => entry.response.body === null).every((entry) => entry.response.truncated),
    ).toBe(true);
    expect(journal.footprint().bytes).toBeLessThan(10_000 + 50 * 400);
  });

  it('decodes the records of the page it answers, and a filter on numbers decodes none of the others', async () => {
    const journal = new RequestJournal(1_000);
    for (let i = 1; i <= 1_000; i++) journal.record(recordOf(i, { status: i % 10 === 0 ? 404 : 200 }));
    const reads = vi.spyOn(ByteArena.prototype, 'read');
    try {
      // Each record of a page: its texts, its request body when it has one, its answer.
      const page = journal.page({}, 2, 50);
      expect(page.items.map((entry) => entry.id)[0]).toBe('req_950');
      expect(page.total).toBe(1_000);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(50 * 3);
      reads.mockClear();
      const errors = await journal.pageInSlices({ status: '4xx', method: 'get' }, 1, 20);
      expect(errors.total).toBe(67);
      expect(errors.items.every((entry) => entry.status === 404 && entry.method === 'GET')).toBe(true);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(20 * 3);
      // A path pattern reads the texts of every record, and the bodies of the page only.
      reads.mockClear();
      const one = journal.page({ path: '/consumers/c-500/*' }, 1, 10);
      expect(one.items.map((entry) => entry.id)).toEqual(['req_500']);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(1_000 + 3);
    } finally {
      reads.mockRestore();
    }
  });

  it('decodes a whole journal for the report in turns, other work running between them', async () => {
    const journal = new RequestJournal(30_000);
    for (let i = 1; i <= 30_000; i++) journal.record(recordOf(i));
    let turns = 0;
    let waiting = true;
    const tick = () => {
      turns += 1;
      if (waiting) setImmediate(tick);
    };
    setImmediate(tick);
    const records = await journal.recordsInSlices();
    waiting = false;
    expect(records.map((record) => record.seq)).toEqual(journal.records().map((record) => record.seq));
    expect(records).toHaveLength(30_000);
    expect(turns).toBeGreaterThan(1);
  });
});
