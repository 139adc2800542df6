import type { World } from '../store/world.js';
import { addDays } from './seeding/vertical-data.js';

/**
 * How a vertical announces the business its living days generate (events for what happened as the
 * clock passed it): the world keeps, per vertical, the last instant announced (`sandbox_state`), so
 * a restart announces nothing twice, and a clock moved far at once announces the last days only.
 */

/** A clock moved further than this at once announces the business of these last days only. */
export const MAX_ANNOUNCED_DAYS = 31;

/** The instant announced through: a day (as earlier worlds kept it) stands for its last instant. */
export function announcedThrough(kept: string | undefined): string | undefined {
  return kept !== undefined && kept.length === 10 ? `${kept}T23:59:59.999Z` : kept;
}

/** The oldest instant a run at `now` announces business from. */
export const oldestAnnounced = (now: string): string =>
  `${addDays(now.slice(0, 10), -MAX_ANNOUNCED_DAYS)}T00:00:00.000Z`;

/** Whether an active webhook listens to `event`: nothing is built to announce when none does. */
export const eventListened = (world: World, event: string): boolean =>
  Object.values(world.webhooks).some((webhook) => webhook.status === 'active' && webhook.event === event);
