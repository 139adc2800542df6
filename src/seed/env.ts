import { own } from '../lib/own.js';
import type { World } from '../store/world.js';
import { type Catalogue, loadCatalogue } from './catalogue.js';
import { seedCredentials } from './credentials.js';
import { seedDirectory, VERTICAL_SHOWCASE } from './world.js';

/**
 * The dotenv lines of `unified-api-sandbox env`: the url and the seeded credentials, and for each
 * vertical a sandbox consumer of the world that has an active connection of that vertical (the
 * seeded showcase consumer while it still qualifies, else the first that does).
 */
export function sandboxEnv(world: World, baseUrl: string, catalogue: Catalogue = loadCatalogue()) {
  const seed = world.meta.seed;
  const creds = seedCredentials(seed);
  const directory = seedDirectory(seed);
  const lines: [string, string][] = [
    ['SANDBOX_BASE_URL', baseUrl],
    ['SANDBOX_ACCOUNT_ID', creds.accountId],
    ['SANDBOX_CLIENT_ID', creds.sandbox.clientId],
    ['SANDBOX_CLIENT_SECRET', creds.sandbox.clientSecret],
    ['SANDBOX_PRODUCTION_CLIENT_ID', creds.production.clientId],
    ['SANDBOX_PRODUCTION_CLIENT_SECRET', creds.production.clientSecret],
    ['SANDBOX_RESTRICTED_CLIENT_ID', creds.restricted.clientId],
    ['SANDBOX_RESTRICTED_CLIENT_SECRET', creds.restricted.clientSecret],
    ['SANDBOX_RESTRICTED_CONSUMER_ID', creds.restricted.consumerId],
  ];
  const activeApis = new Map<string, Set<string>>();
  for (const connection of Object.values(world.connections)) {
    if (connection.status !== 'active') continue;
    const api = catalogue.get(connection.integrationid)?.api;
    if (!api) continue;
    const set = activeApis.get(connection.consumerid) ?? new Set<string>();
    set.add(api);
    activeApis.set(connection.consumerid, set);
  }
  const qualifies = (consumerid: string, api: string) => {
    const consumer = own(world.consumers, consumerid);
    return consumer?.envid === creds.sandboxEnvId && activeApis.get(consumerid)?.has(api) === true;
  };
  for (const showcase of VERTICAL_SHOWCASE) {
    const preferred = directory.verticalConsumers[showcase.envName] ?? '';
    const id = qualifies(preferred, showcase.api)
      ? preferred
      : Object.keys(world.consumers).find((consumerid) => qualifies(consumerid, showcase.api));
    if (id) lines.push([`SANDBOX_CONSUMER_ID_${showcase.envName}`, id]);
  }
  lines.push(['SANDBOX_SYNC_ID', directory.syncId]);
  lines.push(['SANDBOX_SYNC_CONSUMER_ID', directory.syncConsumerId]);
  return lines;
}

export const formatDotenv = (lines: [string, string][]) => lines.map(([k, v]) => `${k}=${v}`).join('\n');
