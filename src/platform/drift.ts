import type { Context, MiddlewareHandler } from 'hono';
import { type DriftEntry, refusalField } from '../lib/drift-file.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../lib/pagination.js';

/**
 * The sandbox following production where a drift file says how (`serve --drift FILE`): the entries
 * of the file it can follow change its answers here, and nowhere else; the others are the proxy's
 * alone (the same file serves both). What each followed kind changes:
 *
 * - `sandbox_error` at `message` (with the sandbox's message the finding saw): a refusal of that
 *   operation with that message answers the service's message; its status and error code stay;
 * - `sandbox_pagination` at `$.size`: a page of that list asked larger than the service's size (or
 *   asked with no size, when the default is larger) is answered at that size, items and `size` alike;
 * - `schema_deviation` of an enum (the document lists `one of ...`): the served document lists the
 *   service's value in that enum (a named enum, wherever the document uses it);
 * - `schema_deviation` of a required field answered `null`: the served document makes it nullable.
 *
 * The middleware and the document hook are installed only when at least one entry is followed: an
 * app without a drift file answers exactly as before.
 */

type Json = Record<string, unknown>;

/** What a followed entry changes. */
export type FollowedChange = 'error_message' | 'page_size' | 'enum_value' | 'nullable';

interface Rule {
  entry: DriftEntry;
  change: FollowedChange;
  method: string;
  segments: (string | null)[];
  literals: number;
}

/** The refusals whose message a followed entry may replace (those the proxy compares). */
const REFUSALS = new Set([400, 401, 403, 404, 422]);

/** A JSON text of a string, number or boolean, or undefined. */
function scalarOf(text: string | undefined): { value: string | number | boolean } | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? { value }
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the sandbox does with an entry, or null when it leaves it to the proxy. */
export function changeOf(entry: DriftEntry): FollowedChange | null {
  switch (entry.kind) {
    case 'sandbox_error':
      return entry.at === 'message' &&
        entry.sandbox !== undefined &&
        typeof scalarOf(entry.service)?.value === 'string'
        ? 'error_message'
        : null;
    case 'sandbox_pagination': {
      const size = scalarOf(entry.service)?.value;
      return entry.at === '$.size' && typeof size === 'number' && Number.isInteger(size) && size >= 1
        ? 'page_size'
        : null;
    }
    case 'schema_deviation':
      if (!entry.at.startsWith('$')) return null;
      if (entry.service === 'null' && entry.document?.endsWith('(required)')) return 'nullable';
      if (entry.document?.startsWith('one of ') && scalarOf(entry.service) !== undefined) return 'enum_value';
      return null;
    default:
      return null;
  }
}

const segmentsOf = (path: string) => path.split('/').filter((segment) => segment.length > 0);

/** The places of a body a finding names (`$.items[].status`): fields and lists' items. */
function stepsOf(at: string): string[] | null {
  const steps: string[] = [];
  const pattern = /\.([^.[\]]+)|\[\]/y;
  let index = 1;
  while (index < at.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(at);
    if (!match) return null;
    steps.push(match[1] ?? '[]');
    index = pattern.lastIndex;
  }
  return steps;
}

export class DriftFollowing {
  readonly entries: readonly DriftEntry[];
  readonly #rules: Rule[] = [];
  readonly #left: DriftEntry[] = [];

  constructor(entries: readonly DriftEntry[]) {
    this.entries = entries;
    for (const entry of entries) {
      const change = changeOf(entry);
      if (change === null) {
        this.#left.push(entry);
        continue;
      }
      const segments = segmentsOf(entry.path).map((segment) => (/^\{.+\}$/.test(segment) ? null : segment));
      this.#rules.push({
        entry,
        change,
        method: entry.method.toUpperCase(),
        segments,
        literals: segments.filter((segment) => segment !== null).length,
      });
    }
    // A request matches the operation with the most literal segments first, as the router does.
    this.#rules.sort((a, b) => b.literals - a.literals);
  }

  /** How many entries the sandbox follows. */
  get followed(): number {
    return this.#rules.length;
  }

  /** The entries read by the proxy only. */
  get leftToProxy(): readonly DriftEntry[] {
    return this.#left;
  }

  /** Whether an entry changes answers (then the app installs the middleware). */
  get changesAnswers(): boolean {
    return this.#rules.some((rule) => rule.change === 'error_message' || rule.change === 'page_size');
  }

  /** The rules of a change for the operation a request reaches (its most literal path first). */
  #rulesFor(change: FollowedChange, method: string, path: string): Rule[] {
    const segments = segmentsOf(path);
    let literals = -1;
    const out: Rule[] = [];
    for (const rule of this.#rules) {
      if (rule.change !== change || rule.method !== method || rule.segments.length !== segments.length)
        continue;
      if (!rule.segments.every((segment, i) => segment === null || segment === segments[i])) continue;
      if (literals !== -1 && rule.literals < literals) break;
      literals = rule.literals;
      out.push(rule);
    }
    return out;
  }

  /** The one middleware: a page size capped before the route, a refusal's message after it. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const method = c.req.method;
      if (method === 'GET') this.#capPageSize(c);
      await next();
      if (REFUSALS.has(c.res.status)) await this.#serviceMessage(c, method);
    };
  }

  #capPageSize(c: Context): void {
    const [rule] = this.#rulesFor('page_size', 'GET', c.req.path);
    if (!rule) return;
    const cap = scalarOf(rule.entry.service)?.value as number;
    const url = new URL(c.req.url);
    const raw = url.searchParams.get('size');
    const asked = raw === null ? DEFAULT_PAGE_SIZE : /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    // A size the document refuses is refused as before: the cap narrows the sizes it takes.
    if (!(asked > cap && asked <= MAX_PAGE_SIZE)) return;
    url.searchParams.set('size', String(cap));
    const request = c.req.raw;
    c.req.raw = new Request(url, {
      method: request.method,
      headers: request.headers,
      signal: request.signal,
    });
  }

  async #serviceMessage(c: Context, method: string): Promise<void> {
    const rules = this.#rulesFor('error_message', method, c.req.path);
    if (rules.length === 0 || !(c.res.headers.get('content-type') ?? '').includes('json')) return;
    let body: unknown;
    try {
      body = await c.res.clone().json();
    } catch {
      return;
    }
    if (body === null || typeof body !== 'object' || typeof (body as Json).message !== 'string') return;
    const seen = refusalField((body as Json).message);
    const rule = rules.find((candidate) => candidate.entry.sandbox === seen);
    if (!rule) return;
    const message = scalarOf(rule.entry.service)?.value as string;
    const { status } = c.res;
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    // Cleared first, so that the refusal's headers are not merged into the new answer a second time.
    c.res = undefined;
    c.res = new Response(JSON.stringify({ ...(body as Json), message }), { status, headers });
  }

  /**
   * The served document (parsed, changed in place): the followed enum values listed, the followed
   * null fields nullable, in the 2xx answers of the entry's operation. The schemas on the way are
   * copied into the answer where it names them, and the copies changed: a named schema a request
   * also takes (an enum a list filters by) keeps what the sandbox accepts.
   */
  document(document: Json): Json {
    const components = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
    const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
    for (const rule of this.#rules) {
      if (rule.change !== 'enum_value' && rule.change !== 'nullable') continue;
      const steps = stepsOf(rule.entry.at);
      const operation = Object.hasOwn(paths, rule.entry.path)
        ? paths[rule.entry.path]?.[rule.method.toLowerCase()]
        : undefined;
      if (!steps || !operation) continue;
      const walk = new SchemaPlaces(components);
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        if (!status.startsWith('2')) continue;
        const media = walk.resolve(response)?.content as Record<string, Json> | undefined;
        const json = media?.['application/json'];
        if (!json) continue;
        for (const slot of walk.places({ owner: json, key: 'schema' }, steps))
          if (rule.change === 'nullable') makeNullable(slot);
          else this.#addEnumValue(walk, slot, scalarOf(rule.entry.service)?.value as string);
      }
    }
    return document;
  }

  #addEnumValue(walk: SchemaPlaces, slot: Slot, value: string | number | boolean): void {
    for (const schema of walk.owned(slot, 0))
      if (Array.isArray(schema.enum) && !schema.enum.includes(value)) schema.enum.push(value);
  }
}

/** A place of a schema: `owner[key]` holds it (a property, a list's items, a media type's schema). */
interface Slot {
  owner: Json;
  key: string;
}

const MAX_DEPTH = 32;

/**
 * The places of a document's schemas a finding's path reaches, through references and unions. Each
 * schema on the way is the slot's own: one a reference names is copied into the slot first, so that
 * a change reaches that place of the answer alone.
 */
class SchemaPlaces {
  readonly #components: Record<string, Json>;
  constructor(components: Record<string, Json>) {
    this.#components = components;
  }

  /** A schema or response with its references followed (bounded). */
  resolve(schema: unknown): Json | null {
    let current = schema;
    for (let hops = 0; hops < MAX_DEPTH; hops += 1) {
      if (current === null || typeof current !== 'object') return null;
      const ref = (current as Json).$ref;
      if (typeof ref !== 'string') return current as Json;
      const name = ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : null;
      current = name !== null && Object.hasOwn(this.#components, name) ? this.#components[name] : null;
    }
    return null;
  }

  /** The schema in a slot, a copy of the one it names put in its place, or null. */
  #own(slot: Slot): Json | null {
    const value = slot.owner[slot.key];
    if (value === null || typeof value !== 'object') return null;
    if (typeof (value as Json).$ref !== 'string') return value as Json;
    const resolved = this.resolve(value);
    if (resolved === null) return null;
    const copy = structuredClone(resolved);
    slot.owner[slot.key] = copy;
    return copy;
  }

  /** The slot's own schema and the parts it is made of (allOf, anyOf, oneOf), each its own. */
  owned(slot: Slot, depth: number): Json[] {
    const schema = this.#own(slot);
    if (!schema || depth > MAX_DEPTH) return [];
    const out = [schema];
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const parts = schema[key];
      if (!Array.isArray(parts)) continue;
      for (let i = 0; i < parts.length; i += 1)
        out.push(...this.owned({ owner: parts as unknown as Json, key: String(i) }, depth + 1));
    }
    return out;
  }

  /** The slots `steps` lead to from `start`. */
  places(start: Slot, steps: readonly string[]): Slot[] {
    let slots = [start];
    for (const step of steps) {
      const next: Slot[] = [];
      for (const slot of slots)
        for (const schema of this.owned(slot, 0)) {
          if (step === '[]') {
            if (schema.items !== undefined) next.push({ owner: schema, key: 'items' });
            continue;
          }
          const properties = schema.properties as Json | undefined;
          if (properties && Object.hasOwn(properties, step)) next.push({ owner: properties, key: step });
        }
      slots = next;
    }
    return slots;
  }
}

/** The schema in a slot made to allow null (OpenAPI 3.1), unless it does. */
function makeNullable(slot: Slot): void {
  const schema = slot.owner[slot.key] as Json;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null')) || schema.nullable === true) return;
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(branches)) {
    if (!branches.some((branch) => branch.type === 'null')) branches.push({ type: 'null' });
    return;
  }
  if (typeof type === 'string' && schema.$ref === undefined) {
    slot.owner[slot.key] = {
      ...schema,
      type: [type, 'null'],
      ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
    };
    return;
  }
  if (Array.isArray(type) && schema.$ref === undefined) {
    slot.owner[slot.key] = { ...schema, type: [...type, 'null'] };
    return;
  }
  slot.owner[slot.key] = { anyOf: [schema, { type: 'null' }] };
}
