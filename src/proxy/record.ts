import { VERTICAL_SHOWCASE } from '../control/seeded-world.js';
import { yamlModule } from '../lib/yaml.js';
import { VERTICALS } from '../verticals.js';
import type { Exchange } from './checks.js';
import { FakeValues } from './fake-values.js';
import {
  blockItemSchema,
  type Holding,
  pickBySchema,
  RECORDED_KINDS,
  recordedKindAt,
} from './record-kinds.js';

/**
 * The world a client read, kept as a fixture document (docs/fixtures.md) that `--fixtures` loads:
 * the consumers it read, each with the connection of every vertical it read records of, and those
 * records (the kinds of record-kinds.ts). Ids are kept (a consumer's, a connection's, a record's), so
 * that the client's ids work offline; personal values are replaced by generated ones of the same
 * shape (fake-values.ts), unless `keepValues`.
 *
 * What a record keeps is what its block takes (the create operation's body, as the served document
 * has it, or the block's own schema), nulls left out. The document replaces the seeded world's
 * consumers (`replace: true`); a connection with recorded records holds those alone (`seeded: false`)
 * where its vertical's data is the connection's own. A record naming one the client never read is
 * left out, and counted (`leftOut()`, and a comment of the YAML).
 */

type Json = Record<string, unknown>;

/** Verticals whose data is the consumer's, not the connection's: their connections keep the seeded records. */
const SHARED_DATA = new Set(['accounting']);
const CONSUMER_FIELDS = ['name', 'email', 'internal_reference', 'redirect_url'];
/** Records kept at most per kind and connection (a fixture document takes 10,000 items). */
const MAX_RECORDS = 2000;

interface RecordedConsumer {
  id: string;
  fields: Json;
  /** Connections by vertical key: the id, integration and name the service answered. */
  connections: Map<string, Connection>;
  /** Records by vertical key, then kind, by id. */
  records: Map<string, Map<string, Map<string, Json>>>;
  /** Codes of the invoicing taxes the client read, by id. */
  taxes: Map<string, string>;
}

interface Connection {
  id?: string;
  integration: number;
  name: string;
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
      return { id, fields: {}, connections: new Map(), records: new Map(), taxes: new Map() };
    if (!consumer) {
      const listed = this.#listed.get(id) ?? {};
      const fields = Object.fromEntries(
        CONSUMER_FIELDS.flatMap((f) => (Object.hasOwn(listed, f) ? [[f, listed[f]]] : [])),
      );
      consumer = { id, fields, connections: new Map(), records: new Map(), taxes: new Map() };
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
    const below = names.slice(3).join('/');
    if (below === 'invoicing/taxes' && Array.isArray((body as Json).items ?? body)) {
      const taxes = this.#consumer(consumerId).taxes;
      for (const tax of ((body as Json).items ?? body) as Json[])
        if (typeof tax?.id === 'string' && typeof tax.code === 'string' && taxes.size < MAX_RECORDS)
          taxes.set(tax.id, tax.code);
      return;
    }
    const single = names.length === 6 && names[5]?.startsWith('{');
    const kind = recordedKindAt(single ? names.slice(3, 5).join('/') : below);
    if (kind === undefined || (names.length !== 5 && !single)) return;
    const items = single ? [body] : ((body as Json).items ?? body);
    if (!Array.isArray(items)) return;
    const schema = kind.shape === 'body' ? this.#options.createSchemas(names.slice(0, 5).join('/')) : null;
    const itemSchema = kind.shape === 'block' ? blockItemSchema(kind.vertical, kind.kind) : null;
    if (schema === null && itemSchema === null) return;
    const query = new URLSearchParams(exchange.query);
    const consumer = this.#consumer(consumerId);
    const byKind = consumer.records.get(kind.vertical) ?? new Map<string, Map<string, Json>>();
    consumer.records.set(kind.vertical, byKind);
    const records = byKind.get(kind.kind) ?? new Map<string, Json>();
    byKind.set(kind.kind, records);
    for (const item of items) {
      if (!item || typeof item !== 'object' || typeof (item as Json).id !== 'string') continue;
      if (records.size >= MAX_RECORDS) break;
      const picked = (
        schema !== null ? this.#bodyOf(item, schema, 0) : pickBySchema(item, itemSchema as never)
      ) as Json;
      const kept = kind.adjust ? kind.adjust(picked, item as Json, query) : picked;
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
  #connectionOf(consumer: RecordedConsumer, area: string): Connection | null {
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
        ...(typeof connection.connectionid === 'string' ? { id: connection.connectionid } : {}),
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

  /**
   * The block of a vertical: its kinds in the order the loader applies them, each record with its
   * references settled (or left out, counted in `leftOut`), its personal values replaced.
   */
  #block(consumer: RecordedConsumer, area: string, leftOut: Map<string, number>): Json {
    const held = consumer.records.get(area) ?? new Map<string, Map<string, Json>>();
    const variants = new Set(
      [...(held.get('products')?.values() ?? [])].flatMap((product) =>
        Array.isArray(product.variants) ? product.variants.map((variant: Json) => String(variant.id)) : [],
      ),
    );
    const kept = new Map<string, Set<string>>();
    const holding: Holding = {
      has: (kind, id) => (kind === 'variants' ? variants.has(id) : (kept.get(kind)?.has(id) ?? false)),
      taxCode: (id) => consumer.taxes.get(id),
    };
    const block: Json = {};
    for (const kind of RECORDED_KINDS.filter((candidate) => candidate.vertical === area)) {
      const records = held.get(kind.kind);
      if (!records) continue;
      const list: Json[] = [];
      for (const record of records.values()) {
        const settled = kind.settle ? kind.settle(record, holding) : record;
        if ('leftOut' in settled) {
          const note = `${area} ${kind.kind}: ${String(settled.leftOut)}`;
          leftOut.set(note, (leftOut.get(note) ?? 0) + 1);
          continue;
        }
        list.push(settled);
      }
      kept.set(kind.kind, new Set(list.map((record) => String(record.id))));
      const keep = this.#options.keepValues === true || !kind.personal;
      if (list.length > 0) block[kind.kind] = keep ? list : list.map((record) => this.#fake.record(record));
    }
    return block;
  }

  /** The fixture document of what was read. */
  document(): Json {
    return this.#build(new Map());
  }

  /** The records left out of the document, by kind and reason: each names a record the client never read. */
  leftOut(): Record<string, number> {
    const leftOut = new Map<string, number>();
    this.#build(leftOut);
    return Object.fromEntries(leftOut);
  }

  #build(leftOut: Map<string, number>): Json {
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
          const block = this.#block(consumer, area, leftOut);
          const recorded = consumer.records.has(area);
          return [
            {
              ...(connection.id !== undefined ? { id: connection.id } : {}),
              integration: connection.integration,
              // The case replayed is the one read: no seeded records beside it, where the data is the connection's.
              ...(recorded && !SHARED_DATA.has(area) ? { seeded: false } : {}),
              ...(Object.keys(block).length > 0 ? { [area]: block } : {}),
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
    const leftOut = new Map<string, number>();
    const document = this.#build(leftOut);
    const notes = [...leftOut].map(([note, count]) => `#   ${count} ${note}\n`).join('');
    const head = `# A world recorded by unified-api-sandbox proxy: load it with --fixtures (docs/fixtures.md).\n${
      notes ? `# Left out (each names a record the client never read):\n${notes}` : ''
    }`;
    return /\.ya?ml$/i.test(path)
      ? `${head}${yamlModule().stringify(document)}`
      : `${JSON.stringify(document, null, 2)}\n`;
  }
}
