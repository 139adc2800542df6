/**
 * The sandbox clock. Every timestamp, token lifetime and scheduled run reads it, so a test can move
 * time forward instead of waiting. A `system` clock follows the machine's time plus an offset that
 * the control endpoints can shift; a `manual` clock stands still until it is moved, which makes two
 * runs with the same seed and the same requests byte-identical.
 */
export interface Clock {
  readonly mode: 'system' | 'manual';
  now(): Date;
  /** Moves the clock forward (or back, with a negative value). */
  advance(seconds: number): void;
  set(instant: Date): void;
}

export function systemClock(): Clock {
  let offsetMs = 0;
  return {
    mode: 'system',
    now: () => new Date(Date.now() + offsetMs),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    set: (instant) => {
      offsetMs = instant.getTime() - Date.now();
    },
  };
}

/** The instant a manual clock starts at unless told otherwise. */
export const DEFAULT_MANUAL_START = new Date('2026-01-15T09:00:00.000Z');

export function manualClock(start: Date = DEFAULT_MANUAL_START): Clock {
  let current = start.getTime();
  return {
    mode: 'manual',
    now: () => new Date(current),
    advance: (seconds) => {
      current += seconds * 1000;
    },
    set: (instant) => {
      current = instant.getTime();
    },
  };
}

export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
