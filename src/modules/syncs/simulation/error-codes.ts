import { own } from '../../../lib/own.js';
/**
 * The error codes the simulation knows, with the title and description an issue shows for them.
 * A scripted failure may name any code: an unknown one gets a generic title and its message as
 * description.
 */
export interface ErrorDescription {
  /** The status class the software answered with, as a string (ErrorInfo.status). */
  status: string;
  title: string;
  description: string;
}

export const KNOWN_ERRORS: Record<string, ErrorDescription> = {
  ERROR_AUTHENTICATION_FAILED: {
    status: '401',
    title: 'Authentication failed',
    description: 'The software refused the credentials of the connection; the end user must reconnect.',
  },
  ERROR_MAPPING_MISSING: {
    status: '400',
    title: 'A mapping is missing',
    description: 'A value met during the run has no mapping for this consumer.',
  },
  ERROR_VALIDATION: {
    status: '400',
    title: 'The software refused the data',
    description: 'A record sent to the software did not pass its validation.',
  },
  ERROR_RATE_LIMITED: {
    status: '429',
    title: 'Rate limited by the software',
    description: 'The software asked to slow down; the run stopped before its end.',
  },
  ERROR_TIMEOUT: {
    status: '504',
    title: 'The software did not answer in time',
    description: 'A request to the software timed out.',
  },
  ERROR_INTERNAL: {
    status: '500',
    title: 'Internal error',
    description: 'The run stopped on an unexpected error.',
  },
  ERROR_LOCAL_EXECUTION: {
    status: '500',
    title: 'The local run reported an error',
    description: 'A flow run on the vendor side reported that it failed.',
  },
};

export function describeError(code: string, message: string | null): ErrorDescription {
  const known = own(KNOWN_ERRORS, code);
  if (known) return message ? { ...known, description: message } : known;
  return { status: '500', title: `Execution failed (${code})`, description: message ?? 'The run failed.' };
}
