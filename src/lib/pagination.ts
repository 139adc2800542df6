import { z } from '@hono/zod-openapi';

/**
 * Paged lists: `page` (from 1) and `size` (1 to 100, default 50) in the query, and a page wrapper
 * {items, total, page, size} named ServicePage_<Item>_ in the answer.
 */

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
}

/**
 * The `page`-th slice of `size` items; a page past the end is empty, with the right total. `as` turns
 * the page's items (only those) into what the answer shows.
 */
export function paginate<T>(items: readonly T[], page: number, size: number): Page<T>;
export function paginate<T, U>(items: readonly T[], page: number, size: number, as: (item: T) => U): Page<U>;
export function paginate<T, U>(
  items: readonly T[],
  page: number,
  size: number,
  as?: (item: T) => U,
): Page<T | U> {
  const start = (page - 1) * size;
  const slice = items.slice(start, start + size);
  return { items: as ? slice.map((item) => as(item)) : slice, total: items.length, page, size };
}

const pageParam = z.coerce
  .number()
  .int()
  .min(1)
  .default(1)
  .openapi({
    param: { name: 'page', in: 'query' },
    type: 'integer',
    minimum: 1,
    default: 1,
    description: 'Page number, from 1',
  });

const sizeParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_SIZE)
  .default(DEFAULT_PAGE_SIZE)
  .openapi({
    param: { name: 'size', in: 'query' },
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page, 1 to ${MAX_PAGE_SIZE}`,
  });

/** The query schema of a paged list: page and size, plus the list's own parameters. */
export function pageQuery<T extends z.ZodRawShape>(shape: T) {
  return z.object({ page: pageParam, size: sizeParam, ...shape });
}

/** The page wrapper of an item schema, registered as ServicePage_<name>_. */
export function servicePage<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int().min(0).openapi({ description: 'Number of items of every page' }),
      page: z.number().int().min(1).openapi({ description: 'This page' }),
      size: z.number().int().min(1).openapi({ description: 'Items per page asked for' }),
    })
    .openapi(`ServicePage_${name}_`, { description: `One page of ${name} items` });
}
