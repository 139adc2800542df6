/**
 * The service's ServiceError envelope, which every refusal but a validation body is built from (that
 * one, ValidationFailure, is in validation-errors.ts with pydantic's words). Built only by the named
 * helpers of errors.ts, which holds every message.
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
