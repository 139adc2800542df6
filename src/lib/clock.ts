import { errors } from './errors.js';

/**
 * The sandbox clock. Every timestamp, token lifetime and scheduled run reads it, so a test can move
 * time forward instead of waiting. A `system` clock follows the machine's time plus an offset that
 * the control endpoints can shift; a `manual` clock stands still until it is moved, which makes two
 * runs with the same seed and the same requests byte-identical.
 *
 * Both keep the time between EARLIEST_INSTANT and LATEST_INSTANT: outside it an ISO date needs an
 * expanded year (+010000-...) or a date before the Unix epoch, which the dates the sandbox writes
 * and the tokens it signs do not allow, and far enough out the Date itself becomes invalid. A move
 * that would leave the range is refused (422) and leaves the clock where it was.
 */
export interface Clock {
  readonly mode: 'system' | 'manual';
  now(): Date;
  /** Moves the clock forward (or back, with a negative value); refuses to leave the range. */
  advance(seconds: number): void;
  /** Sets the clock to an instant; refuses one outside the range. */
  set(instant: Date): void;
}

export const EARLIEST_INSTANT = new Date('1970-01-01T00:00:00.000Z');
export const LATEST_INSTANT = new Date('9999-12-31T23:59:59.999Z');

/** `ms` (milliseconds since the epoch) when it lies within the clock's range; else the 422 refusal. */
export function checkedInstant(ms: number): number {
  if (!Number.isFinite(ms) || ms < EARLIEST_INSTANT.getTime() || ms > LATEST_INSTANT.getTime()) {
    throw errors.clockOutOfRange(Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms) : null);
  }
  return ms;
}

export function systemClock(): Clock {
  let offsetMs = 0;
  // The machine's time passing can carry a clock set near the end past it: it stops at the end.
  const current = () => Math.min(Date.now() + offsetMs, LATEST_INSTANT.getTime());
  return {
    mode: 'system',
    now: () => new Date(current()),
    advance: (seconds) => {
      checkedInstant(current() + seconds * 1000);
      offsetMs += seconds * 1000;
    },
    set: (instant) => {
      offsetMs = checkedInstant(instant.getTime()) - Date.now();
    },
  };
}

/** The instant a manual clock starts at unless told otherwise. */
export const DEFAULT_MANUAL_START = new Date('2026-01-15T09:00:00.000Z');

export function manualClock(start: Date = DEFAULT_MANUAL_START): Clock {
  let current = checkedInstant(start.getTime());
  return {
    mode: 'manual',
    now: () => new Date(current),
    advance: (seconds) => {
      current = checkedInstant(current + seconds * 1000);
    },
    set: (instant) => {
      current = checkedInstant(instant.getTime());
    },
  };
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
