import { inCalendar, LATEST_INSTANT } from './calendar.js';
import { errors } from './errors.js';

/**
 * The sandbox clock. Every timestamp, token lifetime and scheduled run reads it, so a test can move
 * time forward instead of waiting. A `system` clock follows the machine's time plus an offset that
 * the control endpoints can shift; a `manual` clock stands still until it is moved, which makes two
 * runs with the same seed and the same requests byte-identical. Either can change into the other
 * (`setMode`, POST /__sandbox/clock {"mode"}).
 *
 * Both keep the time within the sandbox's calendar (lib/calendar.ts: 1970-01-01T00:00:00.000Z to
 * 9999-12-30T23:59:59.999Z), where every date the sandbox writes has four digits of year and every
 * token it signs a positive time. A move that would leave it is refused (422) and leaves the clock
 * where it was.
 */
export type ClockMode = 'system' | 'manual';

export interface Clock {
  readonly mode: ClockMode;
  now(): Date;
  /** Moves the clock forward (or back, with a negative value); refuses to leave the range. */
  advance(seconds: number): void;
  /** Sets the clock to an instant; refuses one outside the range. */
  set(instant: Date): void;
  /**
   * `system`: back to the machine's time, every earlier move dropped; `manual`: stands still at its
   * current reading. The clocks of systemClock() and manualClock() have it; a clock of your own
   * without it cannot change its mode (POST /__sandbox/clock refuses `mode` with 422).
   */
  setMode?(mode: ClockMode): void;
}

/** `ms` (milliseconds since the epoch) when it lies within the calendar; else the 422 refusal. */
export function checkedInstant(ms: number): number {
  if (!inCalendar(ms)) {
    const valid = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
    throw errors.outsideCalendar('The clock', valid ? new Date(ms).toISOString() : null);
  }
  return ms;
}

/**
 * One clock in either mode, which can change mode: `offsetMs` is what the moves added to the
 * machine's time (system), `frozenMs` the instant it stands at (manual).
 */
function clockIn(mode: ClockMode, startMs: number): Clock {
  let current: ClockMode = mode;
  let offsetMs = 0;
  let frozenMs = startMs;
  // The machine's time passing can carry a clock set near the end past it: it stops at the end.
  const reading = () =>
    current === 'manual' ? frozenMs : Math.min(Date.now() + offsetMs, LATEST_INSTANT.getTime());
  return {
    get mode() {
      return current;
    },
    now: () => new Date(reading()),
    advance: (seconds) => {
      const next = checkedInstant(reading() + seconds * 1000);
      if (current === 'manual') frozenMs = next;
      else offsetMs += seconds * 1000;
    },
    set: (instant) => {
      const next = checkedInstant(instant.getTime());
      if (current === 'manual') frozenMs = next;
      else offsetMs = next - Date.now();
    },
    setMode: (next) => {
      if (next === 'manual') frozenMs = reading();
      else offsetMs = 0;
      current = next;
    },
  };
}

/** A clock that follows the machine's time (plus the moves). */
export function systemClock(): Clock {
  return clockIn('system', 0);
}

/** The instant a manual clock starts at unless told otherwise. */
export const DEFAULT_MANUAL_START = new Date('2026-01-15T09:00:00.000Z');

/**
 * The machine's current instant, truncated to the second. A manual clock started there issues
 * tokens whose `expires_on` lies ahead of the machine's time, as a client that checks it against its
 * own clock (the official Node SDK does) expects: it then keeps its token instead of asking for a
 * new one before every call. The whole second keeps the instants the sandbox writes short and even.
 */
export function currentSecond(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}

/**
 * The instant a world made now takes as its origin (the instant its clock started): a manual
 * clock's reading; a clock that follows the machine's time, its reading to the whole second.
 */
export function originOf(clock: Clock): Date {
  const now = clock.now();
  return clock.mode === 'manual' ? now : new Date(Math.floor(now.getTime() / 1000) * 1000);
}

/**
 * A clock that stands still until moved, at `start`: an instant, or 'now' for currentSecond(). Two
 * runs with the same seed, the same start and the same requests answer byte for byte the same.
 */
export function manualClock(start: Date | 'now' = DEFAULT_MANUAL_START): Clock {
  return clockIn('manual', checkedInstant((start === 'now' ? currentSecond() : start).getTime()));
}

/**
 * The instant (epoch milliseconds) of a date-time a client gives: one without an offset is taken as
 * UTC, never as the machine's local time, so the same request gives the same answer on any machine.
 */
export const instantOf = (value: string): number =>
  Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
