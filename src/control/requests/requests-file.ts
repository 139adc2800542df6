import { readFile } from 'node:fs/promises';
import { z } from '@hono/zod-openapi';
import { FileLineError, parseLine } from '../../lib/file-lines.js';
import { writeFileAtomic } from '../../lib/file-writer.js';
import type { Scrubber } from '../../platform/scrub.js';
import type { RequestJournal } from './journal.js';
import { type ControlCallNote, type JournalCaller, type JournalRecord, scrubRecord } from './records.js';

/**
 * The requests file: the journal kept beside a world file when the sandbox stops
 * (`world.json.requests.jsonl`), which `unified-api-sandbox report --db` reads back. What it holds
 * went through the scrubber when it was recorded (an API token is its unsigned claims, no other
 * credential is left); read back, it is input like any other: each line is parsed with its schema,
 * and scrubbed again.
 */

/** The suffix of the requests file beside a world file. */
export const REQUESTS_FILE_SUFFIX = '.requests.jsonl';
const REQUESTS_FILE_FORMAT = 'unified-api-sandbox requests';

/** The requests file of the world file `db`. */
export const requestsFileOf = (db: string): string => `${db}${REQUESTS_FILE_SUFFIX}`;

const ControlCallSchema = z.object({
  at: z.number(),
  method: z.string(),
  path: z.string(),
  client: z.string(),
});

/** The first line: what the file is, and the control endpoints called with an API token. */
const HeadLineSchema = z.object({
  format: z.literal(REQUESTS_FILE_FORMAT),
  version: z.literal(1),
  control_calls: z.array(ControlCallSchema).optional(),
});

/** One request a line: the facts of the wire shape and what the readiness report reads. */
const RequestLineSchema = z.object({
  seq: z.number().int().positive(),
  at: z.number(),
  method: z.string(),
  path: z.string(),
  url: z.string(),
  headers: z.array(z.string()).refine((list) => list.length % 2 === 0, 'expected names and values, in pairs'),
  client: z.string().nullable(),
  consumerId: z.string().nullable(),
  connectionId: z.string().nullable(),
  requestBody: z.string().nullable(),
  requestTruncated: z.boolean(),
  status: z.number().int(),
  responseBody: z.string().nullable(),
  responseTruncated: z.boolean(),
  durationMs: z.number(),
  fault: z.string().nullable(),
  redacted: z.boolean(),
  page: z.object({ total: z.number(), page: z.number(), size: z.number() }).nullable(),
});

type RequestLine = z.infer<typeof RequestLineSchema>;

function toRequestLine(record: JournalRecord): RequestLine {
  return {
    seq: record.seq,
    at: record.at,
    method: record.method,
    path: record.path,
    url: record.url,
    headers: Array.isArray(record.headers) ? record.headers : [],
    client: record.principal?.clientid ?? null,
    consumerId: record.consumerId,
    connectionId: record.connectionId,
    requestBody: record.requestBody,
    requestTruncated: record.requestTruncated,
    status: record.status,
    responseBody: record.responseBody,
    responseTruncated: record.responseTruncated,
    durationMs: record.durationMs,
    fault: record.fault,
    redacted: record.redacted === true,
    page: record.page ?? null,
  };
}

function fromRequestLine(line: RequestLine): JournalRecord {
  const principal: JournalCaller | null = line.client ? { kind: 'api', clientid: line.client } : null;
  const { client: _client, ...facts } = line;
  return { ...facts, chars: 0, principal };
}

/** The journal's records and control calls as the lines of a requests file (a head line first). */
export function requestFileLines(journal: RequestJournal): string[] {
  const head = { format: REQUESTS_FILE_FORMAT, version: 1, control_calls: journal.controlCalls() };
  return [JSON.stringify(head), ...journal.records().map((record) => JSON.stringify(toRequestLine(record)))];
}

/** Writes the requests file of `db` whole or not at all, through the one writer (lib/file-writer.ts). */
export async function writeRequestsFile(db: string, journal: RequestJournal): Promise<void> {
  await writeFileAtomic(requestsFileOf(db), `${requestFileLines(journal).join('\n')}\n`);
}

/** What a requests file holds. */
export interface RequestsFileContent {
  records: JournalRecord[];
  controlCalls: ControlCallNote[];
}

/**
 * Reads the text of a requests file named `file`: each line checked with its schema, each record
 * scrubbed again. Throws a FileLineError naming the line and the field of the first line refused.
 */
export function parseRequestFile(text: string, file: string, scrubber: Scrubber): RequestsFileContent {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.length > 0);
  if (first === -1) throw new FileLineError(file, 1, '', 'empty: not a requests file of the sandbox');
  const head = parseLine(HeadLineSchema, lines[first] as string, file, first + 1);
  const records: JournalRecord[] = [];
  for (let index = first + 1; index < lines.length; index += 1) {
    const text = lines[index] as string;
    if (text.length === 0) continue;
    const record = fromRequestLine(parseLine(RequestLineSchema, text, file, index + 1));
    scrubRecord(scrubber, record);
    records.push(record);
  }
  const controlCalls = (head.control_calls ?? []).map((call) => ({
    ...call,
    path: scrubber.path(call.path),
  }));
  return { records, controlCalls };
}

/** Reads and parses the requests file of the world file `db` (see parseRequestFile). */
export async function readRequestsFile(db: string, scrubber: Scrubber): Promise<RequestsFileContent> {
  const file = requestsFileOf(db);
  return parseRequestFile(await readFile(file, 'utf8'), file, scrubber);
}
