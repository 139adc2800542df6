/**
 * The kinds of difference the recording proxy finds between the service, its document and the
 * sandbox, once: their group, severity and title. The proxy's report and the drift file (which the
 * sandbox reads too) both name them.
 */

export type Severity = 'error' | 'warning' | 'info';

export const DRIFT_KINDS = {
  undeclared_status: {
    group: 'document',
    severity: 'error',
    title: 'The service answered a status its document does not declare for the operation',
  },
  schema_deviation: {
    group: 'document',
    severity: 'error',
    title: 'The answer leaves its schema (a type, a required field, an enum value, a format)',
  },
  undocumented_field: {
    group: 'document',
    severity: 'warning',
    title: 'The answer holds a field its schema does not describe',
  },
  missing_header: {
    group: 'document',
    severity: 'warning',
    title: 'The answer lacks a header its document names',
  },
  missing_request_header: {
    group: 'document',
    severity: 'warning',
    title: 'The request lacks a header the document requires',
  },
  unknown_operation: {
    group: 'document',
    severity: 'info',
    title: 'The request matches no operation of the document',
  },
  sandbox_status: {
    group: 'sandbox',
    severity: 'error',
    title: 'The sandbox answers the same request with another status',
  },
  sandbox_error: {
    group: 'sandbox',
    severity: 'error',
    title: 'The sandbox refuses the same request with another message or error code',
  },
  sandbox_shape: {
    group: 'sandbox',
    severity: 'warning',
    title: 'The sandbox answers with another shape (a field, a type, a format)',
  },
  sandbox_pagination: {
    group: 'sandbox',
    severity: 'error',
    title: 'The sandbox pages the same list otherwise',
  },
  sandbox_order: {
    group: 'sandbox',
    severity: 'warning',
    title: 'The sandbox orders the same list otherwise',
  },
} as const satisfies Record<string, { group: 'document' | 'sandbox'; severity: Severity; title: string }>;

export type DriftKind = keyof typeof DRIFT_KINDS;
