import type { Context } from 'hono';
import type { ApiName } from './catalogue.js';
import type { AppEnv } from './context.js';
import type { VerticalScope } from './vertical-connection.js';

/**
 * What the console shows of a consumer's data in a vertical: a handful of rows of one list operation,
 * read as the API reads them. The console (src/surfaces/console/vertical-samples.ts) checks the
 * connection and the integration's coverage of the operation first (requireVerticalConnection), then
 * asks the sample for its rows; each vertical declares its samples in its module (`samples`), so
 * the console names no vertical.
 */

/** How many rows a sample shows: enough to recognise the data, few enough for one page. */
export const SAMPLE_ROWS = 5;

/** One row of a sample, by the wire names of the operation's item (the sample's columns). */
export type SampleRow = Record<string, unknown>;

export interface ConsoleSample {
  api: ApiName;
  title: string;
  /** The list operation the sample shows: its operationId (whose coverage the API checks), path and tag. */
  route: { operationId: string; path: string; tags?: string[] | undefined };
  columns: string[];
  /**
   * The rows, read through the vertical's own dataset function (or its `open`) and its list and
   * wire-shape functions, so that they are the rows the API answers. Throws the API's ApiError when the
   * API would refuse; the console shows the refusal.
   */
  rows(c: Context<AppEnv>, scope: VerticalScope): SampleRow[] | Promise<SampleRow[]>;
  /**
   * Set when the rows are the values of a query parameter the vertical's other samples read (the
   * folders of a multi-folder accounting integration, for `folder_id`): the console lists them as links
   * that set it on the page, by `columns` [value, label], with the note after the operation when
   * there is one, and shows nothing when the API refuses (the samples that need the value show why).
   */
  choice?: { param: string; note?(scope: VerticalScope): string | undefined };
}

/** The last 90 days of the sandbox clock, for the operations that need a period. */
export function recentPeriod(c: Context<AppEnv>) {
  const today = c.get('store').today();
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 90 * 86_400_000).toISOString().slice(0, 10);
  return { date_from: from, date_to: today };
}
