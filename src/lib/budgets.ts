/**
 * What one control operation may cost. Every call that makes the sandbox work for a while (a
 * timeline declared, a fixture document loaded, the clock moved, a Datalab query, the readiness
 * report) is measured against its budget before any of its work starts, and refused past it (422,
 * nothing done: errors.overBudget); the work it accepts runs in slices of SLICE_MS, the event loop
 * given back between them, so that other requests and other worlds keep being answered meanwhile.
 * Each bound is named once, here, and documented in docs/control.md.
 *
 * "Items" are the elements of the lists a document holds, at any depth (a consumer, a connection,
 * an order, one of its lines, an option of a line): what the work of applying it grows with.
 */

import { LATEST_INSTANT } from './calendar.js';

/** Work done in one go before other requests get their turn, in milliseconds. */
export const SLICE_MS = 8;

const MiB = 1024 * 1024;

/** A timeline declaration (POST /__sandbox/timeline, or a fixture document's `timeline`). */
export const TIMELINE_BUDGET = {
  /** Events it declares, each repeat counted. */
  events: 1_000,
  /** Items its events make happen: the items of each event's block, times its repeats. */
  items: 20_000,
  /** Bytes (as JSON) of its events' blocks, each times its repeats. */
  bytes: 4 * MiB,
} as const;

/**
 * A fixture document (POST /__sandbox/fixtures, POST /__sandbox/worlds' `fixtures`, --fixtures,
 * createApp's and startSandbox's `fixtures`, loadFixtures). Its timeline has its own budget besides.
 * A document is one write, whose check and commit run in one piece each: its bound is what keeps
 * those short.
 */
export const FIXTURE_BUDGET = {
  /** Items of the document. */
  items: 10_000,
  /** Bytes of the document as JSON (of the file, for a file). */
  bytes: 4 * MiB,
} as const;

/**
 * A move of the clock: the days of living world one move generates (the business it announces to
 * webhooks, the life of connections it plays). A longer move is not refused: it plays its last days.
 */
export const CLOCK_MOVE_BUDGET = {
  days: 31,
} as const;

/**
 * The span of living days a world may have: its clock stands at most this many days after its
 * origin (the instant its clock started), so that no dataset generates more than this many days of
 * business. Every living dataset holds each day from the origin to the clock: three years of the
 * seven showcase datasets weigh ~55 MB (as JSON) and take ~1.5 s to generate (in slices), within the
 * 64 MiB a world caches; five years weigh ~90 MB, past it, and each read would build again what the
 * previous one dropped. Three years keep "a year later" (and two more) within reach. A move of the
 * clock past it (POST /__sandbox/clock, --now against a world file's origin, createApp's clock
 * against its store's) is refused before anything changes; a system clock that drifts past it over
 * real years is not refused: the business just stops at its end.
 */
export const LIVING_SPAN_BUDGET = {
  days: 3 * 365 + 1,
} as const;

const DAY_MS = 86_400_000;

/** The last instant a world of `origin` (ISO) generates business for: LIVING_SPAN_BUDGET after it. */
export function livingSpanEnd(origin: string): string {
  const end = Date.parse(origin) + LIVING_SPAN_BUDGET.days * DAY_MS;
  return new Date(Math.min(end, LATEST_INSTANT.getTime())).toISOString();
}

/** What one Datalab request may spend (a query, or all the queries of a join). */
export interface QueryBudget {
  /** Rows read off the cubes. */
  rows: number;
  /** Groups kept (an ungrouped answer's rows, a join's rows). */
  groups: number;
  /** Wall time, in milliseconds. */
  ms: number;
}

/**
 * A Datalab request: unlike the others it is refused once past a bound, with the 400 the query
 * endpoints answer (what it will read is not known before it reads).
 */
export const DATALAB_BUDGET: QueryBudget = { rows: 2_000_000, groups: 200_000, ms: 10_000 };

/** The readiness report (GET /__sandbox/report, the report command): the requests it reads. */
export const REPORT_BUDGET = {
  records: 20_000,
} as const;
