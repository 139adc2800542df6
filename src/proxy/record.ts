import { VERTICAL_SHOWCASE } from '../control/seeded-world.js';
import { yamlModule } from '../lib/yaml.js';
import { VERTICALS } from '../verticals.js';
import type { Exchange } from './checks.js';
import { FakeValues } from './fake-values.js';

/**
 * The world a client read, kept as a fixture document (docs/fixtures.md) that `--fixtures` loads:
 * the consumers it read, each with the connection of every vertical it read records of, and those
 * records (the kinds below, which a fixture declares through the body of the operation that creates
 * them). Ids are kept (a consumer's, a record's), so that the client's ids work offline; personal
 * values are replaced by generated ones of the same shape (fake-values.ts), unless `keepValues`.
 *
 * What a record keeps is what the create operation's body takes (its schema in the served document),
 * nulls left out. The document replaces the seeded world's consumers (`replace: true`); a recorded
 * connection gets an id of its own, hence a seeded dataset of its own besides the recorded records.
 */

type Json = Record<string, unknown>;

/** The kinds recorded, by vertical and the collection's path segment: the fixture block's name. */
const RECORDED: Record<string, Record<string, string>> = {
  invoicing: { contacts: 'contacts' },
  accounting: { clients: 'clients', suppliers: 'suppliers' },
  pos: { customers: 'customers' },
};
/** Kinds that describe people or companies: their values are personal. */
const PERSONAL = new Set(['contacts', 'clients', 'suppliers', 'customers']);
const CONSUMER_FIELDS = ['name', 'email', 'internal_reference', 'redirect_url'];
/** Records kept at most per kind and connection (a fixture document takes 10,000 items). */
const MAX_RECORDS = 2000;

interface RecordedConsumer {
  id: string;
  fields: Json;
  /** Connections by vertical key: the integration and name the service answered. */
  connections: Map<string, { integration: number; name: string }>;
  /** Records by vertical key, then kind, by id. */
  records: Map<string, Map<string, Map<string, Json>>>;
}

export interface RecorderOptions {
  keepValues?: boolean;
  /** The request body schemas of the create operations, by the collection's published path. */
  createSchemas: (path: string) => Json | null;
  resolve: (schema: unknown) => Json | null;
}

export class WorldRecorder {
  readonly #consumers = new Map<string, RecordedConsumer>();
  /** Consumers as a list of them showed them, used for those the client then read about. */
  readonly #listed = new Map<string, Json>();
  readonly #options: RecorderOptions;
  readonly #fake = new FakeValues();

  constructor(options: RecorderOptions) {
    this.#options = options;
  }

  #consumer(id: string): RecordedConsumer {
    let consumer = this.#consumers.get(id);
    // Past the bound, what is read of further consumers lands on a record that is not kept.
    if (!consumer && this.#consumers.size >= MAX_RECORDS)
      return { id, fields: {}, connections: new Map(), records: new Map() };
    if (!consumer) {
      const listed = this.#listed.get(id) ?? {};
      const fields = Object.fromEntries(
        CONSUMER_FIELDS.flatMap((f) => (Object.hasOwn(listed, f) ? [[f, listed[f]]] : [])),
      );
      consumer = { id, fields, connections: new Map(), records: new Map() };
      this.#consumers.set(id, consumer);
    }
    return consumer;
  }

  /** Reads what an exchange tells of the world: a read the service answered with a 2xx. */
  add(exchange: Exchange): void {
    if (exchange.method !== 'GET' || exchange.status >= 300 || exchange.template === null) return;
    const body = exchange.responseBody;
    if (body === undefined || body === null || typeof body !== 'object') return;
    if (exchange.template === '/consumers') {
      this.#list(body);
      return;
    }
    const names = exchange.template.split('/');
    const values = exchange.path.split('/');
    if (names[1] !== 'consumers' || names[2] !== '{consumer_id}' || values.length !== names.length) return;
    const consumerId = decodeURIComponent(values[2] as string);
    if (names.length === 3) {
      const consumer = this.#consumer(consumerId);
      for (const field of CONSUMER_FIELDS)
        if (Object.hasOwn(body, field)) consumer.fields[field] = (body as Json)[field];
      return;
    }
    if (names.length === 4 && names[3] === 'connections' && Array.isArray(body)) {
      this.#connections(this.#consumer(consumerId), body as Json[]);
      return;
    }
    const area = names[3] as string;
    const kind = RECORDED[area]?.[names[4] as string];
    if (kind === undefined || (names.length !== 5 && !(names.length === 6 && names[5]?.startsWith('{'))))
      return;
    const items = names.length === 5 ? ((body as Json).items ?? body) : [body];
    if (!Array.isArray(items)) return;
    const schema = this.#options.createSchemas(names.slice(0, 5).join('/'));
    if (schema === null) return;
    const consumer = this.#consumer(consumerId);
    const byKind = consumer.records.get(area) ?? new Map<string, Map<string, Json>>();
    consumer.records.set(area, byKind);
    const records = byKind.get(kind) ?? new Map<string, Json>();
    byKind.set(kind, records);
    for (const item of items) {
      if (!item || typeof item !== 'object' || typeof (item as Json).id !== 'string') continue;
      if (records.size >= MAX_RECORDS) break;
      const kept = this.#bodyOf(item, schema, 0) as Json;
      records.set((item as Json).id as string, { id: (item as Json).id, ...kept });
    }
  }

  #list(body: object): void {
    const items = Array.isArray(body) ? body : (body as Json).items;
    if (!Array.isArray(items)) return;
    for (const item of items)
      if (item && typeof item.consumerid === 'string' && this.#listed.size < MAX_RECORDS)
        this.#listed.set(item.consumerid, item);
  }

  /** The connection a vertical's records go to: the one the client listed, else the vertical's showcase. */
  #connectionOf(consumer: RecordedConsumer, area: string): { integration: number; name: string } | null {
    const listed = consumer.connections.get(area);
    if (listed) return listed;
    const module = VERTICALS.find((candidate) => candidate.key === area);
    const showcase = VERTICAL_SHOWCASE.find((entry) => entry.api === module?.api);
    return showcase ? { integration: showcase.integrationid, name: module?.api ?? area } : null;
  }

  #connections(consumer: RecordedConsumer, connections: Json[]): void {
    for (const connection of connections) {
      if (connection.status !== 'active' || typeof connection.integrationid !== 'number') continue;
      const module = VERTICALS.find((candidate) => candidate.api === connection.api);
      if (!module || consumer.connections.has(module.key)) continue;
      consumer.connections.set(module.key, {
        integration: connection.integrationid,
        name: String(connection.name ?? connection.integration ?? ''),
      });
    }
  }

  /** What of a value the create operation's body takes: its schema's properties, nulls left out. */
  #bodyOf(value: unknown, raw: unknown, depth: number): unknown {
    const schema = this.#options.resolve(raw);
    if (depth > 12 || !schema) return value;
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches)) {
      const fitting = branches
        .map((branch) => this.#options.resolve(branch))
        .find((branch) => branch && branch.type !== 'null');
      if (fitting) return this.#bodyOf(value, fitting, depth + 1);
    }
    if (Array.isArray(value)) return value.map((item) => this.#bodyOf(item, schema.items, depth + 1));
    if (value === null || typeof value !== 'object') return value;
    const properties = (schema.properties ?? null) as Json | null;
    if (properties === null) return value;
    const out: Json = {};
    for (const [name, field] of Object.entries(value as Json))
      if (field !== null && Object.hasOwn(properties, name))
        out[name] = this.#bodyOf(field, properties[name], depth + 1);
    return out;
  }

  /** The fixture document of what was read. */
  document(): Json {
    const keep = this.#options.keepValues === true;
    const consumers = [...this.#consumers.values()]
      .filter(
        (consumer) =>
          consumer.connections.size > 0 ||
          consumer.records.size > 0 ||
          Object.keys(consumer.fields).length > 0,
      )
      .map((consumer) => {
        const fields = keep ? consumer.fields : this.#fake.record(consumer.fields);
        const areas = new Set([...consumer.connections.keys(), ...consumer.records.keys()]);
        const connections = [...areas].flatMap((area) => {
          const connection = this.#connectionOf(consumer, area);
          if (connection === null) return [];
          const blocks: Json = {};
          for (const [kind, records] of consumer.records.get(area) ?? []) {
            const list = [...records.values()];
            blocks[kind] =
              keep || !PERSONAL.has(kind) ? list : list.map((record) => this.#fake.record(record));
          }
          return [
            {
              integration: connection.integration,
              ...(Object.keys(blocks).length > 0 ? { [area]: blocks } : {}),
            },
          ];
        });
        return {
          id: consumer.id,
          name: String(fields.name ?? 'Recorded consumer'),
          ...Object.fromEntries(
            CONSUMER_FIELDS.slice(1).flatMap((field) =>
              fields[field] == null ? [] : [[field, fields[field]]],
            ),
          ),
          ...(connections.length > 0 ? { connections } : {}),
        };
      });
    return { replace: true, consumers };
  }

  /** The document as YAML (a path ending in .yaml or .yml) or JSON. */
  text(path: string): string {
    const document = this.document();
    const head =
      '# A world recorded by unified-api-sandbox proxy: load it with --fixtures (docs/fixtures.md).\n';
    return /\.ya?ml$/i.test(path)
      ? `${head}${yamlModule().stringify(document)}`
      : `${JSON.stringify(document, null, 2)}\n`;
  }
}
