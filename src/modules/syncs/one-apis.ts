import { type ApiName, ONE_APIS } from '../../platform/catalogue.js';

/**
 * The integer codes of the One APIs in a sync's connections (SyncsConnectionItem.one_api), read off
 * the catalogue's table of One APIs. They follow the catalogue's integration ids: the integrations
 * of code n are numbered 1n00 to 1n99.
 */
export const ONE_API_CODES: Readonly<Record<number, ApiName>> = Object.fromEntries(
  [...ONE_APIS].sort((a, b) => a.code - b.code).map(({ code, name }) => [code, name]),
);

export const oneApiName = (code: number | null | undefined): ApiName | undefined =>
  code === null || code === undefined ? undefined : ONE_API_CODES[code];

export const ONE_API_TABLE = Object.entries(ONE_API_CODES)
  .map(([code, name]) => `${code} ${name}`)
  .join(', ');
