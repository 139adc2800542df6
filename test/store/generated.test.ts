import { describe, expect, it } from 'vitest';
import {
  addOverlayOp,
  applyOverlay,
  diffOverlay,
  type GeneratedEntry,
  newEntry,
  type OverlayOp,
  opsOf,
  overlayDelta,
} from '../../src/store/generated.js';

/**
 * The changes a generated dataset keeps: replayed over the dataset built again, they give the bytes
 * the dataset had in memory, key order included, however the writes went.
 */

const entry = (): GeneratedEntry => newEntry(null);
const set = (p: string[], v: unknown): OverlayOp => ({ p, j: JSON.stringify(v) });
const del = (p: string[]): OverlayOp => ({ p });
const base = () => ({ a: 1, b: { x: 1, y: 2 }, c: [1, 2] });
const weightOf = (ops: OverlayOp[]) =>
  ops.reduce((sum, op) => sum + JSON.stringify(op.p).length + (op.j?.length ?? 0) + 8, 0);

/** Adds an op, checking on the way what the bound is counted with: the bytes it adds, and their spread. */
function add(kept: GeneratedEntry, op: OverlayOp): void {
  const expected = kept.bytes + overlayDelta(kept, op);
  addOverlayOp(kept, op);
  expect(kept.bytes).toBe(expected);
  expect(kept.bytes).toBe(weightOf(opsOf(kept)));
  const below = new Map<string, number>();
  for (const o of opsOf(kept)) {
    for (let depth = 0; depth < o.p.length; depth++) {
      const key = JSON.stringify(o.p.slice(0, depth));
      below.set(key, (below.get(key) ?? 0) + weightOf([o]));
    }
  }
  expect(new Map([...kept.below].sort())).toEqual(new Map([...below].sort()));
}

describe('the changes kept of a generated dataset', () => {
  it.each<[string, OverlayOp[], unknown]>([
    ['a value changed', [set(['a'], 2)], { a: 2, b: { x: 1, y: 2 }, c: [1, 2] }],
    [
      'a key added, then a value under it',
      [set(['d'], { z: 1 }), set(['d', 'z'], 2)],
      { ...base(), d: { z: 2 } },
    ],
    ['a key removed', [del(['b'])], { a: 1, c: [1, 2] }],
    [
      'a key removed, then added again: it stands last',
      [del(['a']), set(['a'], 3)],
      { b: { x: 1, y: 2 }, c: [1, 2], a: 3 },
    ],
    [
      'added again, then changed: still last',
      [del(['a']), set(['a'], 3), set(['a'], 4)],
      { b: { x: 1, y: 2 }, c: [1, 2], a: 4 },
    ],
    [
      'a value under a key, then the key set whole',
      [set(['b', 'x'], 5), set(['b'], { q: 1 })],
      { a: 1, b: { q: 1 }, c: [1, 2] },
    ],
    ['two keys added keep their order', [set(['e'], 1), set(['d'], 2)], { ...base(), e: 1, d: 2 }],
    ['the whole dataset set, then changed', [set([], { k: 1 }), set(['l'], 2)], { k: 1, l: 2 }],
  ])('%s', (_name, ops, expected) => {
    const kept = entry();
    for (const op of ops) add(kept, op);
    expect(JSON.stringify(applyOverlay(base(), opsOf(kept)))).toBe(JSON.stringify(expected));
  });

  it.each<[string, OverlayOp[], number]>([
    ['a value set twice is kept once', [set(['a'], 2), set(['a'], 3)], 1],
    ['a change under a path set later goes', [set(['b', 'x'], 2), set(['b'], {})], 1],
    [
      'a removal replaces every change at or under its path',
      [set(['b', 'x'], 2), set(['b', 'y'], 3), del(['b'])],
      1,
    ],
  ])('%s', (_name, ops, count) => {
    const kept = entry();
    for (const op of ops) add(kept, op);
    expect(kept.ops.size).toBe(count);
    expect(kept.bytes).toBe(weightOf(opsOf(kept)));
  });

  it('replays any series of writes to the bytes they left in memory (300 random series)', () => {
    let state = 7;
    const random = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const keys = ['a', 'b', 'c', 'd', 'e'];
    for (let series = 0; series < 300; series++) {
      const memory = JSON.parse(JSON.stringify({ a: { a: 1, b: 2 }, b: { c: 3 }, c: 4 })) as Record<
        string,
        unknown
      >;
      const kept = entry();
      for (let step = 0; step < 12; step++) {
        const top = keys[Math.floor(random() * keys.length)] as string;
        const inner = keys[Math.floor(random() * keys.length)] as string;
        const roll = random();
        const parent = memory[top];
        if (roll < 0.3) {
          delete memory[top];
          add(kept, del([top]));
        } else if (roll < 0.55 || parent === null || typeof parent !== 'object') {
          memory[top] = { [inner]: step };
          add(kept, set([top], memory[top]));
        } else if (roll < 0.75) {
          delete (parent as Record<string, unknown>)[inner];
          add(kept, del([top, inner]));
        } else {
          (parent as Record<string, unknown>)[inner] = step;
          add(kept, set([top, inner], step));
        }
      }
      const replayed = applyOverlay({ a: { a: 1, b: 2 }, b: { c: 3 }, c: 4 }, opsOf(kept));
      expect(JSON.stringify(replayed), `series ${series}`).toBe(JSON.stringify(memory));
    }
  });

  it.each<[string, unknown, unknown]>([
    ['the same', base(), base()],
    ['a value changed deep down', base(), { a: 1, b: { x: 1, y: 3 }, c: [1, 2] }],
    ['keys added and removed', base(), { a: 1, c: [1, 2, 3], d: 4 }],
    ['keys in another order', base(), { b: { x: 1, y: 2 }, a: 1, c: [1, 2] }],
    ['nested keys in another order', base(), { a: 1, b: { y: 2, x: 1 }, c: [1, 2] }],
  ])('the changes between two datasets rebuild the second from the first: %s', (_name, from, to) => {
    const ops = diffOverlay(from, to);
    expect(JSON.stringify(applyOverlay(JSON.parse(JSON.stringify(from)), ops))).toBe(JSON.stringify(to));
    if (JSON.stringify(from) === JSON.stringify(to)) expect(ops).toEqual([]);
  });
});
