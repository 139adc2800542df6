import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { seedWorld } from '../../seed/world.js';
import { registerAutomationControl } from './automation-control.js';
import { registerDeliveryControl } from './delivery-control.js';
import * as routes from './sandbox.routes.js';

export function registerSandboxControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getClock, (c) => {
    const clock = c.get('clock');
    return c.json({ now: clock.now().toISOString(), mode: clock.mode }, 200);
  });

  app.openapi(routes.setClock, async (c) => {
    const clock = c.get('clock');
    const ticker = c.get('ticker');
    const change = c.req.valid('json');
    // The clock refuses (422) a move out of its range and then stays where it was.
    if (change.advance_seconds !== undefined) clock.advance(change.advance_seconds);
    if (change.now !== undefined) clock.set(new Date(change.now));
    // Whatever came due is done before the answer (finished executions, scheduled runs); webhook
    // attempts that came due are started, not awaited, so no receiver can hold the answer back.
    await ticker.run();
    return c.json({ now: clock.now().toISOString(), mode: clock.mode }, 200);
  });

  app.openapi(routes.reset, async (c) => {
    const store = c.get('store');
    const config = c.get('config');
    await store.replace(seedWorld(config.seed, store.world.meta.size));
    return c.json({ status: 'reset' as const, seed: config.seed }, 200);
  });
  registerDeliveryControl(app);
  registerAutomationControl(app);
}
