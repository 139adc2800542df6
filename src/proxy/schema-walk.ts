/**
 * A small walk of a JSON value against a JSON Schema of the served OpenAPI 3.1 document: what the
 * proxy needs to say where an answer leaves its schema, and nothing more. It reads `$ref`, `type`
 * (a list with `null` included), `nullable`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items`, `allOf`, `anyOf`/`oneOf` (the branch that fits best) and the
 * formats `date-time`, `date` and `uuid`; every other keyword (bounds, patterns) is left alone, so
 * the walk is never stricter than the document it reads. Each deviation is a path in the body
 * (`$.items[].email`: every index of a list counts as one place), what the schema expects, and what
 * the answer holds. The walk is bounded in depth and in deviations.
 */

type Json = Record<string, unknown>;

export type DeviationRule = 'type' | 'required' | 'null' | 'enum' | 'extra' | 'format';

export interface Deviation {
  rule: DeviationRule;
  /** Where in the body: `$`, `$.items[].status`. */
  path: string;
  expected: string;
  seen: string;
}

const MAX_DEPTH = 64;
const MAX_DEVIATIONS = 200;

export const typeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? Number.isInteger(value)
          ? 'integer'
          : 'number'
        : typeof value;

/** A value shown in a deviation: short. */
export function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** The format a string has, of those the walk knows (for comparing two answers), or null. */
export function formatOf(value: string): string | null {
  for (const [name, pattern] of Object.entries(FORMATS)) if (pattern.test(value)) return name;
  return null;
}

function typeFits(value: unknown, types: string[]): boolean {
  const seen = typeOf(value);
  return types.includes(seen) || (seen === 'integer' && types.includes('number'));
}

export class SchemaWalk {
  readonly #resolve: (schema: unknown) => Json | null;
  constructor(resolve: (schema: unknown) => Json | null) {
    this.#resolve = resolve;
  }

  /** The deviations of `value` from `schema`. */
  check(value: unknown, schema: unknown): Deviation[] {
    const out: Deviation[] = [];
    this.#walk(value, schema, '$', out, 0);
    return out;
  }

  /** The property names of a schema and of the parts it is made of (`allOf`), to a bounded depth. */
  #propertyNames(raw: unknown, into: Set<string>, depth: number): Set<string> {
    const schema = this.#resolve(raw);
    if (!schema || depth > 8) return into;
    for (const name of Object.keys((schema.properties ?? {}) as Json)) into.add(name);
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) this.#propertyNames(part, into, depth + 1);
    return into;
  }

  /**
   * `siblings`: the fields the other parts of an `allOf` describe, which are no extra field of this
   * part.
   */
  #walk(
    value: unknown,
    raw: unknown,
    path: string,
    out: Deviation[],
    depth: number,
    siblings?: ReadonlySet<string>,
  ): void {
    if (depth > MAX_DEPTH || out.length >= MAX_DEVIATIONS) return;
    const schema = this.#resolve(raw);
    if (!schema) return;
    if (Array.isArray(schema.allOf)) {
      const names = this.#propertyNames(schema, new Set(siblings ?? []), 0);
      for (const part of schema.allOf) this.#walk(value, part, path, out, depth + 1, names);
    }
    const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) {
      let best: Deviation[] | null = null;
      for (const branch of branches) {
        const found: Deviation[] = [];
        this.#walk(value, branch, path, found, depth + 1);
        if (best === null || found.length < best.length) best = found;
        if (found.length === 0) break;
      }
      if (best && best.length > 0) out.push(...this.#summarized(best, branches, value, path));
    }
    if (!this.#typeAndValue(value, schema, path, out)) return;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      this.#object(value as Json, schema, path, out, depth, siblings);
    if (Array.isArray(value) && schema.items !== undefined)
      for (const item of value) this.#walk(item, schema.items, `${path}[]`, out, depth + 1);
  }

  /** A value none of the branches takes: said once, as the branches' types, unless one fits by type. */
  #summarized(best: Deviation[], branches: unknown[], value: unknown, path: string): Deviation[] {
    const types = branches.flatMap((branch) => {
      const resolved = this.#resolve(branch);
      const type = resolved?.type;
      return Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
    });
    if (types.length > 0 && !typeFits(value, types))
      return [
        { rule: value === null ? 'null' : 'type', path, expected: types.join(' | '), seen: typeOf(value) },
      ];
    return best;
  }

  /** Type, enum, const and format; false when the value's type is wrong (nothing below is walked). */
  #typeAndValue(value: unknown, schema: Json, path: string, out: Deviation[]): boolean {
    const declared = schema.type;
    const types = Array.isArray(declared)
      ? [...(declared as string[])]
      : typeof declared === 'string'
        ? [declared]
        : [];
    if (schema.nullable === true) types.push('null');
    if (types.length > 0 && !typeFits(value, types)) {
      out.push({
        rule: value === null ? 'null' : 'type',
        path,
        expected: types.join(' | '),
        seen: typeOf(value),
      });
      return false;
    }
    if (value === null) return true;
    if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => allowed === value))
      out.push({ rule: 'enum', path, expected: `one of ${shown(schema.enum)}`, seen: shown(value) });
    if ('const' in schema && schema.const !== value)
      out.push({ rule: 'enum', path, expected: shown(schema.const), seen: shown(value) });
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
    if (format && typeof value === 'string' && !format.test(value))
      out.push({ rule: 'format', path, expected: String(schema.format), seen: shown(value) });
    return true;
  }

  #object(
    value: Json,
    schema: Json,
    path: string,
    out: Deviation[],
    depth: number,
    siblings?: ReadonlySet<string>,
  ): void {
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    for (const name of (schema.required ?? []) as string[])
      if (!Object.hasOwn(value, name))
        out.push({
          rule: 'required',
          path: `${path}.${name}`,
          expected: 'present',
          seen: 'absent',
        });
    const declaresProperties = schema.properties !== undefined;
    for (const [name, field] of Object.entries(value)) {
      const at = `${path}.${name}`;
      if (Object.hasOwn(properties, name)) {
        const required = ((schema.required ?? []) as string[]).includes(name);
        const before = out.length;
        this.#walk(field, properties[name], at, out, depth + 1);
        // A required field that is null where its schema does not allow null.
        if (required && field === null)
          for (let i = before; i < out.length; i += 1) {
            const deviation = out[i] as Deviation;
            if (deviation.path === at && deviation.rule === 'null') deviation.rule = 'required';
          }
      } else if (
        schema.additionalProperties === false ||
        (declaresProperties && schema.additionalProperties === undefined)
      ) {
        if (!(schema.allOf || schema.anyOf || schema.oneOf) && !siblings?.has(name))
          out.push({ rule: 'extra', path: at, expected: 'no such field in the schema', seen: shown(field) });
      } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        this.#walk(field, schema.additionalProperties, at, out, depth + 1);
    }
  }
}

/** The deviations of a list said once per place and rule: the first seen kept. */
export function distinctDeviations(deviations: Deviation[]): Deviation[] {
  const seen = new Map<string, Deviation>();
  for (const deviation of deviations) {
    const key = `${deviation.rule}|${deviation.path}`;
    if (!seen.has(key)) seen.set(key, deviation);
  }
  return [...seen.values()];
}
