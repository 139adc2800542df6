import { describe, expect, it } from 'vitest';
import { DocumentCheck } from '../../src/proxy/document-check.js';

/**
 * The service against its document, on a small document of its own: each rule of the check and of
 * the walk of a body against its schema, one row each.
 */

const DOCUMENT = {
  openapi: '3.1.0',
  paths: {
    '/things/{thing_id}': {
      get: {
        operationId: 'get_thing',
        parameters: [
          { name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'x-account-id', in: 'header', required: true, schema: { type: 'string' } },
          { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'A thing',
            headers: { 'x-rate-limit': { schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { description: 'None', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Base: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          created: { type: 'string', format: 'date-time' },
        },
        required: ['id'],
      },
      Thing: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          {
            type: 'object',
            properties: {
              status: { type: 'string', enum: ['open', 'closed'] },
              amount: { type: 'number' },
              owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
              tags: { type: ['array', 'null'], items: { type: 'string' } },
            },
            required: ['status'],
          },
        ],
      },
      Owner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  },
};

const check = new DocumentCheck(DOCUMENT);
const GOOD = {
  id: '3b580514-b7aa-4659-97a9-647582590000',
  created: '2026-01-15T09:00:00Z',
  status: 'open',
  amount: 12,
  owner: { name: 'Ann' },
  tags: ['a'],
};
const HEADERS: Record<string, string> = { 'x-account-id': 'a' };
const ANSWER_HEADERS: Record<string, string> = { 'x-rate-limit': '10' };

const findingsOf = (
  body: unknown,
  status = 200,
  requestHeaders = HEADERS,
  responseHeaders = ANSWER_HEADERS,
) =>
  check.check({ method: 'GET', path: '/things/1', status, requestHeaders, responseHeaders, body }).findings;

describe('the service against its document', () => {
  it('finds nothing in an answer that fits, its allOf parts describing each other’s fields', () => {
    expect(findingsOf(GOOD)).toEqual([]);
    expect(findingsOf({ ...GOOD, owner: null, tags: null })).toEqual([]);
    expect(findingsOf({}, 404)).toEqual([]);
  });

  it.each([
    [
      'a type that differs',
      { ...GOOD, amount: '12' },
      { kind: 'schema_deviation', at: '$.amount', expected: 'number', seen: 'string' },
    ],
    [
      'a required field missing',
      { ...GOOD, status: undefined },
      { kind: 'schema_deviation', at: '$.status', expected: 'present (required)', seen: 'absent' },
    ],
    [
      'a required field null',
      { ...GOOD, id: null },
      { kind: 'schema_deviation', at: '$.id', expected: 'string (required)', seen: 'null' },
    ],
    [
      'an enum value not listed',
      { ...GOOD, status: 'paused' },
      { kind: 'schema_deviation', at: '$.status', expected: 'one of ["open","closed"]', seen: '"paused"' },
    ],
    [
      'a format that is not one',
      { ...GOOD, created: 'yesterday' },
      { kind: 'schema_deviation', at: '$.created', expected: 'date-time', seen: '"yesterday"' },
    ],
    [
      'a branch of anyOf that none fits',
      { ...GOOD, owner: 'Ann' },
      { kind: 'schema_deviation', at: '$.owner', expected: 'object | null', seen: 'string' },
    ],
    [
      'a field inside a branch',
      { ...GOOD, owner: { name: 3 } },
      { kind: 'schema_deviation', at: '$.owner.name', expected: 'string', seen: 'integer' },
    ],
    [
      'an item of a list',
      { ...GOOD, tags: ['a', 2] },
      { kind: 'schema_deviation', at: '$.tags[]', expected: 'string', seen: 'integer' },
    ],
    [
      'an extra field',
      { ...GOOD, colour: 'red' },
      { kind: 'undocumented_field', at: '$.colour', expected: 'no such field in the schema', seen: '"red"' },
    ],
  ])('finds %s', (_name, body, finding) => {
    expect(findingsOf(JSON.parse(JSON.stringify(body)))).toEqual([finding]);
  });

  it('finds a status the operation does not declare, naming those it does', () => {
    expect(findingsOf({}, 409)).toEqual([
      { kind: 'undeclared_status', at: 'status', expected: '200, 404', seen: '409' },
    ]);
  });

  it('finds a documented answer header missing, and a required request header not sent', () => {
    expect(findingsOf(GOOD, 200, {}, {})).toEqual([
      { kind: 'missing_request_header', at: 'x-account-id', expected: 'present (required)', seen: 'absent' },
      { kind: 'missing_header', at: 'x-rate-limit', expected: 'present', seen: 'absent' },
    ]);
  });

  it('matches no operation for a path the document lacks', () => {
    expect(
      check.check({
        method: 'GET',
        path: '/other',
        status: 200,
        requestHeaders: {},
        responseHeaders: {},
        body: {},
      }).operation,
    ).toBeNull();
  });
});
