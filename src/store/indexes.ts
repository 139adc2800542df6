import { own } from '../lib/own.js';
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
  consumerTextChanged(world, record);
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
    const consumer = own(world.consumers, id);
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
    const connection = own(world.connections, id);
    if (connection && connection.consumerid === consumerid) out.push(connection);
    else ids.delete(id);
  }
  return out;
}

/**
 * The consumer search of an environment: consumers in blocks, each block holding the lower-cased
 * text of its consumers' searched fields in one string, so a search is a native indexOf over a few
 * megabytes instead of a pattern tested field by field on every consumer. A block's text is built on
 * the first search after one of its consumers was added or changed. A hit is only a candidate: the
 * caller checks it with the search's own rule (stale text, a match across two fields).
 */
const BLOCK_SIZE = 512;

interface TextBlock {
  ids: string[];
  /** null: to be built again. */
  text: string | null;
  /** Where each consumer's part of `text` ends. */
  ends: number[];
}

interface SearchIndex {
  blocks: TextBlock[];
  blockOf: Map<string, TextBlock>;
}

const searchCache = new WeakMap<World, Map<string, SearchIndex>>();

function searchIndexOf(world: World, accountid: string, envid: string): SearchIndex {
  let byEnv = searchCache.get(world);
  if (!byEnv) {
    byEnv = new Map();
    searchCache.set(world, byEnv);
  }
  const key = envKey(accountid, envid);
  let index = byEnv.get(key);
  if (index) return index;
  index = { blocks: [], blockOf: new Map() };
  for (const id of indexesOf(world).consumersByEnv.get(key) ?? []) addToSearch(index, id);
  byEnv.set(key, index);
  return index;
}

function addToSearch(index: SearchIndex, id: string): void {
  let block = index.blocks.at(-1);
  if (!block || block.ids.length >= BLOCK_SIZE) {
    block = { ids: [], text: null, ends: [] };
    index.blocks.push(block);
  }
  block.ids.push(id);
  block.text = null;
  index.blockOf.set(id, block);
}

/** Keeps the search of an environment up to date when a consumer is added or its fields change. */
export function consumerTextChanged(world: World, record: ConsumerRecord): void {
  const index = searchCache.get(rawOf(world))?.get(envKey(record.accountid, record.envid));
  if (!index) return;
  const block = index.blockOf.get(record.consumerid);
  if (block) block.text = null;
  else addToSearch(index, record.consumerid);
}

const searchedText = (consumer: ConsumerRecord) =>
  `${consumer.name}\u0000${consumer.email ?? ''}\u0000${consumer.internal_reference ?? ''}\u0000`.toLowerCase();

/**
 * The consumers of an environment whose searched fields may hold `needle` (lower-case ASCII), in the
 * order they were added: candidates, to be checked by the caller.
 */
export function searchCandidates(
  view: World,
  accountid: string,
  envid: string,
  needle: string,
  visit: (consumer: ConsumerRecord) => void,
): void {
  const world = rawOf(view);
  const index = searchIndexOf(world, accountid, envid);
  for (const block of index.blocks) {
    if (block.text === null) {
      let text = '';
      block.ends = [];
      for (const id of block.ids) {
        const consumer = own(world.consumers, id);
        if (consumer) text += searchedText(consumer);
        block.ends.push(text.length);
      }
      block.text = text;
    }
    const { text, ends, ids } = block;
    let from = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) break;
      // The consumer whose part holds the hit: the first whose part ends after it.
      let low = 0;
      let high = ends.length - 1;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((ends[mid] as number) > at) high = mid;
        else low = mid + 1;
      }
      const consumer = own(world.consumers, ids[low] as string);
      if (consumer) visit(consumer);
      from = ends[low] as number;
    }
  }
}
