import { describe, expect, it } from 'vitest';
import { differences } from '../../src/proxy/compare.js';

/** The sandbox against the service on one exchange: what is compared, and what is not. */

const page = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  items,
  total: 9,
  page: 1,
  size: 50,
  ...extra,
});
const item = (fields: Record<string, unknown> = {}) => ({
  id: '3b580514-b7aa-4659-97a9-647582590000',
  date: '2026-01-01',
  amount: 1,
  ...fields,
});

describe('the sandbox against the service', () => {
  it.each([
    [
      'the same shape, other values',
      page([item()]),
      page([item({ amount: 7, id: '6ba01816-7eab-4f0b-b541-d00215dea0d5' })]),
    ],
    ['a list empty on one side', page([item()]), page([])],
    ['fields below a null on the other side', { owner: { name: 'A' } }, { owner: null }],
    [
      'a refusal with another detail',
      { message: 'No', status: 'error', detail: 'x' },
      { message: 'No', status: 'error', detail: 'y' },
    ],
  ])('finds nothing in %s', (_name, service, sandbox) => {
    const status = (service as { message?: string }).message ? 404 : 200;
    expect(differences({ status, body: service }, { status, body: sandbox })).toEqual([]);
  });

  it.each([
    [
      'another status',
      { status: 404, body: { message: 'Gone' } },
      { status: 200, body: {} },
      [{ kind: 'status', at: 'status', service: '404 Gone', sandbox: '200' }],
    ],
    [
      'another message',
      { status: 401, body: { message: 'A', status: 'error' } },
      { status: 401, body: { message: 'B', status: 'error' } },
      [{ kind: 'error', at: 'message', service: '"A"', sandbox: '"B"' }],
    ],
    [
      'another error code',
      { status: 400, body: { message: 'A', error_code: 'X' } },
      { status: 400, body: { message: 'A', error_code: 'Y' } },
      [{ kind: 'error', at: 'error_code', service: '"X"', sandbox: '"Y"' }],
    ],
    [
      'another place of a validation error',
      { status: 422, body: { message: 'V', detail: [{ loc: ['query', 'size'] }] } },
      { status: 422, body: { message: 'V', detail: [{ loc: ['query', 'page'] }] } },
      [{ kind: 'error', at: 'detail[].loc', service: '["query","size"]', sandbox: '["query","page"]' }],
    ],
    [
      'a field only the service has',
      { status: 200, body: page([item({ extra: 1 })]) },
      { status: 200, body: page([item()]) },
      [{ kind: 'shape', at: '$.items[].extra', service: 'present (number)', sandbox: 'absent' }],
    ],
    [
      'a field only the sandbox has',
      { status: 200, body: page([item()]) },
      { status: 200, body: page([item({ extra: 'x' })]) },
      [{ kind: 'shape', at: '$.items[].extra', service: 'absent', sandbox: 'present (string)' }],
    ],
    [
      'another type',
      { status: 200, body: item({ amount: '1.00' }) },
      { status: 200, body: item() },
      [{ kind: 'shape', at: '$.amount', service: 'string', sandbox: 'number' }],
    ],
    [
      'another format',
      { status: 200, body: item({ date: '2026-01-01T00:00:00Z' }) },
      { status: 200, body: item() },
      [{ kind: 'shape', at: '$.date', service: 'format date-time', sandbox: 'format date' }],
    ],
    [
      'another page size',
      { status: 200, body: page([item()], { size: 50 }) },
      { status: 200, body: page([item()], { size: 100 }) },
      [{ kind: 'pagination', at: '$.size', service: '50', sandbox: '100' }],
    ],
    [
      'another order',
      { status: 200, body: page(['2026-01-01', '2026-01-02', '2026-01-03'].map((date) => item({ date }))) },
      { status: 200, body: page(['2026-01-03', '2026-01-02', '2026-01-01'].map((date) => item({ date }))) },
      [{ kind: 'order', at: '$.items by date', service: 'ascending', sandbox: 'descending' }],
    ],
  ])('finds %s', (_name, service, sandbox, found) => {
    expect(differences(service, sandbox)).toEqual(found);
  });
});
