import type { ApiName } from '../../platform/catalogue.js';

/**
 * The integer codes of the One APIs in a sync's connections (SyncsConnectionItem.one_api). They follow
 * the catalogue's integration ids: the integrations of code n are numbered 1n00 to 1n99.
 */
export const ONE_API_CODES: Readonly<Record<number, ApiName>> = {
  1: 'Accounting',
  2: 'Point of Sale',
  3: 'eCommerce',
  4: 'Invoicing',
  5: 'Banking',
  6: 'Payment',
  7: 'Property Management System',
  8: 'Communication',
  9: 'Custom',
};

export const oneApiName = (code: number | null | undefined): ApiName | undefined =>
  code === null || code === undefined ? undefined : ONE_API_CODES[code];

export const oneApiCodeOf = (api: ApiName): number =>
  Number(Object.entries(ONE_API_CODES).find(([, name]) => name === api)?.[0]);

export const ONE_API_TABLE = Object.entries(ONE_API_CODES)
  .map(([code, name]) => `${code} ${name}`)
  .join(', ');
