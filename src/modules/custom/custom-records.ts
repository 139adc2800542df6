import { ApiError, messages } from '../../lib/errors.js';
import { own, putOwn } from '../../lib/own.js';
import { verticalFailure } from '../../platform/vertical-connection.js';
import { cloneRecord } from '../../store/unit-of-work.js';
import type { ConnectionRecord, CustomRecordsRecord, World } from '../../store/world.js';

/**
 * What the custom routes of a connection hold. The service hands a custom route to the connector's
 * own API, which the sandbox does not simulate; instead every custom path of a connection is a
 * collection of records that clients write through those routes (or that a fixture declares):
 *
 * - a GET of a path lists its records, by pages; of `{path}/{id}`, one record;
 * - a POST to a path adds a record: it keeps the body, under the body's own `id` when it has one
 *   (a string or a whole number), else under one the sandbox gives it;
 * - a PATCH of `{path}/{id}` merges the body into the record, a DELETE removes it.
 *
 * A path is its segments joined with `/` (a doubled or trailing slash adds no segment). A GET of a
 * path that names no collection reads it as `{collection}/{id}` when the path before its last
 * segment is a collection (a 404 when that holds no such id), and as an empty collection otherwise:
 * a listing the connector would answer is never refused. A collection stays once its last record is
 * deleted, so that the ids it held answer 404 rather than an empty list.
 *
 * Paths and ids come from clients: every lookup reads own keys only (own()), and every key is set
 * as an own property (putOwn), so that `__proto__` or `constructor` is a path or an id like any.
 */

/** Records one custom path of a connection may hold. */
export const MAX_CUSTOM_RECORDS_PER_PATH = 1000;
/** Records all the custom paths of one connection may hold together. */
export const MAX_CUSTOM_RECORDS_PER_CONNECTION = 5000;
/** Custom paths one connection may hold; an empty one makes room for a new one when it runs out. */
export const MAX_CUSTOM_PATHS_PER_CONNECTION = 1000;
/** What a connection's custom records may weigh together: their JSON and their paths, in bytes. */
export const MAX_CUSTOM_BYTES_PER_CONNECTION = 8 * 1024 * 1024;

export type CustomRecordValue = Record<string, unknown>;
type Records = Record<string, CustomRecordValue>;

/** The segments of a custom path. */
export const customSegments = (path: string): string[] => path.split('/').filter(Boolean);

/** What a GET of a custom path answers: the records of a collection, or one record. */
export type CustomRead =
  | { kind: 'collection'; path: string; records: CustomRecordValue[] }
  | { kind: 'record'; record: CustomRecordValue };

const notFound = (detail: string) => new ApiError(404, messages.notFound, detail);
const full = (detail: string) => new ApiError(400, messages.customRecordsFull, detail);

const bytesOf = (value: unknown) =>
  Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value));

/** The id a body names for itself: a string that is not empty, or a whole number. */
function ownIdOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as Record<string, unknown>).id;
  if (typeof id === 'string' && id.trim() !== '') return id;
  if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return null;
}

/** A record made of a body: its fields (a body that is no object is kept as `value`) and its id. */
function recordOf(id: string | number, body: unknown): CustomRecordValue {
  if (body === undefined) return { id };
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    return { ...(cloneRecord(body) as CustomRecordValue), id };
  }
  return { id, value: cloneRecord(body) };
}

function holderOf(world: World, connection: ConnectionRecord): CustomRecordsRecord | undefined {
  // A world written before custom routes kept records has no such collection.
  return world.custom_records ? own(world.custom_records, connection.connectionid) : undefined;
}

/** The connection's holder of custom records, made on its first write. */
function holderFor(world: World, connection: ConnectionRecord): CustomRecordsRecord {
  const found = holderOf(world, connection);
  if (found) return found;
  if (!world.custom_records) world.custom_records = {};
  world.custom_records[connection.connectionid] = {
    connectionid: connection.connectionid,
    consumerid: connection.consumerid,
    collections: {},
    count: 0,
    bytes: 0,
  };
  return world.custom_records[connection.connectionid] as CustomRecordsRecord;
}

const quoted = (segments: readonly string[]) => `'${segments.join('/')}'`;

/** The collection and record a path of two segments or more names: `{collection}/{id}`. */
function recordPath(holder: CustomRecordsRecord | undefined, segments: readonly string[], method: string) {
  if (segments.length < 2) {
    throw notFound(`${method} names one record: ${quoted(segments)}/{id}, not ${quoted(segments)} alone`);
  }
  const path = segments.slice(0, -1).join('/');
  const id = segments[segments.length - 1] as string;
  const records = holder ? own(holder.collections, path) : undefined;
  const record = records ? own(records, id) : undefined;
  if (!records || !record) throw notFound(`${quoted([path])} holds no record '${id}'`);
  return { path, id, records, record };
}

/** A GET of a custom path: the collection it names, the record its last segment names, or none. */
export function readCustom(
  world: World,
  connection: ConnectionRecord,
  segments: readonly string[],
): CustomRead {
  const holder = holderOf(world, connection);
  const path = segments.join('/');
  const records = holder ? own(holder.collections, path) : undefined;
  if (records) return { kind: 'collection', path, records: Object.values(records).map(cloneRecord) };
  const parent = segments.slice(0, -1).join('/');
  if (segments.length > 1 && holder && own(holder.collections, parent)) {
    return { kind: 'record', record: cloneRecord(recordPath(holder, segments, 'GET').record) };
  }
  return { kind: 'collection', path, records: [] };
}

/**
 * The collection of `path`, made when the connection has none (a new path costs its bytes), after
 * the bounds are checked for `more` records of `bytes` more. A new path past the number of paths
 * takes the place of an empty one, if there is one.
 */
function collectionFor(holder: CustomRecordsRecord, path: string, more: number, bytes: number): Records {
  const found = own(holder.collections, path);
  const held = found ? Object.keys(found).length : 0;
  if (held + more > MAX_CUSTOM_RECORDS_PER_PATH) {
    throw full(
      `The sandbox keeps at most ${MAX_CUSTOM_RECORDS_PER_PATH} records per custom path, and '${path}' holds ${held}: delete some first`,
    );
  }
  if (holder.count + more > MAX_CUSTOM_RECORDS_PER_CONNECTION) {
    throw full(
      `The sandbox keeps at most ${MAX_CUSTOM_RECORDS_PER_CONNECTION} records over the custom paths of a connection, and this one holds ${holder.count}: delete some first`,
    );
  }
  let freed: string | undefined;
  let weight = bytes;
  if (!found) {
    weight += bytesOf(path);
    const paths = Object.keys(holder.collections);
    if (paths.length >= MAX_CUSTOM_PATHS_PER_CONNECTION) {
      freed = paths.find((p) => Object.keys(own(holder.collections, p) ?? {}).length === 0);
      if (freed === undefined) {
        throw full(
          `The sandbox keeps at most ${MAX_CUSTOM_PATHS_PER_CONNECTION} custom paths per connection, each holding records: delete the records of one first`,
        );
      }
      weight -= bytesOf(freed);
    }
  }
  if (holder.bytes + weight > MAX_CUSTOM_BYTES_PER_CONNECTION) {
    throw full(
      `The records of a connection's custom paths weigh at most ${MAX_CUSTOM_BYTES_PER_CONNECTION} bytes together (their JSON and paths), and this one would weigh ${holder.bytes + weight}: delete some first`,
    );
  }
  if (found) return found;
  if (freed !== undefined) delete holder.collections[freed];
  putOwn(holder.collections, path, {});
  holder.bytes += weight - bytes;
  return own(holder.collections, path) as Records;
}

/** Makes the collection of a path, empty, if the connection has none yet (a fixture's declaration). */
export function ensureCustomCollection(
  world: World,
  connection: ConnectionRecord,
  segments: readonly string[],
): void {
  collectionFor(holderFor(world, connection), segments.join('/'), 0, 0);
}

/** A POST to a custom path: adds the body as a record of its collection (see the module's notes). */
export function createCustomRecord(
  world: World,
  connection: ConnectionRecord,
  segments: readonly string[],
  body: unknown,
  mint: () => string,
): CustomRecordValue {
  const path = segments.join('/');
  const holder = holderFor(world, connection);
  const given = ownIdOf(body);
  const key = given === null ? null : String(given);
  const existing = own(holder.collections, path);
  if (existing && key !== null && own(existing, key)) {
    throw verticalFailure(`'${path}' already holds a record '${key}'`);
  }
  const record = recordOf(given ?? mint(), body);
  const bytes = bytesOf(record);
  const records = collectionFor(holder, path, 1, bytes);
  putOwn(records, key ?? String(record.id), record);
  holder.count += 1;
  holder.bytes += bytes;
  return cloneRecord(record);
}

/** A PATCH of `{path}/{id}`: the body's fields replace the record's (its id stays). */
export function updateCustomRecord(
  world: World,
  connection: ConnectionRecord,
  segments: readonly string[],
  body: unknown,
): CustomRecordValue {
  const holder = holderOf(world, connection);
  const { path, id, records, record } = recordPath(holder, segments, 'PATCH');
  const owner = holder as CustomRecordsRecord;
  const before = cloneRecord(record);
  const patch = recordOf(before.id as string | number, body);
  const after: CustomRecordValue =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? { ...before, ...patch, id: before.id }
      : body === undefined
        ? before
        : { ...before, value: patch.value };
  const change = bytesOf(after) - bytesOf(before);
  if (change > 0) collectionFor(owner, path, 0, change);
  putOwn(records, id, after);
  owner.bytes += change;
  return cloneRecord(after);
}

/** A DELETE of `{path}/{id}`: removes the record (its collection stays, empty or not). */
export function deleteCustomRecord(
  world: World,
  connection: ConnectionRecord,
  segments: readonly string[],
): CustomRecordValue {
  const holder = holderOf(world, connection);
  const { id, records, record } = recordPath(holder, segments, 'DELETE');
  const owner = holder as CustomRecordsRecord;
  const removed = cloneRecord(record);
  delete records[id];
  owner.count -= 1;
  owner.bytes -= bytesOf(removed);
  return removed;
}
