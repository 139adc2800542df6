import { connectionsOfConsumer } from '../../store/indexes.js';
import { commerceOrdersCube } from '../commerce/commerce.cube.js';
import { pmsInvoicesCube } from '../pms/pms.cube.js';
import { posOrdersCube } from '../pos/pos.cube.js';
import { type CubeDef, count } from './datalab.cube-def.js';

/**
 * The cubes of the sandbox's Datalab: the account's consumers and connections (defined here), and
 * the orders and invoices kept by the POS, eCommerce and PMS connections of its consumers (each in
 * its vertical's folder, <vertical>.cube.ts). The rows are read from the world when a query runs.
 */

/** Datasets a single query may read: more is refused, asking for a consumer_id filter. */
export const MAX_DATASETS_PER_QUERY = 50;

const consumersCube: CubeDef = {
  name: 'consumers',
  title: 'Consumers',
  description: 'The consumers (end clients) of the environment',
  domain: null,
  api: null,
  measures: [count('count', 'Number of consumers', 'How many consumers')],
  dimensions: [
    {
      name: 'consumer_id',
      title: 'Consumer id',
      type: 'string',
      description: 'Id of the consumer',
      primaryKey: true,
      get: (r) => r.consumerid,
    },
    {
      name: 'name',
      title: 'Name',
      type: 'string',
      description: 'Name of the consumer',
      get: (r) => r.name,
    },
    {
      name: 'internal_reference',
      title: 'Internal reference',
      type: 'string',
      description: "The vendor's reference",
      get: (r) => r.internal_reference,
    },
    {
      name: 'created_on',
      title: 'Created on',
      type: 'time',
      description: 'When the consumer was created',
      get: (r) => r.created_on,
    },
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
    {
      name: 'connection_id',
      title: 'Connection id',
      type: 'string',
      description: 'Id of the connection',
      primaryKey: true,
      get: (r) => r.connection.connectionid,
    },
    {
      name: 'consumer_id',
      title: 'Consumer id',
      type: 'string',
      description: 'Id of the consumer',
      get: (r) => r.connection.consumerid,
    },
    {
      name: 'integration_id',
      title: 'Integration id',
      type: 'number',
      description: 'Id of the integration',
      get: (r) => r.connection.integrationid,
    },
    {
      name: 'integration_name',
      title: 'Integration',
      type: 'string',
      description: 'Name of the integration',
      get: (r) => r.integration,
    },
    {
      name: 'api',
      title: 'One API',
      type: 'string',
      description: 'The vertical of the integration',
      get: (r) => r.api,
    },
    {
      name: 'status',
      title: 'Status',
      type: 'string',
      description: 'active or inactive',
      values: ['active', 'inactive'],
      get: (r) => r.connection.status,
    },
    {
      name: 'created_on',
      title: 'Created on',
      type: 'time',
      description: 'When the connection was made',
      get: (r) => r.connection.created_on,
    },
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  rows: (source) =>
    source.consumers.flatMap((consumer) =>
      connectionsOfConsumer(source.world, consumer.consumerid).map((connection) => {
        const integration = source.catalogue.get(connection.integrationid);
        return { connection, integration: integration?.name ?? null, api: integration?.api ?? null };
      }),
    ),
};

export const CUBES: CubeDef[] = [
  consumersCube,
  connectionsCube,
  posOrdersCube,
  commerceOrdersCube,
  pmsInvoicesCube,
];
