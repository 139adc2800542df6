import { expect } from 'vitest';
import { livingCollections, verticalMaterializers } from '../../src/control/seeded-world.js';
import { ApiError, ValidationFailure } from '../../src/lib/errors.js';
import { Store } from '../../src/store/store.js';
import type { World } from '../../src/store/world.js';

/** What the unit tests of the modules' domain rules share: how a refusal is read, and frozen seeds. */

/** A refusal as a client sees it: status, message, detail and error code (or a 422's issues). */
export type Refusal = { status: number; message: string; detail: string; code: string | undefined };

/** The refusal `action` throws; fails when it throws nothing, rethrows anything but a refusal. */
export function refusal(action: () => unknown): Refusal {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationFailure)
      return { status: 422, issues: error.issues } as unknown as Refusal;
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, message: error.message, detail: error.detail, code: error.errorCode };
  }
  throw new Error('expected a refusal');
}

/** The refusal `action` throws, checking that it left `state` exactly as it found it. */
export function refusedUnchanged(state: unknown, action: () => unknown): Refusal {
  const before = JSON.stringify(state);
  const refused = refusal(action);
  expect(JSON.stringify(state)).toBe(before);
  return refused;
}

/** Freezes a seeded value built once per file, so that each test must work on a copy of its own. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A store of `world` that builds the verticals' datasets, as an app's store does. */
export const datasetStore = (world: World): Store =>
  Store.memory(world, { materializers: verticalMaterializers(), living: livingCollections() });
