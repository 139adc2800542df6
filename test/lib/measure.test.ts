import { describe, expect, it } from 'vitest';
import { measure } from '../../src/lib/measure.js';

/** The size a budget counts: the items of a value's lists at any depth, and its bytes as JSON. */

const WIDE = { items: Number.POSITIVE_INFINITY, bytes: Number.POSITIVE_INFINITY };

describe('measure', () => {
  it.each([
    ['a string', 'abc', 0],
    ['a number', 12.5, 0],
    ['null', null, 0],
    ['an empty list', [], 0],
    ['an empty object', {}, 0],
    ['a list', [1, 2, 3], 3],
    ['an object with a list', { a: [1, 'two', null] }, 3],
    ['lists in lists', [[1, 2], [3], []], 6],
    ['an order and its lines', { orders: [{ items: [{ product: 'Espresso' }, { product: 'Tea' }] }] }, 3],
  ])('counts the items of %s, and its bytes as JSON', (_what, value, items) => {
    expect(measure(value, WIDE)).toEqual({ items, bytes: JSON.stringify(value).length, over: null });
  });

  it('names the bound passed first, and stops there', () => {
    expect(measure([1, 2, 3], { items: 2, bytes: 100 }).over).toBe('items');
    expect(measure({ text: 'x'.repeat(50) }, { items: 10, bytes: 20 }).over).toBe('bytes');
    // A list far over budget is not walked: its elements are not counted one by one.
    const huge = Array.from({ length: 1_000_000 }, () => [1, 2, 3]);
    expect(measure(huge, { items: 10, bytes: Number.POSITIVE_INFINITY })).toMatchObject({
      items: 1_000_000,
      over: 'items',
    });
  });

  it('ends on a value that holds itself', () => {
    const loop: { self?: unknown; list: unknown[] } = { list: [1] };
    loop.self = loop;
    expect(measure(loop, { items: 1_000, bytes: 10_000 }).over).not.toBeNull();
  });
});
