import type { Context } from 'hono';
import type { AppEnv } from './context.js';

/**
 * The one way from a request to the domain: what a domain function needs of the request's
 * services, taken from `c.var` in one place, instead of an adapter per group.
 */

/** What a write stamps its records with: an id source and the sandbox time (ISO). */
export interface WriteContext {
  mint(kind: string): string;
  /** The sandbox clock, ISO. */
  now: string;
}

/** The id source and the sandbox time of a request's write. */
export function writeContext(c: Context<AppEnv>): WriteContext {
  return { mint: (kind) => c.get('ids').next(kind), now: c.get('clock').now().toISOString() };
}

/** The services a domain function takes, as the request sees them (its write's store inside one). */
export function requestServices(c: Context<AppEnv>) {
  return {
    store: c.get('store'),
    clock: c.get('clock'),
    ids: c.get('ids'),
    ticker: c.get('ticker'),
    catalogue: c.get('catalogue'),
  };
}
