import { TIMELINE_BUDGET } from '../lib/budgets.js';
import { messages } from '../lib/errors.js';
import { measure } from '../lib/measure.js';
import { FixtureError, formatPath, type PathPart } from '../platform/fixtures/errors.js';

/**
 * The budget of a timeline declaration (lib/budgets.ts), checked on the events as declared before
 * anything of them is read or done: the events it makes happen, each repeat counted, and what their
 * blocks hold (items and bytes) times their repeats. A repeated block is work each time it happens.
 */

const WHAT = 'The timeline declaration';

export const amount = (n: number): string => n.toLocaleString('en-US');

/** The repeats of an event as declared (one, for anything its schema will refuse anyway). */
function repeatsOf(raw: unknown): number {
  const repeat = (raw as { repeat?: unknown } | null)?.repeat;
  return typeof repeat === 'number' && Number.isInteger(repeat) && repeat > 1 ? repeat : 1;
}

/** A 422 naming the budget passed, at the declaration's path. */
function overBudget(bound: string, detail: string, path: readonly PathPart[], file: string | null): never {
  throw new FixtureError(422, messages.overBudget(WHAT, bound), { path: formatPath(path), detail, file });
}

/**
 * Refuses a declaration of `raws` (the events as sent) past the timeline's budget, with a 422 at
 * `path` that says which bound and by which event; answers how many events it declares.
 */
export function assertTimelineBudget(
  raws: readonly unknown[],
  path: readonly PathPart[],
  file: string | null,
): number {
  const budget = TIMELINE_BUDGET;
  const split = 'declare fewer, or in several calls';
  let events = 0;
  let items = 0;
  let bytes = 0;
  raws.forEach((raw, index) => {
    const repeat = repeatsOf(raw);
    const where = `events[${index}]${repeat > 1 ? `, repeated ${amount(repeat)} times` : ''}`;
    events += repeat;
    if (events > budget.events) {
      overBudget(
        `${amount(budget.events)} events`,
        `With ${where}, it declares ${amount(events)} events (each repeat counts): ${split}`,
        path,
        file,
      );
    }
    // Measured no further than what the budget leaves for this event's repeats.
    const size = measure(raw, {
      items: Math.floor((budget.items - items) / repeat),
      bytes: Math.floor((budget.bytes - bytes) / repeat),
    });
    items += size.items * repeat;
    bytes += size.bytes * repeat;
    if (size.over === 'items') {
      overBudget(
        `${amount(budget.items)} items`,
        `With ${where}, its events make more than ${amount(budget.items)} items happen (the elements of their blocks' lists, each repeat counted): ${split}`,
        path,
        file,
      );
    }
    if (size.over === 'bytes') {
      overBudget(
        `${amount(budget.bytes)} bytes`,
        `With ${where}, its events' blocks weigh more than ${amount(budget.bytes)} bytes as JSON (each repeat counted): ${split}`,
        path,
        file,
      );
    }
  });
  return events;
}
