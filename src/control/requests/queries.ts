import { compilePathPattern } from '../../lib/path-pattern.js';
import type { JournalRecord, RequestFilter } from './records.js';
import { AT, METHOD, METHODS, STATUS } from './rows.js';

/**
 * A filter of the journal, compiled in two parts: what a record's row of numbers answers (method,
 * status, time), tested first, and what only its texts answer (path, consumer, an unusual method).
 */

const STATUS_CLASS = /^[1-5]xx$/i;

/**
 * The part of a filter a record's texts answer, once its row has passed the rest (compileRowFilter):
 * the path pattern, the consumer, and a method outside METHODS.
 */
export function compileTextFilter(filter: RequestFilter): (record: JournalRecord) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : compilePathPattern(filter.path);
  const consumer = filter.consumer_id?.toLowerCase();
  return (record) =>
    (method === undefined || record.method === method) &&
    (consumer === undefined || record.consumerId === consumer) &&
    (path === undefined || path(record.path));
}

/**
 * The part of a filter a record's row answers: false when its numbers fail it, true when they pass
 * it, undefined when its method must be read from its texts (one outside METHODS).
 */
export function compileRowFilter(
  filter: RequestFilter,
): (rows: Float64Array, row: number) => boolean | undefined {
  const method = filter.method?.toUpperCase();
  const methodCode = method === undefined ? 0 : METHODS.indexOf(method) + 1;
  const status = filter.status === undefined ? undefined : String(filter.status);
  const statusClass = status !== undefined && STATUS_CLASS.test(status) ? Number(status[0]) : undefined;
  const exactStatus = status !== undefined && statusClass === undefined ? Number(status) : undefined;
  const since = filter.since === undefined ? undefined : new Date(filter.since).getTime();
  const until = filter.until === undefined ? undefined : new Date(filter.until).getTime();
  return (rows, row) => {
    const code = rows[row + METHOD] as number;
    const recordStatus = rows[row + STATUS] as number;
    const at = rows[row + AT] as number;
    if (exactStatus !== undefined && recordStatus !== exactStatus) return false;
    if (statusClass !== undefined && Math.floor(recordStatus / 100) !== statusClass) return false;
    if (since !== undefined && !(at >= since)) return false;
    if (until !== undefined && !(at <= until)) return false;
    if (method === undefined) return true;
    // A method of METHODS is known from its code; another one (or a filter on one) from the texts.
    if (code !== 0 && methodCode !== 0) return code === methodCode;
    if (code !== 0 || methodCode !== 0) return false;
    return undefined;
  };
}
