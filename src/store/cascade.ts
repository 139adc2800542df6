import type { WorldStore } from './store.js';

/**
 * Removes everything that belongs to a consumer: every record of any collection that names the
 * consumer, then every record that names one of the removed connections, and its generated datasets
 * (keyed by consumer first), in memory or not. New collections that carry `consumerid` or
 * `connectionid` are covered without a change here.
 */
export function removeConsumerData(store: WorldStore, consumerid: string): void {
  const world = store.world;
  store.forgetGenerated(`${consumerid}:`);
  const connections = new Set<string>();
  for (const connection of Object.values(world.connections)) {
    if (connection.consumerid === consumerid) connections.add(connection.connectionid);
  }
  for (const [name, collection] of Object.entries(world)) {
    if (name === 'meta' || collection === null || typeof collection !== 'object') continue;
    const records = collection as Record<string, Record<string, unknown>>;
    for (const [key, record] of Object.entries(records)) {
      if (record === null || typeof record !== 'object') continue;
      const owner = record.consumerid;
      const connection = record.connectionid;
      if (owner === consumerid || (typeof connection === 'string' && connections.has(connection))) {
        delete records[key];
      }
    }
  }
}
