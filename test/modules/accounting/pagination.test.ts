import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageQuery, paginate } from '../../../src/lib/pagination.js';

describe('paginate', () => {
  const items = Array.from({ length: 7 }, (_, i) => i + 1);

  it.each([
    [1, 3, [1, 2, 3]],
    [2, 3, [4, 5, 6]],
    [3, 3, [7]],
    [4, 3, []],
    [1, 100, [1, 2, 3, 4, 5, 6, 7]],
  ])('page %i of size %i', (page, size, expected) => {
    expect(paginate(items, page, size)).toEqual({ items: expected, total: 7, page, size });
  });

  it('pages an empty list', () => {
    expect(paginate([], 1, 50)).toEqual({ items: [], total: 0, page: 1, size: 50 });
  });
});

describe('pageQuery', () => {
  const schema = pageQuery({});

  it('defaults to page 1 of 50', () => {
    expect(schema.parse({})).toEqual({ page: 1, size: DEFAULT_PAGE_SIZE });
  });

  it('reads query strings as integers', () => {
    expect(schema.parse({ page: '3', size: '100' })).toEqual({ page: 3, size: 100 });
  });

  it.each([
    ['page 0', { page: '0' }],
    ['a negative page', { page: '-1' }],
    ['a fractional page', { page: '1.5' }],
    ['page not a number', { page: 'x' }],
    ['size 0', { size: '0' }],
    ['size above the maximum', { size: String(MAX_PAGE_SIZE + 1) }],
    ['size not a number', { size: 'many' }],
  ])('refuses %s', (_label, query) => {
    expect(schema.safeParse(query).success).toBe(false);
  });

  it('keeps the list parameters next to page and size', () => {
    const withFilter = pageQuery({ search: z.string().optional() });
    expect(withFilter.parse({ search: 'acme', size: '10' })).toEqual({ page: 1, size: 10, search: 'acme' });
  });
});
