import { giveTurn } from '../../lib/slices.js';
import {
  type CubeDef,
  count,
  idDimension,
  numberDimension,
  stringDimension,
  timeDimension,
} from '../../platform/cube.js';
import type { AnyVerticalModule } from '../../platform/vertical-module.js';
import { connectionsOfConsumer } from '../../store/indexes.js';

/**
 * The cubes of the sandbox's Datalab: the account's consumers and connections (defined here), and
 * the orders and invoices kept by the verticals' connections of its consumers (each in its vertical's
 * folder, <vertical>.cube.ts, named by its module). The rows are read from the world when a query runs.
 */

const consumersCube: CubeDef = {
  name: 'consumers',
  title: 'Consumers',
  description: 'The consumers (end clients) of the environment',
  domain: null,
  api: null,
  measures: [count('count', 'Number of consumers', 'How many consumers')],
  dimensions: [
    idDimension('consumer_id', 'consumer', (r) => r.consumerid, {
      primaryKey: true,
      alignAxis: 'consumer_id',
    }),
    stringDimension('name', 'Name', 'Name of the consumer', (r) => r.name),
    stringDimension(
      'internal_reference',
      'Internal reference',
      "The vendor's reference",
      (r) => r.internal_reference,
    ),
    timeDimension('created_on', 'Created on', 'When the consumer was created', (r) => r.created_on),
  ],
  relationships: [{ target: 'connections', relationship: 'one_to_many' }],
  rows: (source) => source.consumers,
};

const connectionsCube: CubeDef = {
  name: 'connections',
  title: 'Connections',
  description: 'The connections of the consumers to integrations, active and inactive',
  domain: null,
  api: null,
  measures: [count('count', 'Number of connections', 'How many connections')],
  dimensions: [
    idDimension('connection_id', 'connection', (r) => r.connection.connectionid, {
      primaryKey: true,
      alignAxis: 'connection_id',
    }),
    idDimension('consumer_id', 'consumer', (r) => r.connection.consumerid, { alignAxis: 'consumer_id' }),
    numberDimension(
      'integration_id',
      'Integration id',
      'Id of the integration',
      (r) => r.connection.integrationid,
    ),
    stringDimension('integration_name', 'Integration', 'Name of the integration', (r) => r.integration),
    stringDimension('api', 'One API', 'The vertical of the integration', (r) => r.api),
    stringDimension('status', 'Status', 'active or inactive', (r) => r.connection.status, {
      values: ['active', 'inactive'],
    }),
    timeDimension('created_on', 'Created on', 'When the connection was made', (r) => r.connection.created_on),
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  rows: function* (source) {
    for (const consumer of source.consumers) {
      for (const connection of connectionsOfConsumer(source.world, consumer.consumerid)) {
        const integration = source.catalogue.get(connection.integrationid);
        yield { connection, integration: integration?.name ?? null, api: integration?.api ?? null };
      }
    }
  },
};

const PLATFORM_CUBES: readonly CubeDef[] = [consumersCube, connectionsCube];

const composed = new WeakMap<readonly AnyVerticalModule[], readonly CubeDef[]>();

/** The cubes of an app: the platform's, then each vertical's in the order of the list. */
export function cubesOf(verticals: readonly AnyVerticalModule[]): readonly CubeDef[] {
  let cubes = composed.get(verticals);
  if (!cubes) {
    cubes = [...PLATFORM_CUBES, ...verticals.flatMap((module) => module.cubes ?? [])];
    composed.set(verticals, cubes);
  }
  return cubes;
}

/**
 * The same, for a query: the first time, each vertical is loaded (on first use: tens of milliseconds
 * each) in a turn of its own, the other requests answered between them.
 */
export async function cubesInTurns(verticals: readonly AnyVerticalModule[]): Promise<readonly CubeDef[]> {
  if (!composed.has(verticals)) {
    for (const module of verticals) {
      void module.cubes;
      await giveTurn();
    }
  }
  return cubesOf(verticals);
}
