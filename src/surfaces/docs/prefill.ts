import { sandboxEnv } from '../../control/env.js';
import type { Catalogue } from '../../platform/catalogue.js';
import type { World } from '../../store/world.js';

/** Path segment after /consumers/{consumer_id} of each vertical, by its env name (seed/env.ts). */
const VERTICAL_SEGMENTS: Record<string, string> = {
  ACCOUNTING: 'accounting',
  POS: 'pos',
  ECOMMERCE: 'commerce',
  INVOICING: 'invoicing',
  BANKING: 'banking',
  PAYMENT: 'payment',
  PMS: 'pms',
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
