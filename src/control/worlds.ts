import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errors } from '../lib/errors.js';
import { guidePath } from '../lib/guides.js';
import { PACES } from '../lib/pace.js';
import type { AppEnv, Services } from '../platform/context.js';
import { admin, emptyResponse, errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import { publicOrigin } from '../platform/urls.js';

/**
 * Worlds over HTTP: `POST /__sandbox/worlds` creates an isolated world (a sandbox app of its own,
 * with its clock, journal, faults, webhooks and MCP sessions) and answers its credentials; those
 * credentials then select it on every request (see src/worlds.ts, which routes them). These are the
 * routes and the shapes; the directory of live worlds is handed to the app by whoever serves it.
 */

/** A world lives this long without a request (default), at most a week. */
export const DEFAULT_WORLD_TTL_SECONDS = 3600;
export const MAX_WORLD_TTL_SECONDS = 7 * 86_400;

const tags = ['Sandbox worlds'];

export const WorldCreate = z
  .object({
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional()
      .openapi({
        description: "The seed of the world's data (default: the seed of the sandbox's own world)",
      }),
    fixtures: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description: `A fixture document ([the fixtures guide](${guidePath('fixtures')})) applied to the new world; a refusal refuses the world, with the status and message of the rule`,
      }),
    clock: z
      .union([z.enum(['system', 'now']), z.iso.datetime({ offset: true })])
      .optional()
      .openapi({
        description:
          "system (default): follows the machine's time; now: a manual clock at the machine's current second; an instant: a manual clock there",
      }),
    pace: z
      .enum(PACES)
      .optional()
      .openapi({ description: 'The pace of the generated business (default normal)' }),
    connection_life: z
      .enum(['seeded', 'off'])
      .optional()
      .openapi({
        description: `seeded: the crowd's connections now and then expire or go unreachable as days pass ([the living world](${guidePath('living-world', 'the-life-of-connections')})); off (default): never`,
      }),
    ttl_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_WORLD_TTL_SECONDS)
      .optional()
      .openapi({
        description: `Seconds (machine time) the world lives without a request before it is removed (default ${DEFAULT_WORLD_TTL_SECONDS})`,
      }),
  })
  .strict()
  .openapi('SandboxWorldCreate');

const Key = z.object({ client_id: z.string(), client_secret: z.string() });

export const WorldSummary = z
  .object({
    id: z.string().openapi({ description: 'The world id (world_ and 24 hex digits)' }),
    seed: z.number().int(),
    created_at: z.iso.datetime().openapi({ description: 'Machine time of its creation' }),
    last_used_at: z.iso.datetime().openapi({ description: 'Machine time of its last request' }),
    expires_at: z.iso.datetime().openapi({ description: 'When it goes unless used again before' }),
    ttl_seconds: z.number().int(),
    base_path: z.string().openapi({
      description:
        'A path prefix that reaches the world without its credentials (for a router in front of several sandboxes): /__worlds/<id>',
    }),
    bytes: z
      .number()
      .int()
      .openapi({ description: 'What it holds: data written by clients and generated data kept' }),
    clock: z.object({ now: z.iso.datetime(), mode: z.enum(['system', 'manual']) }),
  })
  .openapi('SandboxWorldSummary');

export const WorldCreated = WorldSummary.extend({
  control_token: z.string().openapi({
    description:
      "The world's admin token: its /__sandbox endpoints and its console (/console?world=<id>) take it as a bearer token",
  }),
  credentials: z.object({
    account_id: z.string(),
    sandbox_env_id: z.string(),
    production_env_id: z.string(),
    sandbox: Key,
    production: Key,
    restricted: Key.extend({ consumer_id: z.string() }),
  }),
  env: z.record(z.string(), z.string()).openapi({
    description:
      'The lines `unified-api-sandbox env` prints, for this world (its keys, its well-known consumers)',
  }),
}).openapi('SandboxWorld');

export const WorldList = z
  .object({
    items: z.array(WorldSummary),
    total: z.number().int(),
    max_worlds: z.number().int(),
    max_bytes: z.number().int().openapi({ description: 'Bytes the live worlds may hold together' }),
  })
  .openapi('SandboxWorlds');

export type WorldCreateInput = z.infer<typeof WorldCreate>;
export type WorldSummaryValue = z.infer<typeof WorldSummary>;
export type WorldCreatedValue = z.infer<typeof WorldCreated>;
export type WorldListValue = z.infer<typeof WorldList>;

/** The live worlds, as the server that routes them keeps them (src/worlds.ts). */
export interface WorldDirectory {
  /** Creates a world; `origin` is the base url its env lines name. Throws an ApiError when full. */
  create(input: WorldCreateInput, origin: string): Promise<WorldCreatedValue>;
  list(): WorldListValue;
  get(id: string): WorldSummaryValue | undefined;
  /** Removes a world and frees what it held; false when there is none of that id. */
  delete(id: string): Promise<boolean>;
  /** Expiry, and the background work of the worlds that follow the machine's time (each second, on a server). */
  tick(): void;
  /** Removes every world; none is created after. */
  close(): Promise<void>;
}

declare module '../platform/context.js' {
  interface Services {
    /** The worlds created over HTTP, when a server routes them (startSandbox); absent in process. */
    worlds?: WorldDirectory;
  }
}

const WorldId = z.object({
  world_id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'world_id', in: 'path' }, example: 'world_0123456789abcdef01234567' }),
});

const routes = {
  create: createRoute({
    method: 'post',
    path: '/__sandbox/worlds',
    operationId: 'sandbox_create_world',
    tags,
    summary: 'Create an isolated world and get its credentials',
    description:
      'A world of its own: data from its seed, its fixtures, clock, pace, request journal, faults, webhooks and deliveries. Its API keys select it: a token exchanged with them only ever sees this world, so any client works unchanged. Refused with 429 when the sandbox holds its most worlds or bytes.',
    ...admin,
    request: { body: jsonBody(WorldCreate, 'seed, fixtures, clock, pace, ttl_seconds', false) },
    responses: {
      201: jsonContent(WorldCreated, 'The world, its credentials and its control token'),
      ...errorResponses([401, 404, 422, 429]),
    },
  }),
  list: createRoute({
    method: 'get',
    path: '/__sandbox/worlds',
    operationId: 'sandbox_list_worlds',
    tags,
    summary: 'List the live worlds',
    ...admin,
    responses: {
      200: jsonContent(WorldList, 'The live worlds, oldest first'),
      ...errorResponses([401, 404]),
    },
  }),
  get: createRoute({
    method: 'get',
    path: '/__sandbox/worlds/{world_id}',
    operationId: 'sandbox_get_world',
    tags,
    summary: 'Read a live world',
    description: "The server's admin token, or the world's own control token (which sees no other world)",
    ...admin,
    request: { params: WorldId },
    responses: { 200: jsonContent(WorldSummary, 'The world'), ...errorResponses([401, 404]) },
  }),
  delete: createRoute({
    method: 'delete',
    path: '/__sandbox/worlds/{world_id}',
    operationId: 'sandbox_delete_world',
    tags,
    summary: 'Remove a world and free what it holds',
    description:
      "The server's admin token, or the world's own control token: a job given a world removes it with what it was given",
    ...admin,
    request: { params: WorldId },
    responses: { 204: emptyResponse('The world is gone'), ...errorResponses([401, 404]) },
  }),
};

export function registerWorldControl(app: OpenAPIHono<AppEnv>, services: Services): void {
  const directory = (): WorldDirectory => {
    if (!services.worlds) throw errors.worldsNotServed();
    return services.worlds;
  };
  app.openapi(routes.create, async (c) => {
    const input = (c.req.valid('json') ?? {}) as WorldCreateInput;
    const created = await directory().create(input, publicOrigin(c.get('config'), c.req.url));
    return c.json(created, 201);
  });
  app.openapi(routes.list, (c) => c.json(directory().list(), 200));
  app.openapi(routes.get, (c) => {
    const { world_id } = c.req.valid('param');
    const found = directory().get(world_id);
    if (!found) throw errors.worldNotFound(world_id);
    return c.json(found, 200);
  });
  app.openapi(routes.delete, async (c) => {
    const { world_id } = c.req.valid('param');
    if (!(await directory().delete(world_id))) throw errors.worldNotFound(world_id);
    return c.body(null, 204);
  });
}
