import { connectionsOfConsumer } from '../store/indexes.js';
import type { WorldStore } from '../store/store.js';
import type { ConnectionRecord, ConsumerRecord, World } from '../store/world.js';
import type { ApiName, Catalogue } from './catalogue.js';

/**
 * What a cube of the Datalab is: the members it names and how to read them off a row, and where its
 * rows come from. The helpers every cube is written with (counts, sums, the owner dimensions, the
 * active connections of a One API) are here; the cubes themselves are in datalab.cubes.ts (platform
 * data) and in each vertical's folder (<vertical>.cube.ts).
 */

export type MemberType = 'string' | 'number' | 'time' | 'boolean';
export type Aggregation = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'countDistinct';
// biome-ignore lint/suspicious/noExplicitAny: a row is whatever record the cube reads members from
export type Row = any;

export interface DimensionDef {
  name: string;
  title: string;
  type: MemberType;
  description: string;
  primaryKey?: boolean;
  values?: string[];
  /**
   * The axis the dimension is aligned on when queries are joined (POST /datalab/query-groups-join):
   * dimensions of different cubes that share an axis can be joined, and the axis names the column.
   */
  alignAxis?: string;
  get: (row: Row) => string | number | boolean | null;
}

export interface MeasureDef {
  name: string;
  title: string;
  description: string;
  agg: Aggregation;
  /** The value aggregated (count: none). */
  get?: (row: Row) => number | string | null;
  monetary?: boolean;
}

export interface RowSource {
  world: World;
  /** The store, whose datasets are built on first use. */
  store: WorldStore;
  catalogue: Catalogue;
  /** The consumers the caller reaches, narrowed by a consumer_id filter when the query has one. */
  consumers: ConsumerRecord[];
  /** The sandbox clock when the query runs: rows show the world as of it (due POS orders closed). */
  now: Date;
}

export interface CubeDef {
  name: string;
  title: string;
  description: string;
  domain: string | null;
  /** The One API whose datasets the cube reads, or null for platform data. */
  api: ApiName | null;
  measures: MeasureDef[];
  dimensions: DimensionDef[];
  relationships: { target: string; relationship: 'one_to_one' | 'one_to_many' | 'many_to_one' }[];
  /**
   * The rows, read lazily (connection after connection): a query aggregates them as they come and
   * keeps none. A cube reads datasets in passing ('peek') and changes nothing.
   */
  rows: (source: RowSource) => Iterable<Row>;
  currency?: (row: Row) => string | null;
}

export const count = (name: string, title: string, description: string): MeasureDef => ({
  name,
  title,
  description,
  agg: 'count',
});

export const sumOf = (
  name: string,
  title: string,
  get: (row: Row) => number | null,
  monetary = true,
): MeasureDef => ({
  name,
  title,
  description: `Sum of ${title.toLowerCase()}`,
  agg: 'sum',
  get,
  monetary,
});

type DimensionOptions = Pick<DimensionDef, 'primaryKey' | 'values' | 'alignAxis'>;

/** The axis every time dimension is aligned on: the instant (its bucket, with a granularity). */
export const TIME_AXIS = 'date';

const dimensionOf =
  (type: MemberType, defaults: DimensionOptions = {}) =>
  (
    name: string,
    title: string,
    description: string,
    get: DimensionDef['get'],
    options: DimensionOptions = {},
  ): DimensionDef => ({ name, title, type, description, ...defaults, ...options, get });

/** A dimension of text. */
export const stringDimension = dimensionOf('string');
/** A dimension of an instant (ISO 8601), aligned on the time axis. */
export const timeDimension = dimensionOf('time', { alignAxis: TIME_AXIS });
/** A dimension of a number. */
export const numberDimension = dimensionOf('number');

/** The id of a thing: a text dimension titled "<Thing> id", described "Id of the <thing>". */
export const idDimension = (
  name: string,
  thing: string,
  get: DimensionDef['get'],
  options: DimensionOptions = {},
): DimensionDef =>
  stringDimension(
    name,
    `${thing.charAt(0).toUpperCase()}${thing.slice(1)} id`,
    `Id of the ${thing}`,
    get,
    options,
  );

/** The currency of the record a row is (an order, an invoice). */
export const currencyDimension = (record: string, get: DimensionDef['get']): DimensionDef =>
  stringDimension('currency', 'Currency', `Currency of the ${record}`, get, { alignAxis: 'currency' });

/** Active connections of a One API among the given consumers, consumer after consumer. */
export function* activeConnections(source: RowSource, api: ApiName): Generator<ConnectionRecord> {
  for (const consumer of source.consumers) {
    for (const connection of connectionsOfConsumer(source.world, consumer.consumerid)) {
      if (connection.status === 'active' && source.catalogue.get(connection.integrationid)?.api === api) {
        yield connection;
      }
    }
  }
}

/**
 * Not a row: what `connectionRows` yields before it reads a connection's dataset. `ready` settles
 * once that dataset is built in slices and in memory (undefined when it is there already, or when
 * the cube builds none), so that a query waits for it with the other requests going on, then reads
 * it at once, rather than generating it in one piece in the middle of its loop.
 */
export class BetweenConnections {
  constructor(readonly ready: Promise<void> | undefined) {}
}

/**
 * The rows of the active connections of a One API: what `rowsOf` reads off each connection, with
 * the consumer and connection it belongs to (the owner dimensions), one connection at a time, each
 * after a BetweenConnections that `prepare` (the connection's dataset built in slices) makes ready.
 */
export function* connectionRows(
  source: RowSource,
  api: ApiName,
  rowsOf: (connection: ConnectionRecord) => Iterable<object>,
  prepare?: (connection: ConnectionRecord) => Promise<void> | undefined,
): Generator<Row> {
  for (const connection of activeConnections(source, api)) {
    yield new BetweenConnections(prepare?.(connection));
    for (const row of rowsOf(connection)) {
      yield { ...row, consumerid: connection.consumerid, connectionid: connection.connectionid };
    }
  }
}

/** The consumer and connection every row belongs to: dimensions of every cube. */
export const OWNER_DIMENSIONS: DimensionDef[] = [
  idDimension('consumer_id', 'consumer', (r) => r.consumerid, { alignAxis: 'consumer_id' }),
  idDimension('connection_id', 'connection', (r) => r.connectionid, { alignAxis: 'connection_id' }),
];
