import type { OpenAPIHono } from '@hono/zod-openapi';
import type { PaceOf } from '../lib/pace.js';
import type { Sliced } from '../lib/slices.js';
import type { WorldStore } from '../store/store.js';
import type { ConnectionRecord } from '../store/world.js';
import type { ApiName, Integration } from './catalogue.js';
import type { ConsoleSample } from './console-sample.js';
import type { AppCaches, AppEnv, Services } from './context.js';
import type { CubeDef } from './cube.js';
import type { VerticalExamples } from './examples.js';
import type { VerticalFixtures } from './fixtures/kit.js';
import type { TickTask } from './ticker.js';

/** One value a post connection may take, as the page of a link offers it. */
export interface PostConnectionChoice {
  value: string;
  label: string;
}

/** Where the page of a link finds the choices of a post connection. */
export interface ChoiceSources {
  store: WorldStore;
  caches: AppCaches;
}

/**
 * Lists the values a post connection of `resource` may take for a consumer's integration (and its
 * connection, once there is one), or null when this vertical cannot list them for that integration.
 */
export type ChoiceLister = (
  sources: ChoiceSources,
  integration: Integration,
  consumerid: string,
  connection: ConnectionRecord | null,
) => PostConnectionChoice[] | null;

/**
 * What a vertical is, written once in its index.ts: every list of the verticals (the showcase
 * consumers of the seeded world, the `env` names, the path segments /docs prefills, the docs'
 * examples, the catalogue's operations) is read off these fields of the modules of src/verticals.ts.
 */
export interface VerticalDescriptor {
  /**
   * Its path segment (`/consumers/{consumer_id}/<key>/...`), its fixture block name, and what its
   * examples' and caches' keys start with.
   */
  key: string;
  /** The One API of its integrations, by name. */
  api: ApiName;
  /** That One API's code (a sync connection's `one_api`): `oneApi(name)` of platform/catalogue.ts gives both. */
  code: number;
  /** The name of its showcase consumer in `env` (SANDBOX_CONSUMER_ID_<envName>) and in seedDirectory. */
  envName: string;
  /** The integration of its showcase consumer's active connection in the seeded world. */
  showcase: number;
  /** The world collection its data is opened from, one entry per connection (or per folder). */
  collection: string;
}

/**
 * A vertical (Accounting, Invoicing, Banking, Payment, Point of Sale, eCommerce, Property Management
 * System) as the app composes it: everything the layers around it need, declared once in the
 * vertical's index.ts. `src/verticals.ts` lists the modules; `createApp` builds the world's
 * collections, the materializers of the world file, the routes, the background tasks, the caches,
 * the fixtures schema, the Datalab cubes, the console's samples, the docs' examples and the link
 * pages' choices from that list, so nothing below the app names a vertical.
 */
export interface VerticalModule<D extends object = object, A = never> extends VerticalDescriptor {
  /**
   * The verticals whose wire shapes and records this one is built on (the PMS on the POS's orders),
   * by key: the only verticals it may import (through their index.ts), which the app's list must
   * hold too.
   */
  builtOn?: readonly string[];
  /**
   * Builds one entry of the collection from the seed: a pure function of its arguments, the world's
   * origin (ISO: the instant its clock started, where its history ends) and, for a vertical that
   * `lives`, of the instant it is built for (`at`: the clock's time floored to the whole minute, ISO)
   * and the world's pace (the factor of each day's counts). A living entry holds what happened up to
   * `at`, each record and each change appearing at its own instant. The work yields between its
   * days, so that the store can run it at once or in slices (lib/slices.ts).
   */
  build(seed: number, args: A, at: string, pace: PaceOf, origin: string): Sliced<D>;
  /**
   * Whether its business goes on with the clock: an entry's data grows as time passes (its build
   * reads `at`), and the store builds the entries in memory again when the minute changes.
   */
  lives?: boolean;
  /** Registers its routes (the published operations and the client routes). */
  register(app: OpenAPIHono<AppEnv>): void;
  /**
   * Its background work, by name, run by the app's ticker after the platform's: each made per app,
   * handed the store outside any write, makes its own writes (building what it reads in slices first).
   */
  tasks?: Readonly<Record<string, (services: Services) => TickTask>>;
  /** The app's caches it keeps, by name: each app makes its own when it first uses it. */
  caches?: { readonly [K in keyof AppCaches]?: () => AppCaches[K] };
  /** Its cubes of the Datalab. */
  cubes?: readonly CubeDef[];
  /** Lists of post connection values its data can answer, by the post connection's resource. */
  choices?: Readonly<Record<string, ChoiceLister>>;
  /** Its block of the fixture document: the schema and how it is applied. */
  fixtures?: VerticalFixtures;
  /** What the console shows of a consumer's data in this vertical. */
  samples?: readonly ConsoleSample[];
  /**
   * Request body examples of its operations, by operationId, for the served documents, and what the
   * platform's examples may read of its data (the scope of its examples, its VAT codes, its tax rates).
   */
  examples?: VerticalExamples;
}

/** A vertical module of any data (the list of the app). */
// biome-ignore lint/suspicious/noExplicitAny: the list holds modules of different data and arguments
export type AnyVerticalModule = VerticalModule<any, any>;
