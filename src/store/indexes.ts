import { rawOf } from './unit-of-work.js';
import type { ConnectionRecord, ConsumerRecord, World } from './world.js';

/**
 * In-memory secondary indexes of a world: the consumers of an (account, environment) and the
 * connections of a consumer. Enumerating a map of 100,000 records costs tens of milliseconds, so
 * lists and lookups go through these instead. They are built from the world on first use (once per
 * world object: a reset builds new ones), then kept up to date by putConsumer/putConnection, which
 * every code path that adds a consumer or a connection uses. Removals need no call: a lookup skips
 * (and forgets) ids the world no longer holds.
 */
interface Indexes {
  consumersByEnv: Map<string, Set<string>>;
  connectionsByConsumer: Map<string, Set<string>>;
}

const cache = new WeakMap<World, Indexes>();
const envKey = (accountid: string, envid: string) => `${accountid}:${envid}`;

function indexesOf(view: World): Indexes {
  // Keyed on the world itself: a write sees it through a tracking view, which is another object.
  const world = rawOf(view);
  let indexes = cache.get(world);
  if (indexes) return indexes;
  indexes = { consumersByEnv: new Map(), connectionsByConsumer: new Map() };
  for (const consumer of Object.values(world.consumers))
    addTo(indexes.consumersByEnv, envKey(consumer.accountid, consumer.envid), consumer.consumerid);
  for (const connection of Object.values(world.connections))
    addTo(indexes.connectionsByConsumer, connection.consumerid, connection.connectionid);
  cache.set(world, indexes);
  return indexes;
}

function addTo(map: Map<string, Set<string>>, key: string, id: string) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(id);
}

/** Starts the indexes of a world that is still empty, so that every record is indexed as it is put. */
export function startIndexes(world: World): void {
  indexesOf(world);
}

export function putConsumer(world: World, record: ConsumerRecord): void {
  world.consumers[record.consumerid] = record;
  const indexes = cache.get(rawOf(world));
  if (indexes) addTo(indexes.consumersByEnv, envKey(record.accountid, record.envid), record.consumerid);
}

export function putConnection(world: World, record: ConnectionRecord): void {
  world.connections[record.connectionid] = record;
  const indexes = cache.get(rawOf(world));
  if (indexes) addTo(indexes.connectionsByConsumer, record.consumerid, record.connectionid);
}

/** Consumers of an environment, in the order they were added. */
export function consumersOfEnvironment(world: World, accountid: string, envid: string): ConsumerRecord[] {
  const out: ConsumerRecord[] = [];
  eachConsumerOfEnvironment(world, accountid, envid, (consumer) => {
    out.push(consumer);
  });
  return out;
}

/** The same, one at a time: a search of 100,000 consumers need not hold them all in an array. */
export function eachConsumerOfEnvironment(
  world: World,
  accountid: string,
  envid: string,
  visit: (consumer: ConsumerRecord) => void,
): void {
  const ids = indexesOf(world).consumersByEnv.get(envKey(accountid, envid));
  if (!ids) return;
  for (const id of ids) {
    const consumer = world.consumers[id];
    if (consumer) visit(consumer);
    else ids.delete(id);
  }
}

/** Connections of a consumer, active and inactive, in the order they were added. */
export function connectionsOfConsumer(world: World, consumerid: string): ConnectionRecord[] {
  const ids = indexesOf(world).connectionsByConsumer.get(consumerid);
  const out: ConnectionRecord[] = [];
  if (!ids) return out;
  for (const id of ids) {
    const connection = world.connections[id];
    if (connection && connection.consumerid === consumerid) out.push(connection);
    else ids.delete(id);
  }
  return out;
}
