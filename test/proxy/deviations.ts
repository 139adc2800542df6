import { expect } from 'vitest';
import type { DriftReport } from '../../src/proxy/index.js';
import { type Deviation, onJson } from './service-double.js';

/**
 * The service the drift tests play (service-double.ts): the sandbox but for five chosen deviations,
 * and the findings the drift report must give of them, those and no other.
 */

export const UNKNOWN_CONSUMER = '00000000-0000-4000-8000-00000000abcd';

/** The service caps a page at 50 items where the sandbox (and the document) go to 100. */
const pageCap: Deviation = {
  request(seen) {
    if (seen.path.endsWith('/invoicing/taxes') && Number(seen.query.get('size')) > 50)
      seen.query.set('size', '50');
  },
  answer: () => null,
};

export const DEVIATIONS: Deviation[] = [
  // A required field null.
  onJson('GET', /\/invoicing\/contacts$/, (body) => ({
    ...body,
    items: (body.items as Record<string, unknown>[]).map((item) => ({ ...item, source_ref: null })),
  })),
  // A status the document does not declare (a 2xx the SDK takes).
  onJson('GET', /\/invoicing\/products$/, (_body, played) => ({ ...played, status: 203 })),
  // An error message other than the sandbox's.
  onJson('GET', /^\/consumers\/[^/]+$/, (body, played) =>
    played.status === 404
      ? { ...played, body: JSON.stringify({ ...body, message: 'Consumer not found' }) }
      : body,
  ),
  // A field the document does not describe.
  onJson('GET', /\/invoicing\/invoices$/, (body) => ({
    ...body,
    items: (body.items as Record<string, unknown>[]).map((item) => ({ ...item, internal_score: 3 })),
  })),
  pageCap,
];

/** Each finding's kind, place and sides. */
export const sidesOf = (report: DriftReport) =>
  report.findings.map((f) => ({
    kind: f.kind,
    at: f.at,
    path: f.path,
    document: f.document,
    service: f.service,
    sandbox: f.sandbox,
  }));

/** What the report finds of DEVIATIONS, when a client reads the lists they touch and an unknown consumer. */
export const EXPECTED_FINDINGS = [
  {
    kind: 'schema_deviation',
    at: '$.items[].source_ref',
    path: '/consumers/{consumer_id}/invoicing/contacts',
    document: 'object (required)',
    service: 'null',
    sandbox: null,
  },
  {
    kind: 'undeclared_status',
    at: 'status',
    path: '/consumers/{consumer_id}/invoicing/products',
    document: '200, 400, 401, 404, 422',
    service: '203',
    sandbox: null,
  },
  {
    kind: 'sandbox_status',
    at: 'status',
    path: '/consumers/{consumer_id}/invoicing/products',
    document: null,
    service: '203',
    sandbox: '200',
  },
  {
    kind: 'sandbox_error',
    at: 'message',
    path: '/consumers/{consumer_id}',
    document: null,
    service: '"Consumer not found"',
    sandbox: expect.stringMatching(/^"/),
  },
  {
    kind: 'undocumented_field',
    at: '$.items[].internal_score',
    path: '/consumers/{consumer_id}/invoicing/invoices',
    document: 'no such field in the schema',
    service: '3',
    sandbox: null,
  },
  {
    kind: 'sandbox_shape',
    at: '$.items[].internal_score',
    path: '/consumers/{consumer_id}/invoicing/invoices',
    document: null,
    service: 'present (number)',
    sandbox: 'absent',
  },
  {
    kind: 'sandbox_pagination',
    at: '$.size',
    path: '/consumers/{consumer_id}/invoicing/taxes',
    document: null,
    service: '50',
    sandbox: '100',
  },
];
