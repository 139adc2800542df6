import { LIVING_SPAN_BUDGET, livingSpanEnd } from '../lib/budgets.js';
import { type Clock, type ClockMode, manualClock, originOf, systemClock } from '../lib/clock.js';
import { errors, ValidationFailure } from '../lib/errors.js';
import { type Pace, type PaceChange, paceOn } from '../lib/pace.js';
import type { Services } from '../platform/context.js';
import { LIVING_DATASETS } from '../platform/living-datasets.js';
import type { WorldStore } from '../store/store.js';
import type { World } from '../store/world.js';
import { ClockChange, PaceSet } from './sandbox.schemas.js';
import { LIFE_CURSOR } from './seeded-life.js';
import { seedWorld } from './seeded-world.js';

/**
 * What the control endpoints do, once: `POST /__sandbox/clock` and `POST /__sandbox/reset` call
 * these, and so do the helpers `startSandbox()` hands out (`sandbox.clock`, `sandbox.reset()`).
 */

/** A change of the clock, as POST /__sandbox/clock takes it: a mode, a move, or a mode then a move. */
export interface ClockMove {
  mode?: ClockMode | undefined;
  advance_seconds?: number | undefined;
  now?: string | undefined;
}

function applyMove(clock: Clock, change: ClockMove): void {
  if (change.advance_seconds !== undefined) clock.advance(change.advance_seconds);
  if (change.now !== undefined) clock.set(new Date(change.now));
}

/**
 * Refuses, with the 422 of a call past its budget, a clock that would stand past the span of living
 * days a world may have after its origin (LIVING_SPAN_BUDGET), unless it stands no further than
 * `from` (a move that does not go further: back, or nowhere).
 */
export function assertClockSpan(origin: string, to: Date, from?: Date): void {
  const end = livingSpanEnd(origin);
  if (to.getTime() <= Date.parse(end) || (from !== undefined && to.getTime() <= from.getTime())) return;
  const days = LIVING_SPAN_BUDGET.days.toLocaleString('en-US');
  throw errors.overBudget(
    'The move of the clock',
    `${days} days after the world's origin`,
    `The clock would be at ${to.toISOString()}, past ${end}: the world's business is generated for ${days} days after its origin, ${origin}. Reset the world (its origin becomes the clock's instant) to go further.`,
  );
}

/**
 * Changes the clock (it refuses, with the 422 ApiError, a move out of its range or past the span of
 * living days after the world's origin, and stays), then does whatever came due before resolving:
 * finished executions, scheduled runs. Webhook attempts that came due are started, not awaited, so
 * no receiver can hold the answer back.
 *
 * A `mode` comes first: `system` goes back to the machine's time (every earlier move dropped),
 * `manual` stops the clock at its current reading; the move, if one comes with it, follows.
 */
export async function moveClock(
  services: Pick<Services, 'clock' | 'ticker' | 'store'>,
  change: ClockMove,
): Promise<Date> {
  const { clock, ticker, store } = services;
  if (change.mode !== undefined && !clock.setMode) {
    throw new ValidationFailure([
      { loc: ['body', 'mode'], msg: 'This clock cannot change its mode', type: 'value_error' },
    ]);
  }
  // The move is tried first on a clock of the new mode, so that a refused one changes nothing.
  const trial = change.mode === 'system' ? systemClock() : manualClock(clock.now());
  applyMove(trial, change);
  assertClockSpan(store.origin(), trial.now(), clock.now());
  if (change.mode !== undefined) clock.setMode?.(change.mode);
  applyMove(clock, change);
  // The world keeps the clock, so that a restart from its file goes on from where it stood.
  await store.transact((write) => {
    write.world.sandbox_state.clock =
      clock.mode === 'manual' ? { mode: 'manual', now: clock.now().toISOString() } : { mode: 'system' };
  });
  await ticker.run();
  // ...and the datasets clients reached are built for the new time before the move answers.
  await ticker.settled(LIVING_DATASETS);
  return clock.now();
}

/**
 * The clock a world was left with (see moveClock): a manual clock at its last reading, or the
 * machine's time; none when no one moved it.
 */
export function keptClock(world: World): Clock | undefined {
  const kept = world.sandbox_state?.clock;
  if (kept?.mode === 'manual' && kept.now !== undefined) return manualClock(new Date(kept.now));
  if (kept?.mode === 'system') return systemClock();
  return undefined;
}

/** The pace of the clock's day and every change of pace (GET /__sandbox/pace). */
export function paceState(world: World, today: string): { pace: Pace; changes: PaceChange[] } {
  const changes = world.sandbox_state.pace?.changes ?? [];
  return { pace: paceOn(changes, today), changes: [...changes] };
}

/**
 * Sets the pace from a day on (default: the clock's day): a change from the same day replaces the
 * earlier one. The store builds the living datasets again under it.
 */
export async function setPace(
  store: WorldStore,
  pace: Pace,
  from: string = store.today(),
): Promise<{ pace: Pace; changes: PaceChange[] }> {
  return store.transact((write) => {
    const kept = (write.world.sandbox_state.pace?.changes ?? []).filter((change) => change.from !== from);
    const changes = [...kept, { from, pace }].sort((a, b) => a.from.localeCompare(b.from));
    write.world.sandbox_state.pace = { changes };
    return paceState(write.world, write.today());
  });
}

/**
 * Puts the seeded world back, as if it were made at the clock's instant: that is its new origin
 * (its datasets' history ends on its day, and the clock may move the span of living days after it).
 */
export async function resetSandbox(
  services: Pick<Services, 'store' | 'config' | 'requests' | 'faults' | 'clock'>,
): Promise<void> {
  const { store, config } = services;
  // In its turn, as every write: a write under way ends before the world is replaced.
  await store.transact((write) => {
    const seeded = seedWorld(config.seed, write.world.meta.size, undefined, write.world.meta.keys_salt);
    seeded.meta.origin = originOf(services.clock).toISOString();
    // Neither the clock nor the pace is reset: the world goes on where it stands, at its pace.
    const { clock, pace } = write.world.sandbox_state;
    if (clock) seeded.sandbox_state.clock = clock;
    if (pace) seeded.sandbox_state.pace = pace;
    // The connections' life goes on from where it was: the days before are not played again.
    const life = write.world.sandbox_state[LIFE_CURSOR];
    if (life) seeded.sandbox_state[LIFE_CURSOR] = life;
    write.replace(seeded);
  });
  // The request journal and the faults are the app's, not the world's: a reset empties them too.
  services.requests.clear();
  services.faults.clear();
}

/** The sandbox clock as the helpers of `startSandbox()` hand it out. */
export interface SandboxClock {
  /** `system` follows the machine's time (plus the moves); `manual` stands still until moved. */
  readonly mode: 'system' | 'manual';
  now(): Date;
  /**
   * Moves the clock by `seconds` (negative: back), as `POST /__sandbox/clock {"advance_seconds"}`
   * does: background work that came due is done before the promise resolves, with the new time.
   */
  advance(seconds: number): Promise<Date>;
  /** Sets the clock to an instant (a Date or an ISO date-time with its offset), as `{"now"}` does. */
  set(instant: Date | string): Promise<Date>;
  /**
   * As `{"mode"}` does: `system` goes back to the machine's time (every move dropped) and follows
   * it; `manual` stops the clock at its current reading.
   */
  setMode(mode: ClockMode): Promise<Date>;
}

/** The control helpers of an app: the same domain code as the control endpoints. */
export function sandboxControls(services: Services): {
  clock: SandboxClock;
  reset(): Promise<void>;
  /** As POST /__sandbox/pace: the pace of the generated business from a day (default: the clock's) on. */
  setPace(pace: Pace, from?: string): Promise<{ pace: Pace; changes: PaceChange[] }>;
} {
  // The endpoint's own check of its body (the century either way, an ISO date-time with an offset).
  const checked = (change: unknown): ClockMove => {
    const result = ClockChange.safeParse(change);
    if (!result.success) {
      throw new RangeError(`Invalid clock move: ${result.error.issues.map((i) => i.message).join('; ')}`);
    }
    return result.data as ClockMove;
  };
  return {
    clock: {
      get mode() {
        return services.clock.mode;
      },
      now: () => services.clock.now(),
      advance: async (seconds) => moveClock(services, checked({ advance_seconds: seconds })),
      set: async (instant) =>
        moveClock(services, checked({ now: instant instanceof Date ? instant.toISOString() : instant })),
      setMode: async (mode) => moveClock(services, checked({ mode })),
    },
    reset: async () => resetSandbox(services),
    setPace: async (pace, from) => {
      const checked = PaceSet.safeParse({ pace, from });
      if (!checked.success) {
        throw new RangeError(`Invalid pace: ${checked.error.issues.map((i) => i.message).join('; ')}`);
      }
      return setPace(services.store, checked.data.pace, checked.data.from);
    },
  };
}
