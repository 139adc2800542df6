import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import { DeferredTrieRouter } from '../lib/router.js';
import type { AppEnv } from './context.js';
import type { AnyVerticalModule } from './vertical-module.js';

/**
 * A vertical mounted on an app as a sub-app of its own, made on first use. The app knows, before the
 * vertical is loaded, the methods and paths of its routes (its manifest, see lazy-vertical.ts): it
 * registers one route per method and path, in the vertical's place in the registration order, whose
 * handler builds the vertical's OpenAPIHono sub-app the first time and hands it the request with its
 * `fetch`. The routing, 404 and 405 answers and the order of the routes are those of the app, as
 * if the vertical's routes were registered on it; the sub-app runs the route's middleware,
 * validators and handler with the same validation hook (reading the sub-app's own registry) and the
 * same error handler.
 *
 * The app's OpenAPI registry holds the routes of the platform alone; the served document is made from
 * the definitions of the app and of each vertical's sub-app, in the order of registration
 * (`routeDefinitions`), through the registries' public methods.
 */

/** What the routes' fingerprint (surfaces/docs) reads of a registry entry. */
export type DefinitionSummary =
  | { type: 'route'; route: { method: string; path: string; operationId?: string } }
  | { type: 'component'; componentType: string; name: string }
  | { type: string };

type Registry = OpenAPIHono<AppEnv>['openAPIRegistry'];
export type RouteDefinition = Registry['definitions'][number];

export function summaryOf(definition: RouteDefinition): DefinitionSummary {
  if (definition.type === 'route') {
    const { method, path, operationId } = definition.route;
    return { type: 'route', route: { method, path, ...(operationId !== undefined ? { operationId } : {}) } };
  }
  if (definition.type === 'component') {
    return { type: 'component', componentType: definition.componentType, name: definition.name };
  }
  return { type: definition.type };
}

/** What an app knows of a vertical's routes before loading it. */
export interface VerticalRoutes {
  /** Its router entries: one per run of consecutive entries of one method and path, in order. */
  routes: readonly (readonly [method: string, path: string])[];
  /** Its entries of the OpenAPI registry, in order, as far as the routes' fingerprint reads them. */
  definitions: readonly DefinitionSummary[];
}

/** The routes of an app (public `routes` and registry), past its first `skip` router entries. */
function routesOfApp(app: OpenAPIHono<AppEnv>, skip = 0): VerticalRoutes {
  const routes: [string, string][] = [];
  for (const { method, path } of app.routes.slice(skip)) {
    const last = routes.at(-1);
    if (!last || last[0] !== method || last[1] !== path) routes.push([method, path]);
  }
  return { routes, definitions: app.openAPIRegistry.definitions.map(summaryOf) };
}

/** The routes of a loaded module, read off an app it registers on. */
export function routesOf(module: AnyVerticalModule): VerticalRoutes {
  const scratch = new OpenAPIHono<AppEnv>();
  module.register(scratch);
  return routesOfApp(scratch);
}

/** What every sub-app takes from the app it is mounted on. */
export interface MountOptions {
  /** The validation hook of a sub-app, reading that sub-app's registry. */
  hook: (
    registryOf: () => Pick<OpenAPIHono<AppEnv>, 'openAPIRegistry'>,
  ) => OpenAPIHono<AppEnv>['defaultHook'];
  onError: ErrorHandler<AppEnv>;
}

interface Mount {
  /** Where its definitions go among the app's: the count of the app's definitions before it. */
  at: number;
  routes: VerticalRoutes;
  subApp: () => OpenAPIHono<AppEnv>;
}

/** The verticals mounted on each app, in order. */
const mounts = new WeakMap<object, Mount[]>();

/** The request a sub-app is handed, to the context of the app that hands it over. */
const parents = new WeakMap<Request, Context<AppEnv>>();

/** Why a sub-app did not answer: the request goes on to the app's next route. */
const FELL_THROUGH = new WeakSet<Response>();

/**
 * The sub-app's first middleware: it takes over the variables the app's middleware set (the services,
 * the request's unit of work) and the body the body guard read (hono's body cache), and gives back
 * what its own route set (the principal, an error) to the app's middleware that runs after.
 */
const adopt: MiddlewareHandler<AppEnv> = async (c, next) => {
  const parent = parents.get(c.req.raw);
  if (!parent) return next();
  for (const [name, value] of Object.entries(parent.var)) c.set(name as keyof AppEnv['Variables'], value);
  c.req.bodyCache = parent.req.bodyCache;
  await next();
  for (const [name, value] of Object.entries(c.var)) parent.set(name as keyof AppEnv['Variables'], value);
  if (c.error) parent.error = c.error;
};

function subAppOf(
  module: () => AnyVerticalModule,
  known: VerticalRoutes,
  options: MountOptions,
): OpenAPIHono<AppEnv> {
  const sub: OpenAPIHono<AppEnv> = new OpenAPIHono<AppEnv>({
    router: new DeferredTrieRouter(),
    defaultHook: options.hook(() => sub),
  });
  sub.use('*', adopt);
  const vertical = module();
  vertical.register(sub);
  // The app routes to the sub-app what the manifest lists: a manifest of other code would lose routes.
  const real = routesOfApp(sub, 1);
  const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(real.routes, known.routes) || !same(real.definitions, known.definitions)) {
    throw new Error(`The ${vertical.key} vertical registers other routes than its manifest lists`);
  }
  sub.onError(options.onError);
  sub.notFound((c) => {
    const res = c.body(null, 404);
    FELL_THROUGH.add(res);
    return res;
  });
  return sub;
}

/**
 * Mounts a vertical on `app`, at this point of its registration order. `routes` is what the app knows
 * of the vertical's routes before loading it; `module` loads it (once per process).
 */
export function mountVertical(
  app: OpenAPIHono<AppEnv>,
  routes: VerticalRoutes,
  module: () => AnyVerticalModule,
  options: MountOptions,
): void {
  let sub: OpenAPIHono<AppEnv> | undefined;
  const subApp = () => {
    sub ??= subAppOf(module, routes, options);
    return sub;
  };
  const list = mounts.get(app) ?? [];
  mounts.set(app, list);
  list.push({ at: app.openAPIRegistry.definitions.length, routes, subApp });
  const dispatch: MiddlewareHandler<AppEnv> = async (c, next) => {
    const request = c.req.raw;
    parents.set(request, c);
    const res = await subApp().fetch(request, c.env);
    if (!FELL_THROUGH.has(res)) return res;
    await next();
  };
  for (const [method, path] of routes.routes) app.on(method, path, dispatch);
}

/** The app's definitions with each mounted vertical's, in the order they were registered. */
function interleaved<T>(own: readonly T[], app: object, ofMount: (mount: Mount) => readonly T[]): T[] {
  const out: T[] = [];
  let from = 0;
  for (const mount of mounts.get(app) ?? []) {
    out.push(...own.slice(from, mount.at), ...ofMount(mount));
    from = mount.at;
  }
  out.push(...own.slice(from));
  return out;
}

/** What the routes' fingerprint reads of every definition of the app, its verticals' included, loading none. */
export function definitionSummaries(app: OpenAPIHono<AppEnv>): DefinitionSummary[] {
  return interleaved(
    app.openAPIRegistry.definitions.map(summaryOf),
    app,
    (mount) => mount.routes.definitions,
  );
}

/** Every definition of the app, its verticals' included (each loaded): what the document is made of. */
export function routeDefinitions(app: Pick<OpenAPIHono<AppEnv>, 'openAPIRegistry'>): RouteDefinition[] {
  return interleaved(
    app.openAPIRegistry.definitions,
    app,
    (mount) => mount.subApp().openAPIRegistry.definitions,
  );
}

/**
 * An app holding every definition of `app` and of its verticals in a registry of its own, registered
 * again through the registry's public methods: its `getOpenAPI31Document` is the app's document.
 */
export function documentApp(app: OpenAPIHono<AppEnv>): OpenAPIHono<AppEnv> {
  const doc = new OpenAPIHono<AppEnv>();
  const registry = doc.openAPIRegistry;
  for (const definition of routeDefinitions(app)) {
    if (definition.type === 'route') registry.registerPath(definition.route);
    else if (definition.type === 'component') {
      registry.registerComponent(definition.componentType, definition.name, definition.component);
    } else throw new Error(`The document does not take registry entries of type ${definition.type}`);
  }
  return doc;
}
