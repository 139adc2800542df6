import type { z } from '@hono/zod-openapi';
import { serviceError } from '../lib/errors.js';
import type { Sliced } from '../lib/slices.js';
import {
  connectorSlug,
  createCustomRecord,
  customSegments,
  ensureCustomCollection,
} from '../modules/custom/index.js';
import type { ApiName, Integration } from '../platform/catalogue.js';
import type { FixtureContext } from '../platform/fixtures/context.js';
import { type PathPart, ruleError } from '../platform/fixtures/errors.js';
import type { VerticalRecords } from '../platform/fixtures/kit.js';
import { verticalFailure } from '../platform/vertical-connection.js';
import type { ConnectionRecord } from '../store/world.js';
import type { CustomCollectionFixture } from './fixtures.schema.js';

/**
 * The `custom` section of a connection: records of its custom routes, by custom path. Each record
 * goes through the function a POST to the path calls (custom-records.ts), with the same bounds and
 * the same refusal of an id the collection already holds.
 */

/** The One APIs whose connections the official clients reach through custom routes. */
const CUSTOM_ROUTE_APIS: ReadonlySet<ApiName> = new Set(['Custom', 'Accounting', 'Invoicing', 'Banking']);

type Section = z.output<typeof CustomCollectionFixture>;

/** Applies the sections, one slice a record; answers the ids of the records created, by custom path. */
export function* applyCustom(
  context: FixtureContext,
  connection: ConnectionRecord,
  integration: Integration,
  sections: readonly Section[] | undefined,
  raw: unknown,
  path: readonly PathPart[],
): Sliced<VerticalRecords> {
  const out: VerticalRecords = {};
  if (!sections?.length) return out;
  const at = [...path, 'custom'];
  const refuse = (error: unknown, where: readonly PathPart[]) => ruleError(error, null, where, context.file);
  if (!CUSTOM_ROUTE_APIS.has(integration.api)) {
    refuse(
      verticalFailure(
        `${integration.name} is an integration of the ${integration.api} API, which has no custom routes: custom records need a Custom, Accounting, Invoicing or Banking connection`,
      ),
      at,
    );
  }
  if (connection.status !== 'active') {
    refuse(
      serviceError(
        'noActiveConnection',
        'The connection is inactive: custom records need an active connection',
      ),
      at,
    );
  }
  const rawSections = Array.isArray(raw) ? raw : [];
  for (const [index, section] of sections.entries()) {
    const where = [...at, index];
    if (section.connector !== undefined) {
      const named = String(section.connector).toLowerCase();
      if (named !== String(integration.integrationid) && named !== connectorSlug(integration.name)) {
        context.fail(
          [...where, 'connector'],
          'The connector is not the connection’s',
          `The connection is to ${integration.name} (${integration.integrationid}, ${connectorSlug(integration.name)}), not '${section.connector}'`,
        );
      }
    }
    const segments = customSegments(section.path);
    if (segments.length === 0) {
      context.fail([...where, 'path'], 'The custom path is empty', 'Give at least one segment: products');
    }
    const key = segments.join('/');
    const world = context.store.world;
    context.at(where, null, () => ensureCustomCollection(world, connection, segments));
    // The records as written: the schema's copy would leave out a key such as `__proto__`.
    const rawRecords = (rawSections[index] as { records?: unknown[] } | undefined)?.records ?? [];
    const ids: string[] = [];
    for (const [i, record] of section.records.entries()) {
      const recordPath = [...where, 'records', i];
      const body = rawRecords[i] ?? record;
      const created = context.at(recordPath, body, () =>
        createCustomRecord(world, connection, segments, body, () => context.idFor(undefined, recordPath)),
      );
      ids.push(String(created.id));
      yield;
    }
    out[key] = [...(out[key] ?? []), ...ids];
  }
  return out;
}
