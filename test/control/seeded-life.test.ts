import { describe, expect, it } from 'vitest';
import { LIFE_RATE, lifeOfDay } from '../../src/control/seeded-life.js';
import { crowdConsumerIds } from '../../src/control/seeded-world.js';
import { call, SEED, sandbox, type TestSandbox } from '../helpers.js';

/**
 * The seeded life of connections: now and then a connection of the crowd sees its credentials
 * expire or its software unreachable; never a well-known consumer's; the same for the same moves;
 * none with connectionLife 'off'.
 */

const DAY = 86_400;

/** Each connection's status, outage and update time, by id. */
function connectionsOf(t: TestSandbox): Record<string, string> {
  return Object.fromEntries(
    Object.values(t.app.services.store.world.connections).map((c) => [
      c.connectionid,
      `${c.status} ${c.outage ? `${c.outage.kind} ${c.outage.since}-${c.outage.until}` : '-'} ${c.updated_on}`,
    ]),
  );
}

/** The issues a new app of the same seed starts with. */
function seededIssues(t: TestSandbox): Record<string, unknown> {
  return sandbox({ seed: t.app.services.store.world.meta.seed }).app.services.store.world.issues;
}

async function days(t: TestSandbox, count: number): Promise<void> {
  for (let day = 0; day < count; day++) {
    const moved = await call(t.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: DAY } });
    expect(moved.status).toBe(200);
  }
}

describe('the seeded life of connections', () => {
  it('touches a few crowd connections over months, never a well-known one, the same way for the same moves', async () => {
    const a = sandbox();
    const b = sandbox();
    const off = sandbox({ connectionLife: 'off' });
    const before = connectionsOf(a);
    await days(a, 150);
    await days(b, 150);
    await days(off, 150);
    const after = connectionsOf(a);
    expect(connectionsOf(b)).toEqual(after);
    expect(connectionsOf(off)).toEqual(before);
    const changed = Object.keys(after).filter((id) => after[id] !== before[id]);
    expect(changed.length).toBeGreaterThan(0);
    const world = a.app.services.store.world;
    const crowd = new Set(crowdConsumerIds(world, SEED));
    for (const id of changed) expect(crowd.has(world.connections[id]?.consumerid ?? '')).toBe(true);
    // The well-known consumers are not the crowd.
    for (const consumer of Object.values(a.ids.verticalConsumers)) expect(crowd.has(consumer)).toBe(false);
    // Each expiry opened an issue.
    const expired = changed.filter((id) => world.connections[id]?.status === 'inactive');
    for (const id of expired) {
      expect(
        Object.values(world.issues).some((issue) => issue.connection_id === id && issue.status === 'open'),
      ).toBe(true);
    }
  }, 120_000);

  it('starts with the day the app starts on: the months before are not played at once, and a reset keeps where it stands', async () => {
    // A world first used months after the seed's start, on a clock that then moves an hour.
    const late = sandbox({ clock: new Date('2026-11-26T10:00:00.000Z') });
    const before = connectionsOf(late);
    const moved = await call(late.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 3_600 } });
    expect(moved.status).toBe(200);
    expect(connectionsOf(late)).toEqual(before);
    expect(Object.keys(late.app.services.store.world.issues).length).toBe(
      Object.keys(seededIssues(late)).length,
    );
    // Days that end are played from there on, and a reset keeps the last day played.
    await days(late, 3);
    const cursor = late.app.services.store.world.sandbox_state['life:connections'];
    expect(cursor).toEqual({ through: '2026-11-28' });
    expect((await call(late.app, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect(late.app.services.store.world.sandbox_state['life:connections']).toEqual(cursor);
  });

  it('draws about the documented rate', () => {
    const connections = Array.from({ length: 5_000 }, (_, i) => ({
      connectionid: `c${i}`,
      agent: i % 10 === 0,
    }));
    let hits = 0;
    const kinds = new Set<string>();
    for (let day = 1; day <= 60; day++) {
      const happenings = lifeOfDay(
        SEED,
        new Date(Date.UTC(2026, 2, day)).toISOString().slice(0, 10),
        connections,
      );
      hits += happenings.length;
      for (const h of happenings) kinds.add(h.event);
    }
    const expected = 5_000 * 60 * LIFE_RATE;
    expect(hits).toBeGreaterThan(expected * 0.75);
    expect(hits).toBeLessThan(expected * 1.25);
    expect([...kinds].sort()).toEqual(['agent_down', 'credentials_expired', 'unreachable']);
  });
});
