import type { OpenAPIHono } from '@hono/zod-openapi';
import { registerAutomationControl } from '../modules/syncs/index.js';
import { registerDeliveryControl } from '../modules/webhooks/index.js';
import type { AppEnv } from '../platform/context.js';
import { registerFaultControl } from './faults.js';
import { registerFixtureControl } from './fixtures.control.js';
import { registerRequestControl } from './requests/index.js';
import { type ClockMove, moveClock, paceState, resetSandbox, setPace } from './sandbox.domain.js';
import * as routes from './sandbox.routes.js';
import { registerTimelineControl } from './timeline.js';

export function registerSandboxControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getClock, (c) => {
    const clock = c.get('clock');
    return c.json({ now: clock.now().toISOString(), mode: clock.mode }, 200);
  });

  app.openapi(routes.setClock, async (c) => {
    const clock = c.get('clock');
    // The clock refuses (422) a move out of its range and then stays where it was; whatever came due
    // is done before the answer (see moveClock).
    const now = await moveClock(
      { clock, ticker: c.get('ticker'), store: c.get('store') },
      c.req.valid('json') as ClockMove,
    );
    return c.json({ now: now.toISOString(), mode: clock.mode }, 200);
  });

  app.openapi(routes.getPace, (c) => {
    const store = c.get('store');
    return c.json(paceState(store.world, store.today()), 200);
  });

  app.openapi(routes.setPace, async (c) => {
    const { pace, from } = c.req.valid('json');
    return c.json(await setPace(c.get('store'), pace, from), 200);
  });

  app.openapi(routes.reset, async (c) => {
    const config = c.get('config');
    // The journal and faults too (see resetSandbox).
    await resetSandbox({
      store: c.get('store'),
      config,
      requests: c.get('requests'),
      faults: c.get('faults'),
      clock: c.get('clock'),
    });
    return c.json({ status: 'reset' as const, seed: config.seed }, 200);
  });
  registerDeliveryControl(app);
  registerAutomationControl(app);
  registerRequestControl(app);
  registerFaultControl(app);
  registerFixtureControl(app);
  registerTimelineControl(app);
}
