import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { grantsScope } from '../../platform/openapi.js';
import { routesFingerprint } from '../docs/index.js';

/**
 * The MCP tools: one per operation of the served OpenAPI document that declares MCP scopes
 * (`mcp_auth` in its security), generated from the document itself, so a tool is exactly what the
 * operation documents: its operationId, summary, path and query parameters, and JSON body.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, JsonObject>;
  required?: string[];
  [key: string]: unknown;
}

export interface ToolDefinition {
  /** The operationId: MCP tool names and operationIds share their alphabet. */
  name: string;
  title: string;
  description: string;
  method: string;
  /** The path template, `{consumer_id}` and all. */
  path: string;
  /** The scopes the operation accepts (any one of them). */
  scopes: readonly string[];
  /** Path parameters the caller gives, in the template's order (consumer_id is the token's). */
  pathParams: string[];
  queryParams: string[];
  /** Whether the path holds `{consumer_id}`. */
  consumerScoped: boolean;
  /** Whether the operation takes a JSON body (the tool's `body` argument). */
  hasBody: boolean;
  inputSchema: JsonSchemaObject;
}

/** The token's consumer, never an argument. */
export const CONSUMER_PARAM = 'consumer_id';
/** The argument holding the operation's JSON body. */
export const BODY_ARGUMENT = 'body';

/** How many `$ref`s deep a schema is expanded; deeper (or recursive) ones are left open. */
const MAX_REF_DEPTH = 6;
/** Nodes one tool's schema may hold: past it, what is left is left open. */
const MAX_SCHEMA_NODES = 20_000;
/** Nesting of the document's own JSON walked (it is ours, but every walk is bounded). */
const MAX_JSON_DEPTH = 64;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    description?: string;
    schema?: JsonObject;
  }[];
  requestBody?: {
    required?: boolean;
    description?: string;
    content?: Record<string, { schema?: JsonObject }>;
  };
}

interface OpenApiDocument {
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>;
  components?: { schemas?: Record<string, JsonObject> };
}

const REF_PREFIX = '#/components/schemas/';

/** Expands the `$ref`s of a schema from the document's components, within the bounds above. */
class SchemaInliner {
  #nodes = 0;
  constructor(private readonly components: Record<string, JsonObject>) {}

  inline(schema: Json, refs: string[] = [], depth = 0): Json {
    this.#nodes += 1;
    if (this.#nodes > MAX_SCHEMA_NODES || depth > MAX_JSON_DEPTH) return {};
    if (Array.isArray(schema)) return schema.map((item) => this.inline(item, refs, depth + 1));
    if (schema === null || typeof schema !== 'object') return schema;
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      const name = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
      const target = Object.hasOwn(this.components, name) ? this.components[name] : undefined;
      if (!target) return { description: `${name} (not described)` };
      if (refs.includes(name) || refs.length >= MAX_REF_DEPTH) {
        // Left open (any value): a recursive or very deep shape, as the operation's docs describe it.
        return { description: `${name}: see the operation's documentation (not expanded here)` };
      }
      const { $ref: _, ...siblings } = schema;
      const expanded = this.inline(target, [...refs, name], depth + 1);
      return Object.keys(siblings).length &&
        expanded &&
        typeof expanded === 'object' &&
        !Array.isArray(expanded)
        ? { ...expanded, ...(this.inline(siblings, refs, depth + 1) as JsonObject) }
        : expanded;
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) out[key] = this.inline(value, refs, depth + 1);
    return out;
  }
}

/** The MCP scopes an operation accepts, or null when it takes no MCP token. */
function mcpScopes(operation: OperationObject): string[] | null {
  for (const requirement of operation.security ?? []) {
    if (Object.hasOwn(requirement, 'mcp_auth')) return requirement.mcp_auth ?? [];
  }
  return null;
}

function toolOf(
  path: string,
  method: string,
  operation: OperationObject,
  scopes: string[],
  components: Record<string, JsonObject>,
): ToolDefinition | null {
  const name = operation.operationId;
  if (!name || !/^[A-Za-z0-9_.-]{1,128}$/.test(name)) return null;
  const inliner = new SchemaInliner(components);
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  let consumerScoped = false;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path' && parameter.name === CONSUMER_PARAM) {
      consumerScoped = true;
      continue;
    }
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    if (parameter.name === BODY_ARGUMENT) continue; // the body's name: none exists, never shadow it
    (parameter.in === 'path' ? pathParams : queryParams).push(parameter.name);
    const schema = inliner.inline(parameter.schema ?? {}) as JsonObject;
    properties[parameter.name] = parameter.description
      ? { ...schema, description: parameter.description }
      : schema;
    if (parameter.required || parameter.in === 'path') required.push(parameter.name);
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  if (body) {
    const schema = inliner.inline(body) as JsonObject;
    const description = operation.requestBody?.description;
    properties[BODY_ARGUMENT] = description ? { description, ...schema } : schema;
    if (operation.requestBody?.required) required.push(BODY_ARGUMENT);
  }
  const summary = operation.summary ?? name;
  const description = [summary, operation.description].filter(Boolean).join('\n\n');
  const inputSchema: JsonSchemaObject = { type: 'object', properties };
  if (required.length) inputSchema.required = required;
  return {
    name,
    title: summary,
    description: consumerScoped
      ? `${description}\n\n(${method.toUpperCase()} ${path}; the consumer is the token's.)`
      : `${description}\n\n(${method.toUpperCase()} ${path})`,
    method: method.toUpperCase(),
    path,
    scopes,
    pathParams,
    queryParams,
    consumerScoped,
    hasBody: body !== undefined,
    inputSchema,
  };
}

/** The tools of a document: one per operation that declares MCP scopes, in the document's order. */
export function toolsFromDocument(document: OpenApiDocument): ToolDefinition[] {
  const components = document.components?.schemas ?? {};
  const tools: ToolDefinition[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const scopes = mcpScopes(operation);
      if (scopes === null) continue;
      const tool = toolOf(path, method, operation, scopes, components);
      if (!tool || names.has(tool.name)) continue;
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return tools;
}

/** The tools a token carrying `granted` may call: the rule of requireAuth (platform/openapi.ts). */
export function toolsGranted(tools: readonly ToolDefinition[], granted: readonly string[]): ToolDefinition[] {
  return tools.filter((tool) => grantsScope(granted, tool.scopes));
}

/** The tool catalogue of an app's routes: a function of the code alone, like the document. */
export class ToolCatalogue {
  readonly tools: readonly ToolDefinition[];
  readonly #byName: Map<string, ToolDefinition>;

  constructor(tools: ToolDefinition[]) {
    this.tools = tools;
    this.#byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  get(name: string): ToolDefinition | undefined {
    return this.#byName.get(name);
  }
}

/** Catalogues made in this process, by the fingerprint of their routes (see docs/index.ts). */
const catalogues = new Map<string, Promise<ToolCatalogue>>();

/**
 * The catalogue of `app`, built once per process and set of routes from the served document
 * (GET /openapi.json, which the docs make once per process too, and which the request journal does
 * not record).
 */
export function toolCatalogue(app: OpenAPIHono<AppEnv>): Promise<ToolCatalogue> {
  const fingerprint = routesFingerprint(app);
  let catalogue = catalogues.get(fingerprint);
  if (!catalogue) {
    catalogue = Promise.resolve(app.request('/openapi.json'))
      .then((res) => res.json() as Promise<OpenApiDocument>)
      .then((document) => new ToolCatalogue(toolsFromDocument(document)));
    // A failure is not kept: the next session tries again.
    catalogue.catch(() => catalogues.delete(fingerprint));
    catalogues.set(fingerprint, catalogue);
  }
  return catalogue;
}
