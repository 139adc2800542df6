import { createHash } from 'node:crypto';
import { dayNumber, dayOfInstant, FIRST_DAY, isoDay } from '../lib/calendar.js';
import { manualClock } from '../lib/clock.js';
import { own } from '../lib/own.js';
import { applyLifeEvent, type LifeEvent } from '../modules/connections/index.js';
import type { Services } from '../platform/context.js';
import type { TickTask } from '../platform/ticker.js';
import { connectionsOfConsumer } from '../store/indexes.js';
import { crowdConsumerIds } from './seeded-world.js';

/**
 * The seeded life of connections: on the crowd of the seeded world (never on the well-known
 * consumers), now and then a connection's credentials expire, its software cannot be reached for
 * a few hours, or its local agent stops answering for a while. Which connection, which day and at
 * what time follow from the seed and the day alone, so the same clock moves give the same life.
 * Off with `connectionLife: 'off'` (`--connection-life off`); scripted with the timeline.
 */

/** The chance, per connection of the crowd and per day, that something happens to it. */
export const LIFE_RATE = 0.001;
/** A clock moved further at once plays the life of these last days only. */
export const MAX_LIFE_DAYS = 31;
/** The world's note of the last day whose life was played (sandbox_state). */
export const LIFE_CURSOR = 'life:connections';
const CURSOR = LIFE_CURSOR;

export type ConnectionLifeMode = 'seeded' | 'off';

/** A number in [0, 1) drawn from its parts. */
function draw(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join(':')).digest().readUInt32BE(0) / 2 ** 32;
}

/** What happens on one day, in order of time: a connection, the event, its instant and its end. */
export function lifeOfDay(
  seed: number,
  day: string,
  connections: readonly { connectionid: string; agent: boolean }[],
): { connectionid: string; event: LifeEvent; at: string; until: string | null }[] {
  if (connections.length === 0) return [];
  // As many draws as it takes for the expected count: each draw hits one connection of the crowd.
  const expected = connections.length * LIFE_RATE;
  const slots = Math.max(1, Math.ceil(expected * 4));
  const out: { connectionid: string; event: LifeEvent; at: string; until: string | null }[] = [];
  const start = Date.parse(`${day}T00:00:00.000Z`);
  for (let slot = 0; slot < slots; slot++) {
    if (draw('life', seed, day, slot) >= expected / slots) continue;
    const target = connections[Math.floor(draw('life-who', seed, day, slot) * connections.length)];
    if (!target) continue;
    const kind = draw('life-what', seed, day, slot);
    const at = start + Math.floor(draw('life-when', seed, day, slot) * 20 * 3_600) * 1000 + 2 * 3_600_000;
    const hours = 1 + Math.floor(draw('life-long', seed, day, slot) * 6);
    const instant = new Date(at).toISOString();
    if (kind < 0.5) {
      out.push({ connectionid: target.connectionid, event: 'credentials_expired', at: instant, until: null });
    } else {
      const event: LifeEvent = target.agent && kind >= 0.8 ? 'agent_down' : 'unreachable';
      const until = new Date(at + hours * 3_600_000).toISOString();
      out.push({ connectionid: target.connectionid, event, at: instant, until });
    }
  }
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

/**
 * Background task: once a day is over, plays its seeded life on the crowd's connections (active
 * ones), through the same functions as the timeline. The world keeps the last day played.
 */
export function connectionLifeTask(services: Services, mode: ConnectionLifeMode): TickTask {
  // The life starts with the day the app starts on: a server started today on a world first seeded
  // long ago does not play the months before at once.
  const started = dayOfInstant(services.clock.now().getTime()) - 1;
  return (store) => {
    if (mode === 'off') return;
    const world = store.world;
    // Days as numbers (epoch days): the last one over, and the last one played.
    const last = dayNumber(store.today()) - 1;
    const kept = dayNumber(world.sandbox_state[CURSOR]?.through ?? '');
    const through = kept > started ? kept : started;
    if (through >= last) return;
    const seed = world.meta.seed;
    const crowd = crowdConsumerIds(world, seed).flatMap((consumerid) =>
      connectionsOfConsumer(world, consumerid).map((connection) => ({
        connectionid: connection.connectionid,
        agent: services.catalogue.get(connection.integrationid)?.local_agent === true,
      })),
    );
    const oldest = Math.max(last - MAX_LIFE_DAYS + 1, FIRST_DAY);
    for (let n = Math.max(through + 1, oldest); n <= last; n++) {
      for (const happening of lifeOfDay(seed, isoDay(n), crowd)) {
        const connection = own(world.connections, happening.connectionid);
        const consumer = connection ? own(world.consumers, connection.consumerid) : undefined;
        if (!connection || !consumer || connection.status !== 'active') continue;
        const clock = manualClock(new Date(happening.at));
        applyLifeEvent(
          { ...services, store, clock },
          consumer,
          connection,
          happening.event,
          happening.at,
          happening.until,
        );
      }
    }
    world.sandbox_state[CURSOR] = { through: isoDay(last) };
  };
}
