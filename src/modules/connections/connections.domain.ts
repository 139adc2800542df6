import { z } from '@hono/zod-openapi';
import type { Clock } from '../../lib/clock.js';
import { isCountryCode } from '../../lib/country-codes.js';
import { errors } from '../../lib/errors.js';
import { type IdSource, isUuid } from '../../lib/ids.js';
import { own, putOwn } from '../../lib/own.js';
import {
  type Catalogue,
  type Integration,
  type PostConnectionDefinition,
  placeholderPostConnection,
} from '../../platform/catalogue.js';
import type {
  AnyVerticalModule,
  ChoiceSources,
  PostConnectionChoice,
} from '../../platform/vertical-module.js';
import { connectionsOfConsumer, putConnection } from '../../store/indexes.js';
import {
  type ConnectionRecord,
  type ConsumerRecord,
  type LinkRecord,
  type TransactionRecord,
  transactionKey,
  type World,
} from '../../store/world.js';
import { agentAnswers } from './connection-life.js';
import type {
  ConnectionItemOut,
  KeyValue,
  PatchConnectionInput,
  PostConnectionInput,
} from './connections.schemas.js';

export interface ConnectionDeps {
  ids: IdSource;
  clock: Clock;
  catalogue: Catalogue;
}

export function toConnectionItem(
  connection: ConnectionRecord,
  catalogue: Catalogue,
  now: string,
): ConnectionItemOut {
  const integration = catalogue.get(connection.integrationid);
  return {
    connectionid: connection.connectionid,
    name: connection.name,
    integration: integration?.name ?? '',
    integrationid: connection.integrationid,
    api: integration?.api ?? '',
    data: connection.data,
    status: connection.status,
    agent: integration?.local_agent ? { status: agentAnswers(connection, now) ? 'up' : 'down' } : null,
  };
}

/** Every connection of the consumer, active and inactive, in creation order. */
export const connectionsOf = (world: World, consumerid: string): ConnectionRecord[] =>
  connectionsOfConsumer(world, consumerid);

// ---------------------------------------------------------------------------------------------
// Rules, one function each. They only read: callers check everything before writing anything.

const DATETIME = z.iso.datetime({ offset: true, local: true });

/** Each keyed value must be an ISO 8601 date-time (422 naming the first bad key). */
export function checkDatetimes(list: KeyValue[] | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of list ?? []) {
    if (!DATETIME.safeParse(value).success) throw errors.invalidDatetime(key);
    putOwn(out, key, value);
  }
  return out;
}

/** The credentials a connection gives itself (the connector-level ones are set once, by the vendor). */
export const connectionCredentials = (integration: Integration) =>
  integration.credentials.filter((c) => c.visibility !== 'connector');

/**
 * Given credentials must name only credentials of the integration a connection may carry, and
 * every mandatory one with a non-empty value.
 */
export function checkCredentials(
  integration: Integration,
  given: Record<string, string> | KeyValue[],
): Record<string, string> {
  const values = Array.isArray(given) ? Object.fromEntries(given.map((c) => [c.key, c.value])) : given;
  const definitions = connectionCredentials(integration);
  const known = new Set(definitions.map((d) => d.name));
  const unknown = Object.keys(values).filter((key) => !known.has(key));
  if (unknown.length) {
    const expected = definitions.map((d) => d.name).join(', ') || 'none';
    throw errors.missingCredential(
      `Unknown credential ${list(unknown)} for integration ${integration.integrationid} (expected: ${expected})`,
    );
  }
  const missing = definitions.filter((d) => !d.optional && !values[d.name]?.trim()).map((d) => d.name);
  if (missing.length) throw errors.missingCredential(`Missing or empty: ${list(missing)}`);
  return { ...values };
}

/** The post connections every connection of the integration must hold a value of. */
export const mandatoryPostConnections = (integration: Integration): PostConnectionDefinition[] =>
  integration.post_connections.filter((p) => p.config.enabled && !p.optional);

/** Given post connection values must name enabled post connections and hold every mandatory one. */
export function checkPostConnections(integration: Integration, given: KeyValue[]): Record<string, string> {
  const enabled = integration.post_connections.filter((p) => p.config.enabled);
  const known = new Set(enabled.map((p) => p.id));
  const unknown = given.map((p) => p.key).filter((key) => !known.has(key));
  if (unknown.length) {
    const expected = enabled.map((p) => p.id).join(', ') || 'none';
    throw errors.missingPostConnection(
      `Unknown post connection ${list(unknown)} for integration ${integration.integrationid} (expected: ${expected})`,
    );
  }
  const values = Object.fromEntries(given.map((p) => [p.key, p.value]));
  const missing = mandatoryPostConnections(integration)
    .filter((p) => !values[p.id]?.trim())
    .map((p) => p.id);
  if (missing.length) throw errors.missingPostConnection(`Missing or empty: ${list(missing)}`);
  return values;
}

const list = (keys: string[]) => keys.map((k) => `'${k}'`).join(', ');

/** An integration a new connection may use: in the catalogue and active. */
export function requireActiveIntegration(catalogue: Catalogue, integrationid: number): Integration {
  const integration = catalogue.get(integrationid);
  if (integration?.status !== 'active') throw errors.integrationInvalid();
  return integration;
}

/** At most one active connection per consumer per integrationid. */
export function assertNoOtherActive(
  world: World,
  consumerid: string,
  integrationid: number,
  except?: string,
): void {
  const clash = connectionsOfConsumer(world, consumerid).some(
    (c) => c.integrationid === integrationid && c.status === 'active' && c.connectionid !== except,
  );
  if (clash) throw errors.connectionAlreadyActive(integrationid);
}

/** Active integrations a link offers, narrowed by its One APIs and its country. */
export function linkChoices(
  catalogue: Catalogue,
  filters: { country: string | null; apis: readonly string[] | null },
): Integration[] {
  const country = filters.country?.toUpperCase() ?? null;
  return catalogue.integrations.filter(
    (i) =>
      i.status === 'active' &&
      (!filters.apis?.length || filters.apis.includes(i.api)) &&
      (country === null || i.supported_countries === null || i.supported_countries.includes(country)),
  );
}

/** A country filter must be an ISO 3166-1 alpha-2 code that some offered integration supports. */
export function assertCountry(catalogue: Catalogue, country: string, apis: readonly string[] | null): void {
  if (!isCountryCode(country)) throw errors.countryCodeInvalid(country);
  if (linkChoices(catalogue, { country, apis }).length === 0) throw errors.countryNotSupported(country);
}

/** The connection of the consumer named by a path parameter (400 when it is not a uuid, 404 when missing). */
export function requireConnection(
  world: World,
  consumer: ConsumerRecord,
  connectionid: string,
): ConnectionRecord {
  if (!isUuid(connectionid)) throw errors.connectionIdInvalid();
  const connection = own(world.connections, connectionid.toLowerCase());
  if (!connection || connection.consumerid !== consumer.consumerid) throw errors.connectionNotFound();
  return connection;
}

/** The integration of an existing connection, which must still be offered. */
export function requireIntegrationOf(catalogue: Catalogue, connection: ConnectionRecord): Integration {
  const integration = catalogue.get(connection.integrationid);
  if (integration?.status !== 'active') {
    throw errors.connectionsNotRetrieved(
      `The integration ${connection.integrationid} of this connection is no longer active`,
    );
  }
  return integration;
}

/** A blank or missing name stands for the integration's name. */
const nameOr = (name: string | null | undefined, fallback: string) =>
  name === null || name === undefined || name.trim() === '' ? fallback : name;

// ---------------------------------------------------------------------------------------------
// Writes.

function newLink(
  world: World,
  deps: ConnectionDeps,
  fields: Omit<LinkRecord, 'linkid' | 'created_on' | 'completed_on'>,
): LinkRecord {
  const link: LinkRecord = {
    linkid: deps.ids.next('link'),
    ...fields,
    created_on: deps.clock.now().toISOString(),
    completed_on: null,
  };
  world.links[link.linkid] = link;
  return link;
}

export interface CreateResult {
  connection: ConnectionRecord | null;
  link: LinkRecord;
}

/**
 * POST connections. Order of the checks (the consumer was resolved by the caller, 404 first):
 * the datetimes' format (422, a property of the input alone); then, with an integrationid, the
 * integration (400), the one-active-connection rule (400), the credentials (400) and the post
 * connections (400); without one, the fields that need an integrationid (400), the country code
 * (400) and whether an integration supports it (400). Nothing is written before all have passed.
 */
export function createConnection(
  world: World,
  deps: ConnectionDeps,
  consumer: ConsumerRecord,
  input: PostConnectionInput | null,
): CreateResult {
  const datetimes = checkDatetimes(input?.datetimes);
  const integrationid = input?.integrationid;
  if (integrationid === null || integrationid === undefined) {
    return { connection: null, link: linkToChoose(world, deps, consumer, input) };
  }
  const integration = requireActiveIntegration(deps.catalogue, integrationid);
  assertNoOtherActive(world, consumer.consumerid, integrationid);
  const credentials = input?.credentials ? checkCredentials(integration, input.credentials) : null;
  const postConnections = input?.post_connections
    ? checkPostConnections(integration, input.post_connections)
    : {};

  const now = deps.clock.now().toISOString();
  const connection: ConnectionRecord = {
    connectionid: deps.ids.next('connection'),
    consumerid: consumer.consumerid,
    integrationid,
    name: nameOr(input?.name, integration.name),
    status: credentials ? 'active' : 'inactive',
    credentials: credentials ?? {},
    post_connections: postConnections,
    datetimes,
    data: null,
    created_on: now,
    updated_on: now,
  };
  putConnection(world, connection);
  // With an integrationid the link always goes back to the consumer's redirect url.
  const link = newLink(world, deps, {
    consumerid: consumer.consumerid,
    connectionid: connection.connectionid,
    integrationid,
    country: null,
    apis: null,
    redirect: true,
  });
  return { connection, link };
}

/** POST connections without an integrationid: a link where the end user picks one. */
function linkToChoose(
  world: World,
  deps: ConnectionDeps,
  consumer: ConsumerRecord,
  input: PostConnectionInput | null,
): LinkRecord {
  const needIntegration = (['name', 'credentials', 'post_connections', 'datetimes'] as const).filter(
    (field) => input?.[field] !== null && input?.[field] !== undefined,
  );
  if (needIntegration.length) {
    throw errors.integrationInvalid(`${needIntegration.join(', ')} need an integrationid`);
  }
  const apis = input?.apis?.length ? [...input.apis] : null;
  const country = input?.country ?? null;
  if (country !== null) assertCountry(deps.catalogue, country, apis);
  return newLink(world, deps, {
    consumerid: consumer.consumerid,
    connectionid: null,
    integrationid: null,
    country: country?.toUpperCase() ?? null,
    apis,
    redirect: input?.redirect ?? false,
  });
}

/**
 * PATCH connections. Order of the checks (after the consumer's 404): the connectionid (400, then
 * 404), the datetimes' format (422), the connection's integration still offered (400), the
 * credentials (400), the post connections (400), and when complete credentials would make an
 * inactive connection active, the one-active-connection rule (400).
 */
export function updateConnection(
  world: World,
  deps: ConnectionDeps,
  consumer: ConsumerRecord,
  connectionid: string,
  input: PatchConnectionInput | null,
): LinkRecord {
  const connection = requireConnection(world, consumer, connectionid);
  const datetimes = checkDatetimes(input?.datetimes);
  const integration = requireIntegrationOf(deps.catalogue, connection);
  const credentials = input?.credentials ? checkCredentials(integration, input.credentials) : null;
  const postConnections = input?.post_connections
    ? checkPostConnections(integration, input.post_connections)
    : null;
  if (credentials && connection.status !== 'active') {
    assertNoOtherActive(world, consumer.consumerid, connection.integrationid, connection.connectionid);
  }

  if (input?.name !== null && input?.name !== undefined)
    connection.name = nameOr(input.name, integration.name);
  if (credentials) {
    connection.credentials = credentials;
    connection.status = 'active';
  }
  if (postConnections) connection.post_connections = postConnections;
  connection.datetimes = { ...connection.datetimes, ...datetimes };
  connection.updated_on = deps.clock.now().toISOString();
  return newLink(world, deps, {
    consumerid: consumer.consumerid,
    connectionid: connection.connectionid,
    integrationid: connection.integrationid,
    country: null,
    apis: null,
    redirect: input?.redirect ?? false,
  });
}

/** Removes the connection and every record that names it (its transactions and links among them). */
export function deleteConnection(world: World, connection: ConnectionRecord): void {
  for (const [name, collection] of Object.entries(world)) {
    if (name === 'meta' || collection === null || typeof collection !== 'object') continue;
    const records = collection as Record<string, Record<string, unknown>>;
    for (const [key, record] of Object.entries(records)) {
      if (record && typeof record === 'object' && record.connectionid === connection.connectionid) {
        delete records[key];
      }
    }
  }
}

/** A recorded request of one of the consumer's connections, by its client request id. */
export function findTransaction(
  world: World,
  consumer: ConsumerRecord,
  connectionid: string,
  clientRequestId: string,
): TransactionRecord {
  const connection = own(world.connections, connectionid.toLowerCase());
  const transaction =
    connection && connection.consumerid === consumer.consumerid
      ? own(world.transactions, transactionKey(connection.connectionid, clientRequestId))
      : undefined;
  if (!transaction) throw errors.transactionNotFound();
  return transaction;
}

// ---------------------------------------------------------------------------------------------
// The end user's link page.

/** A link that has not been used yet, with its consumer. */
export function requireOpenLink(
  world: World,
  linkid: string,
): { link: LinkRecord; consumer: ConsumerRecord } {
  const key = linkid.toLowerCase();
  const link = own(world.links, key);
  const consumer = link ? own(world.consumers, link.consumerid) : undefined;
  if (!link || link.completed_on !== null || !consumer) throw errors.linkNotFound();
  if (link.connectionid !== null && !own(world.connections, link.connectionid)) throw errors.linkNotFound();
  return { link, consumer };
}

/** The integrations the page of a link offers: the link's own one, or the choices of its filters. */
export function linkIntegrations(catalogue: Catalogue, link: LinkRecord): Integration[] {
  if (link.integrationid !== null) {
    const integration = catalogue.get(link.integrationid);
    return integration ? [integration] : [];
  }
  return linkChoices(catalogue, link);
}

/** The values a post connection may take on the page of a link, or null when the sandbox cannot list them. */
export function postConnectionChoices(
  sources: ChoiceSources & { verticals: readonly AnyVerticalModule[] },
  integration: Integration,
  consumerid: string,
  connection: ConnectionRecord | null,
  definition: PostConnectionDefinition,
): PostConnectionChoice[] | null {
  // The first vertical that lists the resource for this integration answers (each lists only its own).
  for (const module of sources.verticals) {
    const lister =
      module.choices && Object.hasOwn(module.choices, definition.resource)
        ? module.choices[definition.resource]
        : undefined;
    const choices = lister?.(sources, integration, consumerid, connection);
    if (choices) return choices;
  }
  return null;
}

export interface LinkSubmission {
  integrationid: number | null;
  credentials: Record<string, string>;
  /** Post connection values by id; they replace the connection's own, which stand for those not given. */
  postConnections: Record<string, string>;
  /**
   * A script's completion (JSON) may leave mandatory post connections out: those the connection does
   * not hold get the sandbox's placeholder (as seeded connections hold). The page's form may not.
   */
  placeholders: boolean;
}

/**
 * The end user submits the page: the credentials follow the rules of POST connections, then the
 * link's connection is activated (or, for a link without one, a connection of the chosen
 * integration is created active) and the link is used up. The post connections follow the rule of
 * POST and PATCH connections (checkPostConnections) on the values the connection would hold: the
 * connection's former ones, replaced by those submitted.
 */
export function completeLink(
  world: World,
  deps: ConnectionDeps,
  link: LinkRecord,
  submission: LinkSubmission,
): ConnectionRecord {
  const existing = link.connectionid !== null ? own(world.connections, link.connectionid) : undefined;
  let integration: Integration;
  if (existing) {
    if (submission.integrationid !== null && submission.integrationid !== existing.integrationid) {
      throw errors.integrationInvalid(`This link is for the integration ${existing.integrationid}`);
    }
    integration = requireIntegrationOf(deps.catalogue, existing);
  } else {
    if (submission.integrationid === null) {
      throw errors.integrationInvalid('Choose one of the integrations the link offers');
    }
    const chosen = submission.integrationid;
    const offered = linkChoices(deps.catalogue, link).find((i) => i.integrationid === chosen);
    if (!offered) throw errors.integrationInvalid();
    integration = offered;
  }
  const credentials = checkCredentials(integration, submission.credentials);
  if (existing?.status !== 'active') {
    assertNoOtherActive(world, link.consumerid, integration.integrationid, existing?.connectionid);
  }
  const held = { ...existing?.post_connections, ...submission.postConnections };
  if (submission.placeholders) {
    for (const definition of mandatoryPostConnections(integration)) {
      held[definition.id] ??= placeholderPostConnection(definition);
    }
  }
  const postConnections = checkPostConnections(
    integration,
    Object.entries(held).map(([key, value]) => ({ key, value })),
  );

  const now = deps.clock.now().toISOString();
  let connection: ConnectionRecord;
  if (existing) {
    existing.credentials = credentials;
    existing.post_connections = postConnections;
    existing.status = 'active';
    existing.updated_on = now;
    connection = existing;
  } else {
    connection = {
      connectionid: deps.ids.next('connection'),
      consumerid: link.consumerid,
      integrationid: integration.integrationid,
      name: integration.name,
      status: 'active',
      credentials,
      post_connections: postConnections,
      datetimes: {},
      data: null,
      created_on: now,
      updated_on: now,
    };
    putConnection(world, connection);
    link.connectionid = connection.connectionid;
    link.integrationid = integration.integrationid;
  }
  link.completed_on = now;
  return connection;
}
