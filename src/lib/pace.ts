/**
 * The pace of a world's generated business: how many sales, invoices, bank lines and stays a day
 * draws against a usual day. A world's pace changes from a given day on; the days before keep the
 * pace they were generated with, so a change never rewrites what a client already read.
 */
export const PACES = ['quiet', 'normal', 'busy'] as const;
export type Pace = (typeof PACES)[number];

/** The factor each pace applies to the counts a day draws. */
export const PACE_FACTORS: Readonly<Record<Pace, number>> = { quiet: 0.4, normal: 1, busy: 2.5 };

/** A change of pace: the pace of the days from `from` (YYYY-MM-DD) on. */
export interface PaceChange {
  from: string;
  pace: Pace;
}

/** The factor of a day's business, from a world's changes of pace (in the order they were made). */
export type PaceOf = (day: string) => number;

/** The pace of every day when the world never changed it. */
export const NORMAL_PACE: PaceOf = () => 1;

/** The factor of each day under a list of changes (a later change wins from its day on). */
export function paceOf(changes: readonly PaceChange[] | undefined): PaceOf {
  if (!changes || changes.length === 0) return NORMAL_PACE;
  const sorted = [...changes].sort((a, b) => a.from.localeCompare(b.from));
  return (day) => PACE_FACTORS[paceIn(sorted, day)];
}

/** The pace of a day under a list of changes, by name. */
export function paceOn(changes: readonly PaceChange[] | undefined, day: string): Pace {
  return paceIn(
    [...(changes ?? [])].sort((a, b) => a.from.localeCompare(b.from)),
    day,
  );
}

/** The pace of a day under changes sorted by day. */
function paceIn(sorted: readonly PaceChange[], day: string): Pace {
  let pace: Pace = 'normal';
  for (const change of sorted) {
    if (change.from > day) break;
    pace = change.pace;
  }
  return pace;
}
