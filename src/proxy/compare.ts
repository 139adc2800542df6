import { refusalField } from '../lib/drift-file.js';
import { formatOf, shown, typeOf } from './schema-walk.js';

/**
 * The sandbox against the service, one exchange at a time: where the outcome does not depend on the
 * data (an authentication, validation or not-found refusal) the two answers must be the same (status,
 * message, error code); where it does, they must have the same shape (fields, types, formats of
 * strings, the pagination fields, the order of a list).
 */

type Json = Record<string, unknown>;

export type DifferenceKind = 'status' | 'error' | 'shape' | 'pagination' | 'order';

export interface Difference {
  kind: DifferenceKind;
  /** Where: `status`, `message`, `$.items[].email`... */
  at: string;
  service: string;
  sandbox: string;
}

const MAX_DEPTH = 32;
/** Items of a list whose fields are read (the shape of a page is the union of its items'). */
const MAX_ITEMS = 200;

/** What a body holds at each place: the types seen and the formats of its strings. */
interface Place {
  types: Set<string>;
  formats: Set<string>;
  /** Whether a list was seen here with an item. */
  items: boolean;
}

function shapeOf(value: unknown): Map<string, Place> {
  const places = new Map<string, Place>();
  const walk = (node: unknown, path: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    let place = places.get(path);
    if (!place) {
      place = { types: new Set(), formats: new Set(), items: false };
      places.set(path, place);
    }
    const type = typeOf(node);
    place.types.add(type === 'integer' ? 'number' : type);
    if (typeof node === 'string') {
      const format = formatOf(node);
      if (format) place.formats.add(format);
    } else if (Array.isArray(node)) {
      if (node.length > 0) place.items = true;
      for (const item of node.slice(0, MAX_ITEMS)) walk(item, `${path}[]`, depth + 1);
    } else if (node && typeof node === 'object') {
      for (const [name, field] of Object.entries(node)) walk(field, `${path}.${name}`, depth + 1);
    }
  };
  walk(value, '$', 0);
  return places;
}

const list = (values: Set<string>) => [...values].sort().join(' | ') || 'nothing';

/** Differences of shape: a field one side has and the other lacks, a type or format only one uses. */
function shapeDifferences(service: unknown, sandbox: unknown): Difference[] {
  const a = shapeOf(service);
  const b = shapeOf(sandbox);
  const out: Difference[] = [];
  // A place below a list the other side answered empty, or below a null, cannot be compared.
  const comparable = (path: string, other: Map<string, Place>) => {
    const parent = path.slice(0, Math.max(path.lastIndexOf('.'), path.lastIndexOf('[')));
    if (parent === '' || parent === path) return true;
    const above = other.get(parent);
    if (!above) return false;
    return path.endsWith('[]') ? above.items : above.types.has('object');
  };
  for (const [path, place] of a) {
    const other = b.get(path);
    if (!other) {
      if (comparable(path, b))
        out.push({ kind: 'shape', at: path, service: `present (${list(place.types)})`, sandbox: 'absent' });
      continue;
    }
    const typesA = new Set([...place.types].filter((type) => type !== 'null'));
    const typesB = new Set([...other.types].filter((type) => type !== 'null'));
    if (typesA.size > 0 && typesB.size > 0 && ![...typesA].some((type) => typesB.has(type)))
      out.push({ kind: 'shape', at: path, service: list(place.types), sandbox: list(other.types) });
    else if (
      place.formats.size > 0 &&
      other.formats.size > 0 &&
      ![...place.formats].some((f) => other.formats.has(f))
    )
      out.push({
        kind: 'shape',
        at: path,
        service: `format ${list(place.formats)}`,
        sandbox: `format ${list(other.formats)}`,
      });
  }
  for (const [path, place] of b)
    if (!a.has(path) && comparable(path, a))
      out.push({ kind: 'shape', at: path, service: 'absent', sandbox: `present (${list(place.types)})` });
  return out;
}

const PAGE_FIELDS = ['page', 'size'];

/** The pagination fields of two pages of the same request (never the totals: those are data). */
function paginationDifferences(service: Json, sandbox: Json): Difference[] {
  const out: Difference[] = [];
  for (const field of PAGE_FIELDS)
    if (Object.hasOwn(service, field) && Object.hasOwn(sandbox, field) && service[field] !== sandbox[field])
      out.push({
        kind: 'pagination',
        at: `$.${field}`,
        service: shown(service[field]),
        sandbox: shown(sandbox[field]),
      });
  return out;
}

/** The order of a list: by which field (of those both sides sort by) it runs, ascending or not. */
function orderOf(items: unknown[], field: string): 'ascending' | 'descending' | null {
  const values = items.map((item) => (item && typeof item === 'object' ? (item as Json)[field] : undefined));
  if (values.length < 3 || values.some((value) => typeof value !== 'string' && typeof value !== 'number'))
    return null;
  let up = true;
  let down = true;
  for (let i = 1; i < values.length; i += 1) {
    const before = values[i - 1] as string | number;
    const now = values[i] as string | number;
    if (now < before) up = false;
    if (now > before) down = false;
  }
  if (up === down) return null;
  return up ? 'ascending' : 'descending';
}

const ORDER_FIELDS = ['created_on', 'created_at', 'date', 'creation_date', 'invoice_date', 'updated_on'];

function orderDifferences(service: unknown[], sandbox: unknown[], at: string): Difference[] {
  for (const field of ORDER_FIELDS) {
    const a = orderOf(service, field);
    const b = orderOf(sandbox, field);
    if (a && b && a !== b) return [{ kind: 'order', at: `${at} by ${field}`, service: a, sandbox: b }];
  }
  return [];
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Whether a status is an answer whose content does not depend on the data. */
const isRefusal = (status: number) =>
  status === 401 || status === 403 || status === 404 || status === 422 || status === 400;

/** The differences between the service's answer and the sandbox's to the same request. */
export function differences(service: Answer, sandbox: Answer): Difference[] {
  if (service.status !== sandbox.status) {
    const detail = (answer: Answer) => {
      const message = (answer.body as Json | null)?.message;
      return typeof message === 'string' ? `${answer.status} ${message}` : String(answer.status);
    };
    return [{ kind: 'status', at: 'status', service: detail(service), sandbox: detail(sandbox) }];
  }
  const a = service.body;
  const b = sandbox.body;
  if (service.status >= 400) {
    if (!isRefusal(service.status) || !isObject(a) || !isObject(b)) return [];
    const out: Difference[] = [];
    for (const field of ['message', 'error_code', 'status'])
      if (refusalField(a[field]) !== refusalField(b[field]))
        out.push({
          kind: 'error',
          at: field,
          service: refusalField(a[field]),
          sandbox: refusalField(b[field]),
        });
    if (service.status === 422 && Array.isArray(a.detail) && Array.isArray(b.detail)) {
      const locs = (detail: unknown[]) =>
        detail
          .map((entry) => shown((entry as Json)?.loc))
          .sort()
          .join(', ');
      if (locs(a.detail) !== locs(b.detail))
        out.push({ kind: 'error', at: 'detail[].loc', service: locs(a.detail), sandbox: locs(b.detail) });
    }
    return out;
  }
  const out = shapeDifferences(a, b);
  if (isObject(a) && isObject(b)) {
    out.push(...paginationDifferences(a, b));
    if (Array.isArray(a.items) && Array.isArray(b.items))
      out.push(...orderDifferences(a.items, b.items, '$.items'));
  } else if (Array.isArray(a) && Array.isArray(b)) out.push(...orderDifferences(a, b, '$'));
  return out;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
