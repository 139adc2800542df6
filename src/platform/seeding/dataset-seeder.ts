import { calendarSpan, isoDay, LAST_DAY } from '../../lib/calendar.js';
import { uuidFrom } from '../../lib/ids.js';
import type { ConnectionDatasetArgs } from '../datasets.js';
import { type Faker, fakerFor } from './fakers.js';

/** The day of the default manual clock: what datasets were seeded up to before `until` existed. */
export const LEGACY_UNTIL = '2026-01-15';

/** What a connection's seeded dataset is built from: the seed and the connection it belongs to. */
export interface SeedInput extends ConnectionDatasetArgs {
  seed: number;
}

/**
 * How far ahead of its day a day's business reaches, at most: a due date, a check-out, a return, a
 * payout's arrival. The seeded business stops this many days before the calendar's end, so that
 * every day it plans lies in the calendar (lib/calendar.ts).
 */
export const LOOK_AHEAD_DAYS = 60;

/**
 * The latest day a dataset is seeded up to, and the last day whose business is drawn (9999-10-31): a
 * clock near the end of the calendar keeps its data before it.
 */
export const LATEST_UNTIL = isoDay(LAST_DAY - LOOK_AHEAD_DAYS);

/**
 * The days whose business a build draws, as epoch days (the bounds of the loop over them): from
 * `until`, the dataset's first day, to `today`, the clock's day, within the calendar and at most
 * `lookAhead` days (LOOK_AHEAD_DAYS by default) before its end. Empty when `today` comes first.
 */
export function drawnSpan(
  until: string,
  today: string,
  lookAhead: number = LOOK_AHEAD_DAYS,
): { first: number; last: number } {
  const { first, last } = calendarSpan(until, today);
  return { first, last: Math.min(last, LAST_DAY - lookAhead) };
}

/** The ISO days of drawnSpan(until, today), in order. */
export function drawnDays(until: string, today: string): string[] {
  const { first, last } = drawnSpan(until, today);
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => isoDay(first + i));
}

/**
 * The day a dataset is seeded up to (YYYY-MM-DD): its `until` (at most LATEST_UNTIL), which a build
 * sets to the day of the world's origin (see seedInputOf); LEGACY_UNTIL without one.
 */
export const untilOf = (input: { until?: string | undefined }): string => {
  const until = input.until ?? LEGACY_UNTIL;
  return until > LATEST_UNTIL ? LATEST_UNTIL : until;
};

/** The origin of a world that has none: the default manual clock's start. */
export const LEGACY_ORIGIN = `${LEGACY_UNTIL}T09:00:00.000Z`;

/**
 * What a build seeds a connection's dataset from: the seed, the connection and the day its history
 * ends: its own `until` (a dataset of a world file written before worlds had an origin), else the
 * day of the world's origin.
 */
export const seedInputOf = (
  seed: number,
  args: ConnectionDatasetArgs,
  origin = LEGACY_ORIGIN,
): SeedInput => ({
  seed,
  ...args,
  until: args.until ?? origin.slice(0, 10),
});

/**
 * The faker of a dataset's older history: a sequence of its own, so that the recent records draw what
 * they drew before the history existed, whatever the history holds.
 */
export const historyFaker = (vertical: string, input: SeedInput): Faker =>
  fakerFor(`${vertical}-history`, input.seed, input.consumerid, input.connectionid);

/** Ids numbered in the order they are minted: `uuidFrom(...parts, kind, n)` for the n-th id of any kind. */
export function mintedIds(...parts: (string | number)[]): (kind: string) => string {
  let minted = 0;
  return (kind) => {
    minted += 1;
    return uuidFrom(...parts, kind, minted);
  };
}

interface Stream {
  faker: Faker;
  mint: (kind: string) => string;
}

/**
 * A builder of a connection's dataset whose records are numbered in the order they are made: the
 * faker and the ids both follow from (vertical, seed, consumerid, connectionid), so the same input
 * builds the same dataset. The dataset starts with its owner's ids and the given empty collections.
 *
 * The older history (see `inHistory`) draws from a faker and ids of its own: the recent records come
 * out of the main stream as they did before the history existed.
 */
export abstract class DatasetSeeder<D extends ConnectionDatasetArgs> {
  readonly data: D;
  readonly options: SeedInput;
  /** The day the dataset is seeded up to (YYYY-MM-DD). */
  readonly until: string;
  readonly #main: Stream;
  readonly #history: Stream;
  #stream: Stream;

  constructor(vertical: string, options: SeedInput, collections: Omit<D, keyof ConnectionDatasetArgs>) {
    const { seed, consumerid, connectionid } = options;
    this.options = options;
    this.until = untilOf(options);
    this.#main = {
      faker: fakerFor(vertical, seed, consumerid, connectionid),
      mint: mintedIds(vertical, seed, consumerid, connectionid),
    };
    this.#history = {
      faker: historyFaker(vertical, options),
      mint: mintedIds(vertical, seed, consumerid, connectionid, 'history'),
    };
    this.#stream = this.#main;
    this.data = { consumerid, connectionid, integrationid: options.integrationid, ...collections } as D;
  }

  /** The faker of the stream being seeded (the main one, or the history's inside `inHistory`). */
  get faker(): Faker {
    return this.#stream.faker;
  }

  /** The id of the next record of the dataset. */
  id(kind: string): string {
    return this.#stream.mint(kind);
  }

  /** Runs `build` with the history's faker and ids. */
  inHistory<T>(build: () => T): T {
    const previous = this.#stream;
    this.#stream = this.#history;
    try {
      return build();
    } finally {
      this.#stream = previous;
    }
  }
}
