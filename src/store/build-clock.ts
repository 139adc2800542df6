import { livingSpanEnd } from '../lib/budgets.js';
import { DEFAULT_MANUAL_START } from '../lib/clock.js';
import { NORMAL_PACE, type PaceChange, type PaceOf, paceOf } from '../lib/pace.js';
import type { World } from './world.js';

/** The origin of a world that has none: the default manual clock's start. */
const DEFAULT_ORIGIN = DEFAULT_MANUAL_START.toISOString();

/**
 * What a store's generated datasets are built for besides the seed and their arguments: the world's
 * origin, the sandbox clock's minute (bounded by the span of living days after the origin) and the
 * world's pace; and the minute and pace those in memory were built for, so that the store knows when
 * the living ones are out of date. Each derived form (the pace's factors, its key) is computed once
 * per change of the world's pace, not at every read.
 */
export class BuildClock {
  readonly #world: () => World;
  /** The sandbox clock, once an app owns the store; until then its default start. */
  #now: () => Date = () => DEFAULT_MANUAL_START;
  /** The last day of living business datasets are built for, for the origin it was computed from. */
  #spanEnd: { origin: string; end: string } | null = null;
  /** The minute (since the epoch) the living datasets in memory were built for. */
  #minute: number | null = null;
  /** The changes of pace the datasets in memory were built under, and their factors. */
  #paceChanges: readonly PaceChange[] | undefined;
  #paceOf: PaceOf = NORMAL_PACE;
  #builtChanges: readonly PaceChange[] | undefined;
  #builtUnder: string | null = null;
  /** The world's changes of pace as a key of shared datasets, and the changes it was made of. */
  #paceKeyOf: readonly PaceChange[] | undefined;
  #paceKey = '';

  /** `world`: the store's world now (a reset replaces it). */
  constructor(world: () => World) {
    this.#world = world;
  }

  /** Lets datasets built on first use follow the sandbox clock (see `today`). */
  use(now: () => Date): void {
    this.#now = now;
  }

  today(): string {
    return this.#now().toISOString().slice(0, 10);
  }

  builtAt(): string {
    // The minute the datasets in memory were built for, while a write holds them (see `moved`).
    const minute = this.#minute ?? Math.floor(this.#now().getTime() / 60_000);
    return new Date(minute * 60_000).toISOString();
  }

  origin(): string {
    return this.#world().meta.origin ?? DEFAULT_ORIGIN;
  }

  /**
   * The instant datasets are built for: builtAt(), but never past the span of living days a world
   * may have after its origin (lib/budgets.ts): a system clock that drifts past it over real years
   * finds the business stopped there.
   */
  buildAt(): string {
    const at = this.builtAt();
    const origin = this.origin();
    if (this.#spanEnd?.origin !== origin) this.#spanEnd = { origin, end: livingSpanEnd(origin) };
    return at > this.#spanEnd.end ? this.#spanEnd.end : at;
  }

  pace(): PaceOf {
    const changes = this.#world().sandbox_state?.pace?.changes;
    if (changes !== this.#paceChanges) {
      this.#paceChanges = changes;
      this.#paceOf = paceOf(changes);
    }
    return this.#paceOf;
  }

  /** The world's changes of pace as JSON: part of the key of a living dataset (see shared-datasets.ts). */
  paceKey(): string {
    const changes = this.#world().sandbox_state?.pace?.changes;
    if (changes !== this.#paceKeyOf) {
      this.#paceKeyOf = changes;
      this.#paceKey = JSON.stringify(changes ?? []);
    }
    return this.#paceKey;
  }

  /**
   * Whether the clock's minute or the world's pace is another than the living datasets in memory
   * were built for; if so, they are from now on built for the new ones (the caller drops those in
   * memory).
   */
  moved(): boolean {
    // The minute as a number: every read of a dataset asks, and formatting a date is not free.
    const minute = Math.floor(this.#now().getTime() / 60_000);
    const changes = this.#world().sandbox_state?.pace?.changes;
    if (minute === this.#minute && changes === this.#builtChanges) return false;
    this.#builtChanges = changes;
    // A record written again with the same changes builds nothing again.
    const under = JSON.stringify(changes ?? []);
    if (minute === this.#minute && under === this.#builtUnder) return false;
    this.#minute = minute;
    this.#builtUnder = under;
    return true;
  }
}
