import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { z } from '@hono/zod-openapi';
import { type FileLineError, jsonOfLine, lineIssue } from '../lib/file-lines.js';
import { openOwnSync, UnsafeFileError } from '../lib/file-writer.js';
import { StoreFileError } from './file-errors.js';
import { addOverlayOp, entriesOf, newEntry, type OverlayOp, type Registry } from './generated.js';
import { applyOp } from './unit-of-work.js';

/**
 * Reading a world file back: its snapshot (line by line, each line parsed with its schema) and the
 * journals written after it. A file that is not what these schemas say is refused with one line
 * naming the file, the line and the field, and left untouched.
 */

/** The head line of a world file: what it is, and the world's meta block and collections. */
export const WORLD_FORMAT = 'unified-api-sandbox world';
export const WORLD_VERSION = 2;

/** What a world file holds once read: the world, and its generated datasets as how to build them. */
export interface WorldRead<T> {
  world: T;
  registry: Registry;
  /** Read from a file of the first format (one JSON object), to be written again in this one. */
  migrated: boolean;
}

const Meta = z.record(z.string(), z.unknown());
const Path = z.array(z.string());

const HeadLine = z.object({
  format: z.literal(WORLD_FORMAT),
  version: z.number(),
  meta: Meta,
  collections: z.array(z.string()),
});
const EndLine = z.object({ end: z.literal(true), records: z.number().int() });
const RecordLine = z.object({ c: z.string(), k: z.string(), v: z.unknown() });
/** A generated dataset: its arguments, and each change (`p` a path inside it, `v` the value; none: removed). */
const DatasetLine = z.object({
  c: z.string(),
  k: z.string(),
  a: z.unknown().optional(),
  o: z.array(z.object({ p: Path, v: z.unknown().optional() })).optional(),
});

/** One journal line: the write's changes, the datasets built before them, the meta block after it. */
const JournalLine = z.object({
  seq: z.number().int(),
  meta: Meta,
  ops: z.array(z.object({ p: Path, v: z.unknown().optional() })).optional(),
  mk: z.array(z.object({ c: z.string(), k: z.string(), a: z.unknown() })).optional(),
  /** Lines of the first journal format: whole records set and removed, by collection. */
  set: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  del: z.record(z.string(), z.array(z.string())).optional(),
});

const untouched = (file: string, why: string) =>
  new StoreFileError(`${file} is not a valid sandbox world (${why}); it was left untouched`);

/** A refused line as one line of text: the file, the line and the field, and why. */
const refusedLine = (error: FileLineError) =>
  new StoreFileError(
    `${error.file} is not a valid sandbox world: line ${error.line}${error.field ? `, field ${error.field}` : ''}: ${error.why}; it was left untouched`,
  );

/** A line checked with `schema`, or the StoreFileError that names the file, line and field. */
function checked<S extends z.ZodType>(schema: S, value: unknown, file: string, line: number): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refusedLine(lineIssue(parsed.error, file, line));
  return parsed.data;
}

/** The JSON of a line, or the StoreFileError saying which line is not JSON. */
function jsonOrRefuse(text: string, file: string, line: number): unknown {
  try {
    return jsonOfLine(text, file, line);
  } catch (error) {
    throw refusedLine(error as FileLineError);
  }
}

const overlayOf = (op: { p: string[]; v?: unknown }): OverlayOp =>
  'v' in op ? { p: op.p, j: JSON.stringify(op.v) } : { p: op.p };

/** Stores a value as an own, ordinary property, whatever its key (`__proto__` included). */
function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** The lines of a file, numbered from 1, read as a stream (never as one string). */
async function* numberedLines(input: NodeJS.ReadableStream): AsyncGenerator<[number, string]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number += 1;
      yield [number, text];
    }
  } finally {
    lines.close();
  }
}

/** A snapshot of this format: a head line, then one line per record or generated dataset. */
export async function readSnapshot<T>(file: string, generated: ReadonlySet<string>): Promise<WorldRead<T>> {
  let world: Record<string, Record<string, unknown>> | null = null;
  const registry: Registry = new Map();
  let ended = false;
  let count = 0;
  for await (const [number, text] of numberedLines(createReadStream(file, 'utf8'))) {
    if (!text) continue;
    const line = jsonOrRefuse(text, file, number) as Record<string, unknown> | null;
    if (world === null) {
      if (line?.format !== WORLD_FORMAT) throw untouched(file, 'no head line');
      if (line.version !== WORLD_VERSION)
        throw new StoreFileError(
          `${file} was written by another version of the sandbox (world file version ${String(line.version)}); it was left untouched`,
        );
      const head = checked(HeadLine, line, file, number);
      world = { meta: head.meta };
      for (const name of head.collections) world[name] = {};
      continue;
    }
    if (line !== null && typeof line === 'object' && 'end' in line) {
      const end = checked(EndLine, line, file, number);
      if (end.records !== count) throw untouched(file, `${count} records where the file says ${end.records}`);
      ended = true;
      break;
    }
    const name = (line as { c?: unknown } | null)?.c;
    count += 1;
    if (typeof name === 'string' && generated.has(name)) {
      const dataset = checked(DatasetLine, line, file, number);
      world[dataset.c] ??= {};
      const entry = newEntry(dataset.a ?? null);
      for (const op of dataset.o ?? []) addOverlayOp(entry, overlayOf(op));
      entriesOf(registry, dataset.c).set(dataset.k, entry);
    } else {
      const record = checked(RecordLine, line, file, number);
      world[record.c] ??= {};
      setOwnKey(world[record.c] as Record<string, unknown>, record.k, record.v);
    }
  }
  if (world === null || !ended) throw untouched(file, 'it ends before its last line');
  return { world: world as unknown as T, registry, migrated: false };
}

/**
 * A snapshot of the first format: the whole world as one JSON object, generated datasets included.
 * Its datasets are kept whole (the arguments they were built with are not in it); the file is
 * written again in this format once opened.
 */
export function readFirstFormat<T>(file: string, generated: ReadonlySet<string>): WorldRead<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new StoreFileError(
      `Cannot read ${file}: ${(error as Error).message}; a world file of the first format this large cannot be converted, start from a new --db file`,
    );
  }
  let world: T;
  try {
    world = JSON.parse(text) as T;
  } catch (error) {
    throw untouched(file, (error as Error).message);
  }
  const registry: Registry = new Map();
  const meta = (world as { meta?: unknown } | null)?.meta;
  if (world === null || typeof world !== 'object' || Array.isArray(world) || typeof meta !== 'object')
    return { world, registry, migrated: true };
  const collections = world as unknown as Record<string, Record<string, unknown>>;
  for (const name of generated) {
    const records = collections[name];
    if (records === null || typeof records !== 'object') continue;
    const entries = entriesOf(registry, name);
    for (const [key, value] of Object.entries(records)) {
      const entry = newEntry(null);
      addOverlayOp(entry, { p: [], j: JSON.stringify(value) });
      entries.set(key, entry);
    }
    collections[name] = {};
  }
  return { world, registry, migrated: true };
}

/** A change of a generated dataset, replayed: its entry's ops grow, or it goes. */
function changeGenerated(registry: Registry, collection: string, key: string, op: OverlayOp): void {
  const entries = entriesOf(registry, collection);
  if (op.p.length === 0 && op.j === undefined) {
    entries.delete(key);
    return;
  }
  let entry = entries.get(key);
  if (!entry) {
    entry = newEntry(null);
    entries.set(key, entry);
  }
  addOverlayOp(entry, op);
}

/** The world a journal replays into: its meta block with the last line the snapshot holds. */
interface Replayed {
  meta: { journal_seq?: number };
}

/**
 * Applies the lines of a journal file newer than the snapshot; gives the highest sequence number
 * read (0 for none). The journal is opened without following a link. A last line that is not JSON
 * was torn by a crash before it was acknowledged: it is ignored. Any other line that is not what
 * the schema says refuses the file.
 */
export async function replayJournal(
  world: Replayed,
  registry: Registry,
  journal: string,
  generated: ReadonlySet<string>,
): Promise<number> {
  let fd: number | null;
  try {
    fd = openOwnSync(journal);
  } catch (error) {
    if (error instanceof UnsafeFileError) throw new StoreFileError(error.message);
    throw error;
  }
  if (fd === null) return 0;
  const snapshotSeq = world.meta.journal_seq ?? 0;
  const collections = world as unknown as Record<string, Record<string, unknown>>;
  let last = 0;
  const apply = (value: unknown, number: number) => {
    const line = checked(JournalLine, value, journal, number);
    if (line.seq <= snapshotSeq) return;
    for (const made of line.mk ?? []) {
      if (!generated.has(made.c)) continue;
      const entries = entriesOf(registry, made.c);
      if (!entries.has(made.k)) entries.set(made.k, newEntry(made.a));
    }
    for (const op of line.ops ?? []) {
      const [name, key] = op.p;
      if (name !== undefined && key !== undefined && generated.has(name)) {
        changeGenerated(registry, name, key, {
          p: op.p.slice(2),
          ...('v' in op ? { j: JSON.stringify(op.v) } : {}),
        });
      } else {
        applyOp(world, op);
      }
    }
    for (const [name, records] of Object.entries(line.set ?? {})) {
      collections[name] ??= {};
      for (const [key, value] of Object.entries(records)) {
        if (generated.has(name)) changeGenerated(registry, name, key, { p: [], j: JSON.stringify(value) });
        else setOwnKey(collections[name] as Record<string, unknown>, key, value);
      }
    }
    for (const [name, ids] of Object.entries(line.del ?? {})) {
      for (const id of ids) {
        if (generated.has(name)) registry.get(name)?.delete(id);
        else delete collections[name]?.[id];
      }
    }
    Object.assign(world.meta, line.meta);
    last = Math.max(last, line.seq);
  };
  // Each line is applied once the next one is seen: only the last one may be torn.
  let pending: [number, string] | null = null;
  const stream = createReadStream('', { fd, encoding: 'utf8' });
  try {
    for await (const [number, text] of numberedLines(stream)) {
      if (!text) continue;
      if (pending) apply(jsonOrRefuse(pending[1], journal, pending[0]), pending[0]);
      pending = [number, text];
    }
  } finally {
    stream.destroy();
  }
  if (pending) {
    let value: unknown;
    try {
      value = JSON.parse(pending[1]);
    } catch {
      return last; // a torn last line: never acknowledged
    }
    apply(value, pending[0]);
  }
  return last;
}
