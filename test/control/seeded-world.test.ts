import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { keptSnapshots, seedWorld } from '../../src/control/seeded-world.js';

/**
 * The default world of a seed is built once and copied for each app, reset and world over HTTP: each
 * copy is a world of its own, equal to a world built anew, and the process keeps at most a few seeds'
 * worlds to copy, however many seeds its worlds name.
 */
describe('the seeded default world', () => {
  it('hands out copies of their own: what one app changes, the next copy does not see', async () => {
    const first = seedWorld(4242);
    const consumers = Object.keys(first.consumers).length;
    first.consumers = {};
    first.meta.seed = -1;
    const second = seedWorld(4242);
    expect(Object.keys(second.consumers)).toHaveLength(consumers);
    expect(second.meta.seed).toBe(4242);
    expect(seedWorld(4242)).toStrictEqual(second);
    const app = createApp({ seed: 4242 });
    expect(Object.keys(app.services.store.world.consumers)).toHaveLength(consumers);
  });

  it('keeps at most 16 seeds’ worlds, however many seeds are asked for', () => {
    for (let seed = 9000; seed < 9040; seed++) seedWorld(seed);
    expect(keptSnapshots()).toBeLessThanOrEqual(16);
    expect(seedWorld(9000).meta.seed).toBe(9000);
  });
});
