import { debuglog } from 'node:util';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppCaches, AppEnv, Services } from './context.js';
import type { TickTask } from './ticker.js';
import type { AnyVerticalModule, VerticalDescriptor, VerticalModule } from './vertical-module.js';
import { type MountOptions, mountVertical, routesOf, type VerticalRoutes } from './vertical-mount.js';

/**
 * A vertical loaded on first use. The app composes verticals through what it knows of them before
 * loading them (their manifest: key, One API, collection, the names of their caches and tasks, the
 * methods and paths of their routes and what the routes' fingerprint reads of their OpenAPI
 * entries), and loads one when it is first needed: a request to one of its routes (its sub-app is
 * then made, see vertical-mount.ts), its data built, its fixtures, samples, examples, cubes or
 * choices read, its cache or task used, or the document of every route generated.
 *
 * Run from the sources, every module is evaluated at import anyway and the manifest is read off the
 * module on first use; the package's bundle (scripts/bundle.mjs) evaluates a vertical's code only when
 * `load` is first called, and hands each vertical the manifest the build derived, so a process that
 * never reaches a vertical never builds its schemas: what that buys is in docs/benchmarks.md
 * (fresh process, the verticals loaded at import or on first use).
 */
export interface VerticalManifest extends VerticalDescriptor, VerticalRoutes {
  builtOn?: readonly string[];
  lives: boolean;
  /** The app caches it keeps, by name. */
  caches: readonly string[];
  /** Its background tasks, by name, in order. */
  tasks: readonly string[];
}

type TaskFactory = (services: Services) => TickTask;

type Facts = Omit<VerticalManifest, 'routes' | 'definitions'>;

function factsOf(module: AnyVerticalModule): Facts {
  return {
    key: module.key,
    api: module.api,
    code: module.code,
    envName: module.envName,
    showcase: module.showcase,
    ...(module.builtOn ? { builtOn: module.builtOn } : {}),
    collection: module.collection,
    lives: module.lives === true,
    caches: Object.keys(module.caches ?? {}),
    tasks: Object.keys(module.tasks ?? {}),
  };
}

/** The manifest of a loaded module (what the build writes into the bundle). */
export function manifestOf(module: AnyVerticalModule): VerticalManifest {
  return { ...factsOf(module), ...routesOf(module) };
}

/** NODE_DEBUG=unified-api-sandbox reports when the bundle loads a vertical. */
const debug = debuglog('unified-api-sandbox');

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

  // The module's own registration: on the sub-app the app mounts (vertical-mount.ts).
  const register = (app: OpenAPIHono<AppEnv>) => loaded().register(app);

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
    code: facts.code,
    envName: facts.envName,
    showcase: facts.showcase,
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
  lazies.set(vertical, { loaded, routes: manifestNow });
  return vertical;
}

const lazies = new WeakMap<
  AnyVerticalModule,
  { loaded: () => AnyVerticalModule; routes: () => VerticalRoutes }
>();

/** The module itself: a lazy vertical's, loaded; any other as it is. */
export function loadedModule(vertical: AnyVerticalModule): AnyVerticalModule {
  return lazies.get(vertical)?.loaded() ?? vertical;
}

/**
 * Mounts each vertical on `app` at this point of its registration order (vertical-mount.ts): a lazy
 * vertical by its manifest, any other by the routes read off it.
 */
export function mountVerticals(
  app: OpenAPIHono<AppEnv>,
  verticals: readonly AnyVerticalModule[],
  options: MountOptions,
): void {
  for (const vertical of verticals) {
    const lazy = lazies.get(vertical);
    const module = lazy?.loaded ?? (() => vertical);
    mountVertical(app, lazy ? lazy.routes() : routesOf(vertical), module, options);
  }
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
