/**
 * The two errors every answer of the sandbox is built from: ApiError (the service's ServiceError
 * envelope) and ValidationFailure (its ValidationError). Built only by the named helpers of
 * errors.ts, which holds every message.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502;

export interface ServiceErrorBody {
  message: string;
  status: 'error';
  detail: string;
  error_code?: string;
}

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly detail: string;
  readonly errorCode: string | undefined;

  constructor(status: ErrorStatus, message: string, detail = '', errorCode?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.errorCode = errorCode;
  }

  toBody(): ServiceErrorBody {
    const body: ServiceErrorBody = { message: this.message, status: 'error', detail: this.detail };
    if (this.errorCode !== undefined) body.error_code = this.errorCode;
    return body;
  }
}

/** One entry of the validation error body, in the shape of the reference's ValidationError. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The message of every validation error body. */
export const VALIDATION_ERROR = 'Validation error';

export interface ValidationErrorBody {
  message: typeof VALIDATION_ERROR;
  status: 'error';
  detail: ValidationIssue[];
}

export class ValidationFailure extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(VALIDATION_ERROR);
    this.name = 'ValidationFailure';
    this.issues = issues;
  }
  toBody(): ValidationErrorBody {
    return { message: VALIDATION_ERROR, status: 'error', detail: this.issues };
  }
}
