import { applyOp, type Path } from './unit-of-work.js';

/**
 * What the world keeps of a dataset generated from the seed (a connection's vertical data, a folder's
 * ledger): how to build it again, and what writes changed in it. Never its generated content.
 *
 * - `args`: what the builder is handed besides the seed (null for a dataset whose content came whole
 *   from elsewhere: a world file of the first format, a world handed over with its data).
 * - `ops`: the changes writes made, in order, relative to the dataset: the JSON of the value now at a
 *   path, or the path's removal. An empty path sets (or removes) the whole dataset.
 *
 * Building it again is `build(args)` followed by the ops: the same bytes as the dataset that stayed
 * in memory, so a cache may drop a dataset at any time.
 */
export interface GeneratedEntry {
  args: unknown;
  ops: OverlayOp[];
  /** Bytes of the ops (their paths and values as JSON): what clients wrote into the dataset. */
  bytes: number;
  /** Changes with every write to the dataset, never the same twice in a process (not stored). */
  rev?: number;
}

/** One change of a dataset: its path below the dataset, and the JSON of its value (none: removed). */
export interface OverlayOp {
  p: Path;
  j?: string;
}

/** What the world keeps of each generated dataset in use, by collection and key. */
export type Registry = Map<string, Map<string, GeneratedEntry>>;

/** The entries of a collection in a registry, made when it has none yet. */
export function entriesOf(registry: Registry, collection: string): Map<string, GeneratedEntry> {
  let entries = registry.get(collection);
  if (!entries) {
    entries = new Map();
    registry.set(collection, entries);
  }
  return entries;
}

export const opBytes = (op: OverlayOp): number => JSON.stringify(op.p).length + (op.j?.length ?? 0) + 8;

/**
 * Adds a write's change to a dataset's ops, keeping them short and their replay exact:
 * - a change at a path replaces the changes below it (they are part of its value);
 * - a value set again at a path replaces the earlier value where it stands, so that keys added to an
 *   object keep their place, unless a removal of that path came before it (the key was removed, then
 *   added again: it stands last, as in memory);
 * - a removal replaces every earlier change at or below its path.
 */
export function addOverlayOp(entry: GeneratedEntry, op: OverlayOp): void {
  const ops: OverlayOp[] = [];
  let lastExact = -1;
  for (const existing of entry.ops) {
    if (isUnder(existing.p, op.p)) {
      if (existing.p.length > op.p.length || op.j === undefined) continue;
      lastExact = ops.length;
    }
    ops.push(existing);
  }
  if (op.j !== undefined && lastExact >= 0 && (ops[lastExact] as OverlayOp).j !== undefined)
    ops[lastExact] = op;
  else ops.push(op);
  entry.ops = ops;
  entry.bytes = ops.reduce((sum, o) => sum + opBytes(o), 0);
}

/** Whether `path` is `prefix` or below it. */
function isUnder(path: Path, prefix: Path): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

/**
 * The dataset an entry stands for: `base` (what its builder made from its args, or undefined) with
 * its ops applied. Each value is parsed afresh: the result shares nothing with the entry.
 */
export function applyOverlay(base: object | undefined, ops: readonly OverlayOp[]): object | undefined {
  let value = base;
  for (const op of ops) {
    if (op.p.length === 0) {
      value = op.j === undefined ? undefined : (JSON.parse(op.j) as object);
      continue;
    }
    if (value === undefined) value = {};
    applyOp(value, op.j === undefined ? { p: op.p } : { p: op.p, v: JSON.parse(op.j) });
  }
  return value;
}

type Bag = Record<string, unknown>;
const isPlainObject = (value: unknown): value is Bag =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The ops that turn `base` into `current` (both plain JSON data), for a dataset handed over whole:
 * keys removed, values changed and keys added, by path; an object whose keys no longer stand in the
 * order the ops would give them is set whole.
 */
export function diffOverlay(base: unknown, current: unknown, path: string[] = []): OverlayOp[] {
  if (base === current) return [];
  if (isPlainObject(base) && isPlainObject(current)) {
    const out: OverlayOp[] = [];
    const order: string[] = [];
    for (const key of Object.keys(base)) {
      if (Object.hasOwn(current, key)) order.push(key);
      else out.push({ p: [...path, key] });
    }
    for (const key of Object.keys(current)) {
      if (Object.hasOwn(base, key)) out.push(...diffOverlay(base[key], current[key], [...path, key]));
      else {
        order.push(key);
        out.push({ p: [...path, key], j: JSON.stringify(current[key]) });
      }
    }
    const keys = Object.keys(current);
    if (keys.length !== order.length || keys.some((key, i) => key !== order[i])) {
      return [{ p: path, j: JSON.stringify(current) }];
    }
    return out;
  }
  const after = JSON.stringify(current);
  if (after === JSON.stringify(base)) return [];
  return after === undefined ? [{ p: path }] : [{ p: path, j: after }];
}
