import { unfrozen } from './shared-datasets.js';
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
  /**
   * The changes, in the order they replay, keyed by their path (a removal by its path and REMOVED):
   * a value set again at a path takes its earlier place. Read them with `opsOf`.
   */
  ops: Map<string, OverlayOp>;
  /** Bytes of the ops (their paths and values as JSON): what clients wrote into the dataset. */
  bytes: number;
  /** Bytes of the ops strictly below each path (by key): what a change at that path replaces. */
  below: Map<string, number>;
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

/** A dataset in use, with no change yet. */
export const newEntry = (args: unknown): GeneratedEntry => ({
  args,
  ops: new Map(),
  bytes: 0,
  below: new Map(),
});

/** The changes of an entry, in the order they replay. */
export const opsOf = (entry: GeneratedEntry): OverlayOp[] => [...entry.ops.values()];

export const opBytes = (op: OverlayOp): number => JSON.stringify(op.p).length + (op.j?.length ?? 0) + 8;

const keyOf = (path: Path): string => JSON.stringify(path);
/** Marks the key of a removal: a path may hold a removal and, after it, a value set again. */
const REMOVED = '\u0000-';

/**
 * How many bytes `op` would add to an entry (less what it replaces), without changing it: what the
 * world's bound is checked against before a write is kept.
 */
export function overlayDelta(entry: GeneratedEntry | undefined, op: OverlayOp): number {
  if (!entry) return opBytes(op);
  const key = keyOf(op.p);
  let replaced = entry.below.get(key) ?? 0;
  const set = entry.ops.get(key);
  if (op.j === undefined) {
    const removed = entry.ops.get(key + REMOVED);
    replaced += (set ? opBytes(set) : 0) + (removed ? opBytes(removed) : 0);
  } else if (set) {
    replaced += opBytes(set);
  }
  return opBytes(op) - replaced;
}

/**
 * Adds a write's change to a dataset's changes, keeping them short and their replay exact:
 * - a change at a path replaces the changes below it (they are part of its value);
 * - a value set again at a path replaces the earlier value where it stands, so that keys added to an
 *   object keep their place, unless a removal of that path came before it (the key was removed, then
 *   added again: it stands last, as in memory);
 * - a removal replaces every earlier change at or below its path, and stands last.
 * Each step costs the length of the path, but for a change at a path with changes below it.
 */
export function addOverlayOp(entry: GeneratedEntry, op: OverlayOp): void {
  const key = keyOf(op.p);
  if ((entry.below.get(key) ?? 0) > 0) {
    for (const [other, existing] of [...entry.ops]) {
      if (existing.p.length > op.p.length && isUnder(existing.p, op.p)) drop(entry, other, existing);
    }
  }
  if (op.j === undefined) {
    for (const exact of [key, key + REMOVED]) {
      const existing = entry.ops.get(exact);
      if (existing) drop(entry, exact, existing);
    }
    put(entry, key + REMOVED, op);
    return;
  }
  const existing = entry.ops.get(key);
  if (existing) drop(entry, key, existing, true);
  put(entry, key, op);
}

/** Removes an op (or, `inPlace`, only its bytes: a new value takes its place in the map). */
function drop(entry: GeneratedEntry, key: string, op: OverlayOp, inPlace = false): void {
  if (!inPlace) entry.ops.delete(key);
  weigh(entry, op, -opBytes(op));
}

function put(entry: GeneratedEntry, key: string, op: OverlayOp): void {
  entry.ops.set(key, op);
  weigh(entry, op, opBytes(op));
}

/** Whether `path` is `prefix` or below it. */
function isUnder(path: Path, prefix: Path): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

function weigh(entry: GeneratedEntry, op: OverlayOp, bytes: number): void {
  entry.bytes += bytes;
  for (let depth = 0; depth < op.p.length; depth++) {
    const prefix = keyOf(op.p.slice(0, depth));
    const total = (entry.below.get(prefix) ?? 0) + bytes;
    if (total === 0) entry.below.delete(prefix);
    else entry.below.set(prefix, total);
  }
}

/**
 * The dataset an entry stands for: `base` (what its builder made from its args, or undefined) with
 * its ops applied. Each value is parsed afresh: the result shares nothing with the entry. A frozen
 * base (shared) is left as it is: the objects the ops change are copies.
 */
export function applyOverlay(base: object | undefined, ops: readonly OverlayOp[]): object | undefined {
  let value = base;
  for (const op of ops) {
    if (op.p.length === 0) {
      value = op.j === undefined ? undefined : (JSON.parse(op.j) as object);
      continue;
    }
    if (value === undefined) value = {};
    // A dataset shared with other stores is frozen: the changes go to copies of the objects on their
    // paths (applyOp copies those below the root).
    else if (Object.isFrozen(value)) value = unfrozen(value);
    // A change inside a record the base no longer holds (a living dataset built for an earlier day,
    // before the record's day) waits for the record: it is applied again whenever the record is there.
    if (!parentHeld(value, op.p)) continue;
    applyOp(value, op.j === undefined ? { p: op.p } : { p: op.p, v: JSON.parse(op.j) });
  }
  return value;
}

/** Whether every object above the last key of `path` is there. */
function parentHeld(root: object, path: readonly string[]): boolean {
  let node: unknown = root;
  for (let i = 0; i < path.length - 1; i++) {
    if (node === null || typeof node !== 'object') return false;
    const key = path[i] as string;
    if (!Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === 'object';
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
