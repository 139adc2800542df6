import { sandboxEnv } from '../../control/env.js';
import { VERTICAL_SHOWCASE } from '../../control/seeded-world.js';
import type { Catalogue } from '../../platform/catalogue.js';
import type { World } from '../../store/world.js';

/**
 * Path segment after /consumers/{consumer_id} of each vertical (its descriptor's key), by its env
 * name (control/env.ts), in the order of the showcase consumers, and the custom connectors' segment.
 */
const VERTICAL_SEGMENTS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(VERTICAL_SHOWCASE.map((showcase) => [showcase.envName, showcase.key])),
  CUSTOM: 'custom',
};

/**
 * What the page prefills with: the seeded sandbox key, and a consumer id per path segment after
 * /consumers/{consumer_id} ('' for the others: the accounting consumer), those `env` prints.
 */
export function docsPrefill(world: World, origin: string, catalogue: Catalogue) {
  const env = new Map(sandboxEnv(world, origin, catalogue));
  const consumerIds: Record<string, string> = {};
  for (const [name, segment] of Object.entries(VERTICAL_SEGMENTS)) {
    const id = env.get(`SANDBOX_CONSUMER_ID_${name}`);
    if (id) consumerIds[segment] = id;
  }
  const fallback = consumerIds.accounting ?? Object.values(consumerIds)[0];
  if (fallback) consumerIds[''] = fallback;
  const syncConsumer = env.get('SANDBOX_SYNC_CONSUMER_ID');
  if (syncConsumer && world.consumers[syncConsumer]) consumerIds.syncs = syncConsumer;
  return {
    accountId: env.get('SANDBOX_ACCOUNT_ID') ?? '',
    clientId: env.get('SANDBOX_CLIENT_ID') ?? '',
    clientSecret: env.get('SANDBOX_CLIENT_SECRET') ?? '',
    consumer_ids: consumerIds,
  };
}
