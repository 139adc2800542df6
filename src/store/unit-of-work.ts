/**
 * One unit of work: what a single write (a request, a background task) changes in the world.
 *
 * The code of a write sees the world through a tracking view: every property set or deleted under
 * it is recorded twice, once as an undo step (so a refused write leaves memory as it was) and once
 * as a dirty path (so a committed write journals exactly what it changed, not the records around
 * it). Paths inside an array are widened to the outermost array: arrays in the world are small
 * (lines of a document, book years), and a whole array replays without index bookkeeping.
 *
 * Reads cost one proxy per object reached; nothing is copied. Values stored through the view are
 * unwrapped, so the world itself never holds a proxy.
 */

import { unfrozen } from './shared-datasets.js';

export type Path = readonly string[];

/** One change of a journal line: the value now at a path, or its removal (no `v`). */
export interface PathOp {
  p: Path;
  v?: unknown;
}

/** Property of a tracked object that answers the object behind it (indexes key on that). */
export const RAW = Symbol('raw');

/**
 * Where a tracked object sits: its parent and key (the path is built only when a change is
 * recorded, not on every read), its view, and the outermost array around it, if any.
 */
interface Place {
  parent: Place | null;
  key: string;
  proxy: object;
  /** The outermost array around this object (or the object itself, when it is an array). */
  anchor: Place | null;
}

function pathOf(place: Place): string[] {
  const path: string[] = [];
  for (let at: Place | null = place; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

interface UndoStep {
  target: Record<string, unknown>;
  key: string;
  had: boolean;
  old: unknown;
}

const MISSING = Symbol('missing');
type Bag = Record<string, unknown>;

export class UnitOfWork<W extends object> {
  /** The world this unit changes: a reset that replaces it makes the unit moot. */
  readonly base: W;
  /** The tracking view of `base`. */
  readonly view: W;
  #active = true;
  readonly #undo: UndoStep[] = [];
  readonly #dirty = new Map<string, Path>();
  /** Key order of the objects a key was removed from, as it was before (a rollback restores it). */
  readonly #orders = new Map<Bag, string[]>();
  readonly #places = new WeakMap<object, Place>();
  readonly #targets = new WeakMap<object, object>();
  readonly #handler: ProxyHandler<Bag>;
  /** Told of each record (collection and key) the unit changes, before its first change. */
  readonly #onTouch: ((collection: string, key: string) => void) | undefined;
  readonly #touched = new Set<string>();

  constructor(base: W, onTouch?: (collection: string, key: string) => void) {
    this.base = base;
    this.#onTouch = onTouch;
    const unit = this;
    this.#handler = {
      get(target, key) {
        if (key === RAW) return target;
        // A key of the world is data: `__proto__` reads its own value, never the prototype; an
        // object kept there is tracked like any other, so that writes under it are journaled too.
        if (key === '__proto__' && !Object.hasOwn(target, key)) return undefined;
        let value = Reflect.get(target, key);
        if (!unit.#active || typeof key !== 'string' || value === null || typeof value !== 'object') {
          return value;
        }
        if (!Object.hasOwn(target, key)) return value;
        // An object of a dataset shared with other worlds is frozen: the write gets a copy of its own,
        // put in its place unrecorded (the same content: nothing to journal, nothing to undo).
        if (Object.isFrozen(value)) {
          value = unfrozen(value);
          setOwn(target, key, value);
        }
        return unit.#wrap(value, unit.#places.get(target) as Place, key);
      },
      set(target, key, value) {
        const stored = unit.#unwrap(value);
        if (unit.#active && typeof key === 'string') unit.#record(target, key);
        if (key === '__proto__') return setOwn(target, key, stored);
        return Reflect.set(target, key, stored);
      },
      deleteProperty(target, key) {
        if (unit.#active && typeof key === 'string' && Object.hasOwn(target, key)) {
          if (!Array.isArray(target) && !unit.#orders.has(target))
            unit.#orders.set(target, Object.keys(target));
          unit.#record(target, key);
        }
        return Reflect.deleteProperty(target, key);
      },
      defineProperty(target, key, descriptor) {
        if (unit.#active && typeof key === 'string') unit.#record(target, key);
        const value = 'value' in descriptor ? unit.#unwrap(descriptor.value) : undefined;
        return Reflect.defineProperty(
          target,
          key,
          'value' in descriptor ? { ...descriptor, value } : descriptor,
        );
      },
    };
    this.view = this.#wrap(base, null, '') as W;
  }

  get active(): boolean {
    return this.#active;
  }

  /** Whether anything was changed through the view. */
  get changed(): boolean {
    return this.#undo.length > 0;
  }

  #wrap(target: object, parent: Place | null, key: string): object {
    const known = this.#places.get(target);
    if (known) return known.proxy;
    const proxy = new Proxy(target as Bag, this.#handler);
    const place: Place = { parent, key, proxy, anchor: parent?.anchor ?? null };
    if (!place.anchor && Array.isArray(target)) place.anchor = place;
    this.#places.set(target, place);
    this.#targets.set(proxy, target);
    return proxy;
  }

  #record(target: Bag, key: string): void {
    this.#undo.push({ target, key, had: Object.hasOwn(target, key), old: target[key] });
    const place = this.#places.get(target) as Place;
    const path = place.anchor ? pathOf(place.anchor) : [...pathOf(place), key];
    const id = path.join('\u0000');
    if (!this.#dirty.has(id)) this.#dirty.set(id, path);
    if (this.#onTouch && path.length >= 2) {
      const record = `${path[0]}\u0000${path[1]}`;
      if (!this.#touched.has(record)) {
        this.#touched.add(record);
        this.#onTouch(path[0] as string, path[1] as string);
      }
    }
  }

  /** The value to store: a view becomes its object, and views nested in a new value too. */
  #unwrap(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    const direct = this.#targets.get(value);
    if (direct) return direct;
    const stack: Bag[] = [value as Bag];
    const seen = new Set<object>();
    while (stack.length > 0) {
      const node = stack.pop() as Bag;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const key of Object.keys(node)) {
        const child = node[key];
        if (child === null || typeof child !== 'object') continue;
        const target = this.#targets.get(child);
        if (target) node[key] = target;
        else stack.push(child as Bag);
      }
    }
    return value;
  }

  /** Ends the unit: the view stops recording and reads through to the world. */
  finish(): void {
    this.#active = false;
  }

  /** Undoes every change made through the view, newest first, and ends the unit. */
  rollback(): void {
    this.#active = false;
    for (let i = this.#undo.length - 1; i >= 0; i--) {
      const step = this.#undo[i] as UndoStep;
      if (step.had) setOwn(step.target, step.key, step.old);
      else delete step.target[step.key];
    }
    this.#undo.length = 0;
    this.#dirty.clear();
    // A key put back lands last: lists follow insertion order, so restore the order it had.
    for (const [target, order] of this.#orders) {
      const values = order.map((key) => target[key]);
      for (const key of order) delete target[key];
      order.forEach((key, i) => {
        setOwn(target, key, values[i]);
      });
    }
    this.#orders.clear();
  }

  /**
   * What the unit changed, as path operations on the world: the current value at each outermost
   * dirty path, or its removal, in the order the paths were first changed (keys added to an object
   * are replayed in the order they were added). A path under another dirty path is covered by it.
   */
  ops(): PathOp[] {
    const sorted = [...this.#dirty.entries()].sort((a, b) => comparePaths(a[1], b[1]));
    const covered = new Set<string>();
    let kept: Path | null = null;
    for (const [id, path] of sorted) {
      if (kept && isPrefix(kept, path)) covered.add(id);
      else kept = path;
    }
    const out: PathOp[] = [];
    for (const [id, path] of this.#dirty) {
      if (covered.has(id)) continue;
      const value = valueAt(this.base, path);
      out.push(value === MISSING ? { p: path } : { p: path, v: value });
    }
    return out;
  }
}

/** Stores a value as an own, ordinary property, whatever its key (`__proto__` included). */
function setOwn(target: Bag, key: string, value: unknown): true {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
  return true;
}

function comparePaths(a: Path, b: Path): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function isPrefix(prefix: Path, path: Path): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

function valueAt(root: object, path: Path): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return MISSING;
    node = (node as Bag)[key];
  }
  return node;
}

/** Applies a path operation (a journal line's change) to a plain world. */
export function applyOp(root: object, op: PathOp): void {
  if (op.p.length === 0) return;
  let node = root as Bag;
  for (let i = 0; i < op.p.length - 1; i++) {
    const key = op.p[i] as string;
    let next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === null || typeof next !== 'object') {
      if (!('v' in op)) return; // removing under something that is not there: nothing to do
      next = {};
      setOwn(node, key, next);
    } else if (Object.isFrozen(next)) {
      next = unfrozen(next); // an object of a shared dataset: changed in a copy of its own
      setOwn(node, key, next);
    }
    node = next as Bag;
  }
  const last = op.p[op.p.length - 1] as string;
  if ('v' in op) setOwn(node, last, op.v);
  else delete node[last];
}

/** The plain object behind a tracked view (or the value itself when it is not one). */
export function rawOf<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  return ((value as Record<symbol, unknown>)[RAW] as T | undefined) ?? value;
}

/**
 * A deep copy of a record, whether it (or anything in it) was reached through a tracked view or
 * not: records are JSON, and structuredClone refuses proxies.
 */
export const cloneRecord = <T>(value: T): T =>
  value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
