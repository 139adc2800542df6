import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { VERTICALS } from '../../src/verticals.js';
import { call, SEED, sandboxToken } from '../helpers.js';

const tokenOf = (app: ReturnType<typeof createApp>) => sandboxToken({ app, ids: seedDirectory(SEED) });

/** The app is composed of the vertical modules it is given: a vertical left out is not there at all. */

const without = (...keys: string[]) => VERTICALS.filter((module) => !keys.includes(module.key));

describe('the list of vertical modules', () => {
  it('a vertical left out of the list has no routes, no collection, no fixture block and no cube', async () => {
    const app = createApp({ seed: SEED, verticals: without('payment') });
    const ids = seedDirectory(SEED);
    const token = await tokenOf(app);
    const consumer = ids.verticalConsumers.PAYMENT as string;

    const read = await call(app, 'GET', `/consumers/${consumer}/payment/payments`, { token });
    expect(read.status).toBe(404);
    // The other verticals answer as before.
    const pos = await call(app, 'GET', `/consumers/${ids.verticalConsumers.POS}/pos/locations`, { token });
    expect(pos.status).toBe(200);

    expect(Object.keys(app.services.store.world)).not.toContain('payment_datasets');
    expect(Object.keys(app.services.store.world)).toContain('pos_datasets');

    const schema = await call(app, 'GET', '/__sandbox/fixtures/schema');
    expect(JSON.stringify(schema.body)).not.toContain('"payment"');
    expect(JSON.stringify(schema.body)).toContain('"pos"');

    const published = await call(app, 'GET', '/openapi.json');
    expect(Object.keys(published.body.paths).some((path) => path.includes('/payment/'))).toBe(false);
    expect(Object.keys(published.body.paths).some((path) => path.includes('/pos/'))).toBe(true);
  });

  it('the whole list serves every vertical, and the cubes of those that have one', async () => {
    const app = createApp({ seed: SEED });
    const token = await tokenOf(app);
    const cubes = await call(app, 'GET', '/datalab/cube-schemas', { token });
    expect(cubes.status).toBe(200);
    const names = (cubes.body as { name: string }[]).map((cube) => cube.name);
    const withCubes = VERTICALS.flatMap((module) => (module.cubes ?? []).map((cube) => cube.name));
    expect(withCubes.length).toBeGreaterThan(0);
    expect(names).toEqual(['consumers', 'connections', ...withCubes]);

    const fewer = createApp({ seed: SEED, verticals: without('pos', 'pms') });
    const fewerCubes = await call(fewer, 'GET', '/datalab/cube-schemas', { token: await tokenOf(fewer) });
    const fewerNames = (fewerCubes.body as { name: string }[]).map((cube) => cube.name);
    expect(fewerNames.length).toBeLessThan(names.length);
    for (const cube of VERTICALS.find((module) => module.key === 'pos')?.cubes ?? [])
      expect(fewerNames).not.toContain(cube.name);
  });

  it('a vertical built on another needs it in the list', () => {
    expect(() => createApp({ seed: SEED, verticals: without('pos') })).toThrow(
      'The pms vertical is built on pos: add it to the list too',
    );
    expect(() => createApp({ seed: SEED, verticals: without('pos', 'pms') })).not.toThrow();
  });
});
