import type { ApiName, Catalogue } from '../../seed/catalogue.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import type { WorldStore } from '../../store/store.js';
import type { ConnectionRecord, ConsumerRecord, PosDataset, World } from '../../store/world.js';
import { commerceDatasetOf, toOrderItem as toCommerceOrder } from '../commerce/commerce.domain.js';
import { pmsDatasetOf } from '../pms/pms.domain.js';
import { posDatasetOf } from '../pos/pos.domain.js';

/**
 * The cubes of the sandbox's Datalab: the account's consumers and connections, and the orders and
 * invoices kept by the POS, eCommerce and PMS connections of its consumers. Each cube names its
 * members and how to read them off a row; the rows are read from the world when a query runs.
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
  /** Called with every POS dataset a query reads, before its orders are read (due orders complete). */
  openedPosDataset: (dataset: PosDataset) => void;
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
  rows: (source: RowSource) => Row[];
  currency?: (row: Row) => string | null;
}

/** Datasets a single query may read: more is refused, asking for a consumer_id filter. */
export const MAX_DATASETS_PER_QUERY = 50;

const count = (name: string, title: string, description: string): MeasureDef => ({
  name,
  title,
  description,
  agg: 'count',
});

const sumOf = (
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

/** Active connections of a One API among the given consumers. */
export function activeConnections(source: RowSource, api: ApiName): ConnectionRecord[] {
  const out: ConnectionRecord[] = [];
  for (const consumer of source.consumers) {
    for (const connection of connectionsOfConsumer(source.world, consumer.consumerid)) {
      if (connection.status === 'active' && source.catalogue.get(connection.integrationid)?.api === api) {
        out.push(connection);
      }
    }
  }
  return out;
}

/** The consumer and connection every row belongs to: dimensions of every cube. */
const OWNER_DIMENSIONS: DimensionDef[] = [
  {
    name: 'consumer_id',
    title: 'Consumer id',
    type: 'string',
    description: 'Id of the consumer',
    get: (r) => r.consumerid,
  },
  {
    name: 'connection_id',
    title: 'Connection id',
    type: 'string',
    description: 'Id of the connection',
    get: (r) => r.connectionid,
  },
];

export const CUBES: CubeDef[] = [
  {
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
  },
  {
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
  },
  {
    name: 'pos_orders',
    title: 'POS orders',
    description: 'Orders of the Point of Sale connections',
    domain: 'pos',
    api: 'Point of Sale',
    measures: [
      count('count', 'Number of orders', 'How many orders'),
      sumOf('total', 'Total', (r) => r.order.total),
      sumOf('tax_amount', 'Tax amount', (r) => r.order.tax_amount),
      sumOf('total_tip', 'Tips', (r) => r.order.total_tip),
      {
        name: 'average_total',
        title: 'Average ticket',
        description: 'Average total of an order',
        agg: 'avg',
        get: (r) => r.order.total,
        monetary: true,
      },
      sumOf('guests', 'Guests', (r) => r.order.guests, false),
    ],
    dimensions: [
      {
        name: 'order_id',
        title: 'Order id',
        type: 'string',
        description: 'Id of the order',
        primaryKey: true,
        get: (r) => r.order.id,
      },
      ...OWNER_DIMENSIONS,
      {
        name: 'location_id',
        title: 'Location id',
        type: 'string',
        description: 'Id of the location',
        get: (r) => r.order.location_id,
      },
      {
        name: 'location_name',
        title: 'Location',
        type: 'string',
        description: 'Name of the location',
        get: (r) => r.location,
      },
      {
        name: 'mode',
        title: 'Mode',
        type: 'string',
        description: 'Eat in, takeaway or delivery',
        values: ['EAT_IN', 'TAKEAWAY', 'DELIVERY', 'UNKNOWN'],
        get: (r) => r.order.mode,
      },
      {
        name: 'source',
        title: 'Source',
        type: 'string',
        description: 'Where the order was taken',
        get: (r) => r.order.source,
      },
      {
        name: 'state',
        title: 'State',
        type: 'string',
        description: 'open or closed',
        values: ['open', 'closed'],
        get: (r) => (r.order.closing_date ? 'closed' : 'open'),
      },
      {
        name: 'currency',
        title: 'Currency',
        type: 'string',
        description: 'Currency of the order',
        get: (r) => r.order.currency,
      },
      {
        name: 'creation_date',
        title: 'Created',
        type: 'time',
        description: 'When the order was opened',
        get: (r) => r.order.creation_date,
      },
      {
        name: 'closing_date',
        title: 'Closed',
        type: 'time',
        description: 'When the order was paid and closed',
        get: (r) => r.order.closing_date,
      },
    ],
    relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
    currency: (r) => r.order.currency,
    rows: (source) =>
      activeConnections(source, 'Point of Sale').flatMap((connection) => {
        const dataset = posDatasetOf(source.store, connection);
        source.openedPosDataset(dataset);
        const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
        return Object.values(dataset.orders).map((order) => ({
          order,
          consumerid: connection.consumerid,
          connectionid: connection.connectionid,
          location: locations.get(order.location_id) ?? null,
        }));
      }),
  },
  {
    name: 'commerce_orders',
    title: 'eCommerce orders',
    description: 'Orders of the eCommerce connections',
    domain: 'commerce',
    api: 'eCommerce',
    measures: [
      count('count', 'Number of orders', 'How many orders'),
      sumOf('total', 'Total', (r) => r.order.total),
      sumOf('tax_amount', 'Tax amount', (r) => r.order.tax_amount),
      sumOf('refunded_amount', 'Refunded amount', (r) => r.order.refunded_amount),
      {
        name: 'customers',
        title: 'Customers',
        description: 'Distinct customers',
        agg: 'countDistinct',
        get: (r) => r.order.customer?.id ?? null,
      },
    ],
    dimensions: [
      {
        name: 'order_id',
        title: 'Order id',
        type: 'string',
        description: 'Id of the order',
        primaryKey: true,
        get: (r) => r.order.id,
      },
      ...OWNER_DIMENSIONS,
      {
        name: 'status',
        title: 'Status',
        type: 'string',
        description: 'Status of the order',
        values: ['cancelled_unpaid', 'cancelled', 'draft', 'confirmed', 'shipped', 'refunded'],
        get: (r) => r.order.status,
      },
      {
        name: 'currency',
        title: 'Currency',
        type: 'string',
        description: 'Currency of the order',
        get: (r) => r.order.currency,
      },
      {
        name: 'shipping_country',
        title: 'Shipping country',
        type: 'string',
        description: 'Country shipped to',
        get: (r) => r.order.shipping_address?.country ?? null,
      },
      {
        name: 'created_on',
        title: 'Created',
        type: 'time',
        description: 'When the order was placed',
        get: (r) => r.order.created_on,
      },
    ],
    relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
    currency: (r) => r.order.currency,
    rows: (source) =>
      activeConnections(source, 'eCommerce').flatMap((connection) => {
        const dataset = commerceDatasetOf(source.store, connection);
        return Object.values(dataset.orders).map((order) => ({
          order: toCommerceOrder(dataset, order),
          consumerid: connection.consumerid,
          connectionid: connection.connectionid,
        }));
      }),
  },
  {
    name: 'pms_invoices',
    title: 'PMS invoices',
    description: 'Invoices of the Property Management System connections (one per stay, at check-out)',
    domain: 'pms',
    api: 'Property Management System',
    measures: [
      count('count', 'Number of invoices', 'How many invoices'),
      sumOf('total', 'Total', (r) => r.invoice.total),
      sumOf('tax_amount', 'Tax amount', (r) => r.invoice.tax_amount),
      sumOf('untaxed_amount', 'Untaxed amount', (r) => r.invoice.untaxed_amount),
      sumOf('guests', 'Guests', (r) => r.guests, false),
    ],
    dimensions: [
      {
        name: 'invoice_id',
        title: 'Invoice id',
        type: 'string',
        description: 'Id of the invoice',
        primaryKey: true,
        get: (r) => r.invoice.id,
      },
      ...OWNER_DIMENSIONS,
      {
        name: 'location_id',
        title: 'Hotel id',
        type: 'string',
        description: 'Id of the hotel',
        get: (r) => r.invoice.location_id,
      },
      {
        name: 'location_name',
        title: 'Hotel',
        type: 'string',
        description: 'Name of the hotel',
        get: (r) => r.location,
      },
      {
        name: 'currency',
        title: 'Currency',
        type: 'string',
        description: 'Currency of the invoice',
        get: (r) => r.invoice.currency,
      },
      {
        name: 'creation_date',
        title: 'Invoiced',
        type: 'time',
        description: 'When the invoice was made (check-out)',
        get: (r) => r.invoice.creation_date,
      },
    ],
    relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
    currency: (r) => r.invoice.currency,
    rows: (source) =>
      activeConnections(source, 'Property Management System').flatMap((connection) => {
        const dataset = pmsDatasetOf(source.store, connection);
        const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
        return Object.values(dataset.invoices).map((invoice) => ({
          invoice,
          consumerid: connection.consumerid,
          connectionid: connection.connectionid,
          location: locations.get(invoice.location_id) ?? null,
          guests: dataset.orders[invoice.order_id]?.guests ?? null,
        }));
      }),
  },
];
