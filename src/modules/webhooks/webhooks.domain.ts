import type { Clock } from '../../lib/clock.js';
import { errors } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import type { Catalogue } from '../../platform/catalogue.js';
import { readFixture } from '../../platform/catalogue.js';
import type { OwnEndpoints } from '../../platform/self.js';
import type { Principal } from '../../platform/tokens.js';
import { isHttpUrl } from '../../platform/urls.js';
import type { WebhookLogRecord, WebhookRecord, World } from '../../store/world.js';
import type {
  WebhookInstanceOut,
  WebhookItemOut,
  WebhookLogOut,
  WebhookPatchInput,
  WebhookPostInput,
} from './webhooks.schemas.js';

/** A webhook type of fixtures/webhook-types.json: api is the One API of the event, null for the platform's. */
export interface WebhookType {
  event: string;
  api: string | null;
}

let cachedTypes: readonly WebhookType[] | undefined;

export function webhookTypes(): readonly WebhookType[] {
  cachedTypes ??= readFixture<{ types: WebhookType[] }>('webhook-types.json').types;
  return cachedTypes;
}

export const toWebhookItem = (type: WebhookType): WebhookItemOut => ({ event: type.event, api: type.api });

/** The wire form of an instance: everything but the signing secret, which is never returned. */
export const toWebhookInstance = (record: WebhookRecord): WebhookInstanceOut => ({
  webhookid: record.webhookid,
  accountid: record.accountid,
  createdby: record.createdby,
  createdon: record.createdon,
  event: record.event,
  url: record.url,
  status: record.status,
  integrationid: record.integrationid,
});

export const toWebhookLog = (record: WebhookLogRecord): WebhookLogOut => ({
  webhooklogid: record.webhooklogid,
  webhookid: record.webhookid,
  event: record.event,
  url: record.url,
  accountid: record.accountid,
  createdon: record.createdon,
  httpstatus: record.httpstatus,
  integrationid: record.integrationid,
});

/** The type of an event, or 400 when the account cannot subscribe to it. */
export function requireWebhookType(types: readonly WebhookType[], event: string): WebhookType {
  const type = types.find((t) => t.event === event);
  if (!type) throw errors.webhookEventInvalid(event);
  return type;
}

/**
 * An http(s) url that does not name the sandbox itself (`own`, on any path: no world delivers to
 * any world, see platform/self.ts).
 */
export function assertWebhookUrl(url: string, own: Pick<OwnEndpoints, 'isOwnUrl'> | null = null): void {
  if (!isHttpUrl(url) || own?.isOwnUrl(url)) throw errors.webhookUrlInvalid();
}

/**
 * The integration an instance is restricted to. An event of a One API needs an active integration
 * of that One API; a platform event takes an optional integrationid, which must exist.
 */
export function assertWebhookIntegration(
  catalogue: Catalogue,
  type: WebhookType,
  integrationid: number | null | undefined,
): number | null {
  const integration =
    integrationid === null || integrationid === undefined ? undefined : catalogue.get(integrationid);
  if (type.api !== null) {
    if (!integration || integration.api !== type.api || integration.status !== 'active') {
      throw errors.webhookIntegrationRequired(type.api);
    }
    return integration.integrationid;
  }
  if (integrationid === null || integrationid === undefined) return null;
  if (!integration) throw errors.integrationInvalid();
  return integration.integrationid;
}

const sameOwner = (record: WebhookRecord, accountid: string, envid: string) =>
  record.accountid === accountid && record.envid === envid;

/** Who is asking, as far as webhook instances go: the environment, and the key when it is restricted. */
export type WebhookCaller = Pick<Principal, 'accountid' | 'envid' | 'clientid' | 'consumers'>;

/**
 * Whether the caller reaches an instance. An unrestricted key reaches every instance of its account
 * and environment. A key restricted to consumers reaches only the instances it created: the others
 * receive events about consumers it cannot see, and may carry urls and secrets of the whole
 * environment.
 */
export function reachesWebhook(caller: WebhookCaller, record: WebhookRecord): boolean {
  if (!sameOwner(record, caller.accountid, caller.envid)) return false;
  return caller.consumers === null || record.restricted_to?.clientid === caller.clientid;
}

/**
 * Whether an instance receives an event about `consumerid`: an instance created by a restricted key
 * receives only events about that key's consumers (none about no consumer); any other instance
 * receives them all.
 */
export function receivesEventsOf(record: WebhookRecord, consumerid: string | null): boolean {
  const restriction = record.restricted_to;
  return !restriction || (consumerid !== null && restriction.consumers.includes(consumerid));
}

/**
 * (url, event) is unique among the instances the caller reaches (a restricted key cannot learn of the
 * others through this refusal); `except` is the instance being changed.
 */
export function assertUniqueWebhook(
  world: World,
  caller: WebhookCaller,
  url: string,
  event: string,
  except?: string,
): void {
  for (const record of Object.values(world.webhooks)) {
    if (record.webhookid === except || !reachesWebhook(caller, record)) continue;
    if (record.url === url && record.event === event) throw errors.webhookDuplicate();
  }
}

/** An instance the caller reaches; anything else does not exist for the caller. */
export function requireWebhook(world: World, caller: WebhookCaller, webhookid: string): WebhookRecord {
  const record = world.webhooks[webhookid.toLowerCase()];
  if (!record || !reachesWebhook(caller, record)) throw errors.webhookNotFound();
  return record;
}

/** The instances the caller reaches, in creation order, optionally of one status. */
export function listWebhooks(
  world: World,
  caller: WebhookCaller,
  status?: WebhookRecord['status'],
): WebhookRecord[] {
  return Object.values(world.webhooks).filter(
    (record) => reachesWebhook(caller, record) && (status === undefined || record.status === status),
  );
}

export interface WebhookDeps {
  ids: IdSource;
  clock: Clock;
  catalogue: Catalogue;
  types: readonly WebhookType[];
  /** The endpoints of the sandbox itself, which no url may name. */
  own: Pick<OwnEndpoints, 'isOwnUrl'> | null;
}

/**
 * Webhook instances one account may hold, both environments together: the service documents no
 * bound (only one instance per url and type), so it is far above what an integration subscribes.
 * Every event walks the instances, and each holds deliveries and logs of its own.
 */
export const MAX_WEBHOOKS_PER_ACCOUNT = 1000;

/** Refuses with 413 a new instance of an account that holds MAX_WEBHOOKS_PER_ACCOUNT. */
function assertRoomForWebhook(world: World, accountid: string): void {
  let held = 0;
  for (const record of Object.values(world.webhooks)) if (record.accountid === accountid) held += 1;
  if (held >= MAX_WEBHOOKS_PER_ACCOUNT) {
    throw errors.listFull(
      'webhook instances per account',
      MAX_WEBHOOKS_PER_ACCOUNT,
      'DELETE /webhooks/{webhookid} removes one',
    );
  }
}

export function createWebhook(
  world: World,
  deps: WebhookDeps,
  principal: WebhookCaller,
  input: WebhookPostInput,
): WebhookRecord {
  const type = requireWebhookType(deps.types, input.event);
  assertWebhookUrl(input.url, deps.own);
  const integrationid = assertWebhookIntegration(deps.catalogue, type, input.integrationid);
  assertUniqueWebhook(world, principal, input.url, input.event);
  assertRoomForWebhook(world, principal.accountid);
  const record: WebhookRecord = {
    webhookid: deps.ids.next('webhook'),
    accountid: principal.accountid,
    envid: principal.envid,
    createdby: null,
    createdon: deps.clock.now().toISOString(),
    event: input.event,
    url: input.url,
    status: 'active',
    integrationid,
    signingsecret: input.signingsecret ? input.signingsecret : null,
  };
  // The instance belongs to the restricted key's consumers: see reachesWebhook and receivesEventsOf.
  if (principal.consumers !== null) {
    record.restricted_to = { clientid: principal.clientid, consumers: [...principal.consumers].sort() };
  }
  world.webhooks[record.webhookid] = record;
  return record;
}

/** Applies the fields given: null leaves a field as it is, an empty signing secret removes it. */
export function updateWebhook(
  world: World,
  caller: WebhookCaller,
  record: WebhookRecord,
  input: WebhookPatchInput,
  own: Pick<OwnEndpoints, 'isOwnUrl'> | null = null,
): WebhookRecord {
  const url = input.url ?? undefined;
  if (url !== undefined) {
    assertWebhookUrl(url, own);
    assertUniqueWebhook(world, caller, url, record.event, record.webhookid);
  }
  if (url !== undefined) record.url = url;
  if (input.status !== undefined && input.status !== null) record.status = input.status;
  if (input.signingsecret !== undefined && input.signingsecret !== null) {
    record.signingsecret = input.signingsecret === '' ? null : input.signingsecret;
    // A secret set by hand ends the overlap of a rotation a fault made: the new one signs at once.
    delete record.signingsecret_previous;
  }
  return record;
}

/** Removes an instance, its delivery logs and its deliveries (pending ones are not sent). */
export function deleteWebhook(world: World, record: WebhookRecord): void {
  delete world.webhooks[record.webhookid];
  for (const [key, log] of Object.entries(world.webhook_logs)) {
    if (log.webhookid === record.webhookid) delete world.webhook_logs[key];
  }
  for (const [key, delivery] of Object.entries(world.webhook_deliveries)) {
    if (delivery.webhookid === record.webhookid) delete world.webhook_deliveries[key];
  }
}

/** The delivery logs of an instance, newest first (the later recorded first among equal times). */
export function logsOf(world: World, webhookid: string): WebhookLogRecord[] {
  return Object.values(world.webhook_logs)
    .filter((log) => log.webhookid === webhookid)
    .reverse()
    .sort((a, b) => (a.createdon < b.createdon ? 1 : a.createdon > b.createdon ? -1 : 0));
}

/**
 * The active instances an event is delivered to. An instance restricted to an integration receives
 * only the events of that integration; one without an integrationid receives every such event. An
 * instance created by a restricted key receives only the events about its consumers.
 */
export function subscribersOf(
  world: World,
  accountid: string,
  envid: string,
  event: string,
  integrationid?: number | null,
  consumerid: string | null = null,
): WebhookRecord[] {
  return Object.values(world.webhooks).filter(
    (record) =>
      sameOwner(record, accountid, envid) &&
      record.status === 'active' &&
      record.event === event &&
      (record.integrationid === null || record.integrationid === integrationid) &&
      receivesEventsOf(record, consumerid),
  );
}
