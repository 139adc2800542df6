import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { giveTurn } from '../lib/slices.js';
import type { ApiName } from './catalogue.js';
import type { AppEnv } from './context.js';
import type { DatasetRef } from './datasets.js';
import { requireVerticalConnection, type VerticalScope } from './vertical-connection.js';

/** A route that names its operation: the coverage of an integration is kept per operationId. */
export type OperationRoute = RouteConfig & { operationId: string };

/**
 * A vertical as its operations see it: its One API, and how the data an operation works on is
 * opened once the consumer, its connection and the integration's coverage have been checked (a
 * connection's dataset, an accounting folder's ledger...).
 */
export interface Vertical<D> {
  api: ApiName;
  /**
   * The generated dataset `open` reads, if any: the operation builds it first, in slices, when it is
   * not in memory (a first read long after the world's origin generates every day since), so that
   * the other requests and worlds are answered meanwhile; `open` then finds it at once.
   */
  dataset?(c: Context<AppEnv>, scope: VerticalScope): DatasetRef;
  /** May be asynchronous (an accounting folder's ledger opens the book years the clock entered). */
  open(c: Context<AppEnv>, scope: VerticalScope): D | Promise<D>;
}

/** What a vertical operation's handler is handed besides the request: the checked scope and its data. */
export type OperationScope<D> = VerticalScope & { data: D };

type Ctx<R extends OperationRoute> = Parameters<RouteHandler<R, AppEnv>>[0];

/**
 * The handler of one vertical operation. The route carries the operationId, so nothing restates it:
 * the wrapper resolves the consumer (404/401), its active connection of the vertical (400 without
 * one), the integration's coverage of that operation (400 when not SUPPORTED) and the data, then
 * hands them to `handle`, typed from the route like any handler.
 */
export function operation<R extends OperationRoute, D>(
  vertical: Vertical<D>,
  route: R,
  handle: (c: Ctx<R>, scope: OperationScope<D>) => ReturnType<RouteHandler<R, AppEnv>>,
  /**
   * The operation whose coverage this one follows (a deprecated shape is implemented exactly when
   * its current operation is: the catalogue lists current operationIds only). The route registered
   * and served keeps its own operationId.
   */
  coveredAs: { operationId: string } = route,
): Operation<R> {
  const handler = (c: Ctx<R>) => {
    const context = c as unknown as Context<AppEnv>;
    const scope = requireVerticalConnection(context, vertical.api, coveredAs.operationId);
    const opened = () => {
      const data = vertical.open(context, scope);
      if (data instanceof Promise) {
        return data.then((ready) => handle(c, { ...scope, data: ready }) as unknown as Response);
      }
      return handle(c, { ...scope, data });
    };
    const ref = vertical.dataset?.(context, scope);
    const building = ref ? context.get('store').prepare(ref.collection, ref.key, ref.args) : undefined;
    // The handler's work on what was built is a piece of its own, after the build's last.
    return building
      ? (building.then(giveTurn).then(() => opened() as unknown as Response) as unknown as Response)
      : opened();
  };
  return Object.assign(handler as RouteHandler<R, AppEnv>, { route, covers: coveredAs.operationId });
}

/**
 * A vertical operation's handler, carrying its route (what registering it needs) and the operation
 * whose coverage it checks, which the catalogue lists under the vertical's One API
 * (fixtures/operations-by-api.json).
 */
export type Operation<R extends OperationRoute = OperationRoute> = RouteHandler<R, AppEnv> & {
  readonly route: R;
  readonly covers: string;
};

/**
 * Registers operations in the order given (the order matters where two paths could match one
 * request: `.../invoices/multi-analytic-plans/{id}` before `.../invoices/{id}`). Each names its
 * route itself, so no route is listed twice.
 */
export function registerOperations(app: OpenAPIHono<AppEnv>, operations: readonly Operation[]): void {
  const register = app.openapi.bind(app) as (route: OperationRoute, handler: Operation) => unknown;
  for (const op of operations) register(op.route, op);
}
