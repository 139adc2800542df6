import { debuglog } from 'node:util';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, ErrorHandler, MiddlewareHandler, Next } from 'hono';
import type { AppCaches, AppEnv, Services } from './context.js';
import type { TickTask } from './ticker.js';
import type { AnyVerticalModule, VerticalModule } from './vertical-module.js';

/**
 * A vertical loaded on first use. The app composes verticals through what it knows of them before
 * loading them (their manifest: key, One API, collection, the names of their caches and tasks, their
 * routes' methods and paths, their entries of the OpenAPI registry), and loads one when it is first
 * needed: a request to one of its routes, its data built, its fixtures, samples, examples, cubes or
 * choices read, its cache or task used, or the app's whole route list read (the OpenAPI document).
 *
 * Run from the sources, every module is evaluated at import anyway and the manifest is read off the
 * module on first use; the package's bundle (scripts/bundle.mjs) evaluates a vertical's code only when
 * `load` is first called, and hands each vertical the manifest the build derived, so a process that
 * never reaches a vertical never builds its schemas (half of the import).
 *
 * Either way an app registers, in each vertical's place, one route per method and path of the
 * vertical, which runs the vertical's handlers of that route (registered on a scratch app of the same
 * validation hook the first time) exactly as hono runs a route's handlers; and placeholders in its
 * OpenAPI registry carrying what the routes' fingerprint reads, replaced by the vertical's entries
 * when it is bound. Registration order, routing, 404/405, errors and the document are those of the
 * vertical registered directly.
 */
export interface VerticalManifest {
  key: string;
  api: VerticalModule['api'];
  builtOn?: readonly string[];
  collection: string;
  lives: boolean;
  /** The app caches it keeps, by name. */
  caches: readonly string[];
  /** Its background tasks, by name, in order. */
  tasks: readonly string[];
  /** Its router entries: one per run of consecutive entries of one method and path, in order. */
  routes: readonly (readonly [method: string, path: string])[];
  /** Its entries of the OpenAPI registry, in order, as far as the routes' fingerprint reads them. */
  definitions: readonly DefinitionSummary[];
}

/** What the routes' fingerprint (surfaces/docs) reads of a registry entry. */
type DefinitionSummary =
  | { type: 'route'; route: { method: string; path: string; operationId?: string } }
  | { type: 'component'; componentType: string; name: string }
  | { type: string };

type Registry = OpenAPIHono<AppEnv>['openAPIRegistry'];
type Definition = Registry['definitions'][number];

/** The registry's own list: placeholders go in it and are replaced in place. */
const entriesOf = (registry: Registry): Definition[] =>
  (registry as unknown as { _definitions: Definition[] })._definitions;

function summaryOf(definition: Definition): DefinitionSummary {
  if (definition.type === 'route') {
    const { method, path, operationId } = definition.route;
    return { type: 'route', route: { method, path, ...(operationId !== undefined ? { operationId } : {}) } };
  }
  if (definition.type === 'component') {
    return { type: 'component', componentType: definition.componentType, name: definition.name };
  }
  return { type: definition.type };
}

type Handler = MiddlewareHandler<AppEnv>;
type TaskFactory = (services: Services) => TickTask;

interface Registered {
  groups: { method: string; path: string; handlers: Handler[] }[];
  definitions: Definition[];
}

/** What `register` puts on an app of this validation hook, read off a scratch app. */
function registered(module: AnyVerticalModule, defaultHook: OpenAPIHono<AppEnv>['defaultHook']): Registered {
  const scratch = new OpenAPIHono<AppEnv>(defaultHook ? { defaultHook } : {});
  module.register(scratch);
  const groups: Registered['groups'] = [];
  for (const { method, path, handler } of scratch.routes) {
    const last = groups.at(-1);
    if (last && last.method === method && last.path === path) last.handlers.push(handler as Handler);
    else groups.push({ method, path, handlers: [handler as Handler] });
  }
  return { groups, definitions: [...entriesOf(scratch.openAPIRegistry)] };
}

type Facts = Omit<VerticalManifest, 'routes' | 'definitions'>;

function factsOf(module: AnyVerticalModule): Facts {
  return {
    key: module.key,
    api: module.api,
    ...(module.builtOn ? { builtOn: module.builtOn } : {}),
    collection: module.collection,
    lives: module.lives === true,
    caches: Object.keys(module.caches ?? {}),
    tasks: Object.keys(module.tasks ?? {}),
  };
}

/** The manifest of a loaded module (what the build writes into the bundle). */
export function manifestOf(module: AnyVerticalModule): VerticalManifest {
  const { groups, definitions } = registered(module, undefined);
  return {
    ...factsOf(module),
    routes: groups.map(({ method, path }) => [method, path] as const),
    definitions: definitions.map(summaryOf),
  };
}

/** NODE_DEBUG=unified-api-sandbox reports when the bundle loads a vertical. */
const debug = debuglog('unified-api-sandbox');

/** What an app still has to bind before its route list is whole, by app. */
const unbound = new WeakMap<object, Set<() => void>>();

/**
 * Binds every vertical of the app not bound yet: called before reading the app's OpenAPI registry for
 * anything but the routes' fingerprint (generating the document, listing access policies).
 */
export function completeRoutes(app: object): void {
  const binders = unbound.get(app);
  if (!binders) return;
  for (const bind of [...binders]) bind();
}

/**
 * Runs one route's handlers as hono's compose runs a route's entries: each handler's answer becomes
 * the response unless one is already final, and an error a handler throws is answered by the app's
 * error handler there, so the handlers before it go on as they would. Every handler sees the route's
 * parameters (the entry hono matched is this route's). Past the last one, the app's next entry.
 */
function runRoute(
  handlers: readonly Handler[],
  c: Context<AppEnv>,
  next: Next,
  onError: ErrorHandler<AppEnv>,
) {
  const routeIndex = c.req.routeIndex;
  let index = -1;
  const dispatch = async (i: number): Promise<void> => {
    if (i <= index) throw new Error('next() called multiple times');
    index = i;
    const handler = handlers[i];
    if (!handler) {
      if (i === handlers.length) await next();
      return;
    }
    c.req.routeIndex = routeIndex;
    let res: unknown;
    let isError = false;
    try {
      res = await handler(c, () => dispatch(i + 1));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      res = await onError(error, c);
      isError = true;
    }
    if (res && (c.finalized === false || isError)) c.res = res as Response;
  };
  return dispatch(0);
}

const errorHandlerOf = (app: OpenAPIHono<AppEnv>) =>
  (app as unknown as { errorHandler: ErrorHandler<AppEnv> }).errorHandler;

/**
 * The vertical `load` returns, composed before it is loaded. `manifest` is what the build derived;
 * without it (the sources), it is read off the module on first use.
 */
export function lazyVertical<D extends object, A>(
  load: () => VerticalModule<D, A>,
  manifest?: VerticalManifest,
): VerticalModule<D, A> {
  let module: VerticalModule<D, A> | undefined;
  const loaded = () => {
    if (module === undefined) {
      module = load();
      if (manifest) debug('vertical %s loaded', manifest.key);
    }
    return module;
  };
  let known = manifest;
  const manifestNow = () => {
    known ??= manifestOf(loaded());
    return known;
  };
  // What every app needs at once: the build's manifest, or (the sources, where the module is
  // evaluated anyway) the module's own fields; its routes are read off it when an app first needs them.
  const facts = manifest ?? factsOf(loaded());

  const register = (app: OpenAPIHono<AppEnv>) => {
    const { routes, definitions } = manifestNow();
    const entries = entriesOf(app.openAPIRegistry);
    // One object per app: each is found again by identity when the vertical is bound.
    const placeholders = definitions.map((summary) => ({ ...summary }) as Definition);
    entries.push(...placeholders);
    let handlers: Handler[][] | undefined;
    const bind = () => {
      if (handlers) return handlers;
      const real = registered(loaded(), app.defaultHook);
      const same =
        real.groups.length === routes.length &&
        real.groups.every((g, i) => g.method === routes[i]?.[0] && g.path === routes[i]?.[1]) &&
        JSON.stringify(real.definitions.map(summaryOf)) === JSON.stringify(definitions);
      if (!same) throw new Error(`The ${facts.key} vertical registers other routes than its manifest lists`);
      for (const [i, placeholder] of placeholders.entries()) {
        entries[entries.indexOf(placeholder)] = real.definitions[i] as Definition;
      }
      handlers = real.groups.map((group) => group.handlers);
      unbound.get(app)?.delete(bind);
      return handlers;
    };
    const binders = unbound.get(app) ?? new Set();
    unbound.set(app, binders);
    binders.add(bind);
    for (const [i, [method, path]] of routes.entries()) {
      app.on(method, path, (c, next) => runRoute(bind()[i] as Handler[], c, next, errorHandlerOf(app)));
    }
  };

  const caches = Object.fromEntries(
    facts.caches.map((name) => [
      name,
      () => (loaded().caches as Record<string, () => unknown> | undefined)?.[name]?.(),
    ]),
  ) as VerticalModule<D, A>['caches'];
  const tasks = Object.fromEntries(
    facts.tasks.map((name): [string, TaskFactory] => [
      name,
      (services) => {
        let task: TickTask | undefined;
        return (store) => {
          if (task === undefined) {
            const make = loaded().tasks?.[name];
            if (!make) throw new Error(`The ${facts.key} vertical has no task ${name}`);
            task = make(services);
          }
          return task(store);
        };
      },
    ]),
  );

  const vertical: VerticalModule<D, A> = {
    key: facts.key,
    api: facts.api,
    ...(facts.builtOn ? { builtOn: facts.builtOn } : {}),
    collection: facts.collection,
    lives: facts.lives,
    build: (seed, args, at, pace, origin) => loaded().build(seed, args, at, pace, origin),
    register,
    caches,
    tasks,
    get cubes() {
      return loaded().cubes;
    },
    get choices() {
      return loaded().choices;
    },
    get fixtures() {
      return loaded().fixtures;
    },
    get samples() {
      return loaded().samples;
    },
    get examples() {
      return loaded().examples;
    },
  };
  loaders.set(vertical, loaded);
  return vertical;
}

const loaders = new WeakMap<AnyVerticalModule, () => AnyVerticalModule>();

/** The module itself: a lazy vertical's, loaded; any other as it is. */
export function loadedModule(vertical: AnyVerticalModule): AnyVerticalModule {
  return loaders.get(vertical)?.() ?? vertical;
}

/** The caches of an app: each made when first used. */
export function appCachesOf(verticals: readonly AnyVerticalModule[]): AppCaches {
  const caches = {};
  for (const module of verticals) {
    for (const [name, make] of Object.entries(module.caches ?? {}) as [string, () => unknown][]) {
      Object.defineProperty(caches, name, {
        configurable: true,
        enumerable: true,
        get() {
          const value = make();
          Object.defineProperty(caches, name, { value, enumerable: true });
          return value;
        },
      });
    }
  }
  return caches as AppCaches;
}
