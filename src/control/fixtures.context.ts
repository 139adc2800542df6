import type { Clock } from '../lib/clock.js';
import { messages } from '../lib/errors.js';
import type { IdSource } from '../lib/ids.js';
import type { Catalogue, Integration } from '../platform/catalogue.js';
import type { AppCaches, SandboxConfig } from '../platform/context.js';
import type { WorldStore } from '../store/store.js';
import { FixtureError, formatPath, type PathPart } from './fixtures.errors.js';

/** The services of an app a fixture needs: those the API's handlers hand the same domain functions. */
export interface FixtureServices {
  ids: IdSource;
  clock: Clock;
  catalogue: Catalogue;
  caches: AppCaches;
  config: SandboxConfig;
  selfOrigins?: Set<string>;
}

/** What the loader offers the code that applies one part of the document. */
export interface FixtureContext {
  /** The store written through: the write's, or a new world's when the document replaces it. */
  readonly store: WorldStore;
  readonly services: FixtureServices;
  readonly file: string | null;
  /** The id given (lower-cased), or the one derived from the seed and the record's path. */
  idFor(given: string | undefined, path: readonly PathPart[]): string;
  /** Runs the domain call of one record: a refusal of the API's rules becomes a FixtureError there. */
  at<T>(path: readonly PathPart[], record: unknown, work: () => T): T;
  /** Refuses the document at `path` for a rule of the fixture itself (a clashing id, an unknown ref). */
  fail(path: readonly PathPart[], rule: string, detail: string, status?: 400 | 422): never;
  /** The sandbox clock, ISO. */
  now(): string;
}

export const ID_TAKEN = 'The id is already used';
export const UNKNOWN_REFERENCE = 'The document names a record that does not exist';

/**
 * An id source that answers `id` the first time a record of `kind` is minted, and the app's ids for
 * everything else: the domain function then creates the record under the fixture's id, exactly as
 * it creates one under a minted id.
 */
export function pinnedIds(base: IdSource, kind: string, id: string): IdSource & { readonly used: boolean } {
  let used = false;
  return {
    get used() {
      return used;
    },
    next(asked) {
      if (!used && asked === kind) {
        used = true;
        return id;
      }
      return base.next(asked);
    },
  };
}

/** Names given with `ref`, each standing for the id of the record that declared it. */
export class RefTable {
  readonly #ids = new Map<string, string>();

  constructor(private readonly context: FixtureContext) {}

  declare(ref: string | undefined, id: string, path: readonly PathPart[]): void {
    if (ref === undefined) return;
    if (this.#ids.has(ref)) {
      this.context.fail(
        [...path, 'ref'],
        'The ref is given twice',
        `Another record already has the ref '${ref}'`,
      );
    }
    this.#ids.set(ref, id);
  }

  get(ref: string): string | undefined {
    return this.#ids.get(ref);
  }

  /** The id a ref stands for, or the value itself (an id of the software, say). */
  resolve(value: string): string;
  resolve(value: string | null | undefined): string | null | undefined;
  resolve(value: string | null | undefined): string | null | undefined {
    if (value === null || value === undefined) return value;
    return this.#ids.get(value) ?? value;
  }
}

/** The coverage rule of vertical-connection.ts: the integration must implement the operation. */
export function assertCovered(
  context: FixtureContext,
  integration: Integration,
  operationId: string,
  path: readonly PathPart[],
): void {
  const coverage = integration.coverage.find((entry) => entry.operation === operationId)?.status;
  if (coverage !== 'SUPPORTED') {
    throw new FixtureError(400, messages.accountingFailure, {
      path: formatPath(path),
      detail: `${integration.name} does not support ${operationId} (${coverage ?? 'NOT_SUPPORTED'})`,
      file: context.file,
    });
  }
}
