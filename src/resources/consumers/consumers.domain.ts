import type { Clock } from '../../lib/clock.js';
import { type ApiError, errors } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import type { Principal } from '../../lib/tokens.js';
import { isHttpUrl } from '../../lib/urls.js';
import { removeConsumerData } from '../../store/cascade.js';
import { eachConsumerOfEnvironment, putConsumer } from '../../store/indexes.js';
import type { ConsumerRecord, World } from '../../store/world.js';
import type { ConsumerItemOut, PostConsumerInput, UpdateConsumerInput } from './consumers.schemas.js';

export const toConsumerItem = (record: ConsumerRecord): ConsumerItemOut => ({
  consumerid: record.consumerid,
  name: record.name,
  email: record.email,
  internal_reference: record.internal_reference,
  redirect_url: record.redirect_url,
});

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A name is 1 to 255 characters, not only blanks, without control characters. */
export function assertValidName(name: string): void {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw errors.consumerNameInvalid('The name is empty');
  if (name.length > 255) throw errors.consumerNameInvalid('The name is longer than 255 characters');
  if (CONTROL_CHARACTERS.test(name)) throw errors.consumerNameInvalid('The name holds control characters');
}

export function assertValidRedirectUrl(url: string | null | undefined): void {
  if (url === null || url === undefined) return;
  if (!isHttpUrl(url)) throw errors.redirectUrlInvalid();
}

/**
 * Finds a consumer the caller may reach. Another account's consumer, or one outside a restricted
 * key's list, does not exist for the caller; one of the account's other environment is a 401.
 */
export function requireConsumer(
  world: World,
  principal: Principal,
  consumerId: string,
  notFound: () => ApiError = errors.consumerNotFound,
): ConsumerRecord {
  const consumer = world.consumers[consumerId.toLowerCase()];
  if (!consumer || consumer.accountid !== principal.accountid) throw notFound();
  if (consumer.envid !== principal.envid) throw errors.wrongEnvironment();
  if (principal.consumers && !principal.consumers.has(consumer.consumerid)) throw notFound();
  return consumer;
}

/**
 * Consumers of the caller's environment that the caller may see and that pass `keep`, in creation
 * order.
 */
export function visibleConsumers(
  world: World,
  principal: Principal,
  keep: (consumer: ConsumerRecord) => boolean = () => true,
): ConsumerRecord[] {
  const out: ConsumerRecord[] = [];
  eachConsumerOfEnvironment(world, principal.accountid, principal.envid, (consumer) => {
    if (principal.consumers && !principal.consumers.has(consumer.consumerid)) return;
    if (principal.mcp && principal.mcp.consumerid !== consumer.consumerid) return;
    if (keep(consumer)) out.push(consumer);
  });
  return out;
}

export interface ConsumerFilters {
  search?: string | undefined;
  internal_reference?: string | undefined;
}

/** search: case-insensitive part of the name, e-mail or internal reference; internal_reference: exact. */
export function matchesFilters(consumer: ConsumerRecord, filters: ConsumerFilters): boolean {
  if (
    filters.internal_reference !== undefined &&
    consumer.internal_reference !== filters.internal_reference
  ) {
    return false;
  }
  if (filters.search !== undefined && filters.search !== '') {
    const text = filters.search;
    const haystacks = [consumer.name, consumer.email, consumer.internal_reference];
    // Each character of the escaped text matches one character, so a field shorter than the text
    // cannot hold it: skipping those keeps a long search from compiling a huge expression (V8
    // refuses one past some size) and from running it against every consumer.
    const holds = (h: string | null) => h !== null && h.length >= text.length && searchPattern(text).test(h);
    if (!haystacks.some(holds)) return false;
  }
  return true;
}

// A case-insensitive regular expression tests 100,000 names without lower-casing copies of them.
let lastSearch: { text: string; pattern: RegExp } | undefined;
function searchPattern(text: string): RegExp {
  if (lastSearch?.text !== text) {
    lastSearch = { text, pattern: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') };
  }
  return lastSearch.pattern;
}

export function createConsumer(
  world: World,
  deps: { ids: IdSource; clock: Clock },
  principal: Principal,
  input: PostConsumerInput,
): ConsumerRecord {
  if (principal.mcp) throw errors.mcpConsumerDenied();
  if (principal.consumers) throw errors.restrictedKey();
  assertValidName(input.name);
  assertValidRedirectUrl(input.redirect_url);
  const record: ConsumerRecord = {
    consumerid: deps.ids.next('consumer'),
    accountid: principal.accountid,
    envid: principal.envid,
    name: input.name,
    email: input.email ?? null,
    internal_reference: input.internal_reference ?? null,
    redirect_url: input.redirect_url ?? null,
    created_on: deps.clock.now().toISOString(),
  };
  putConsumer(world, record);
  return record;
}

/** Applies the fields given (null clears an optional field; a null name leaves the name as is). */
export function updateConsumer(consumer: ConsumerRecord, input: UpdateConsumerInput): ConsumerRecord {
  if (input.name !== undefined && input.name !== null) assertValidName(input.name);
  assertValidRedirectUrl(input.redirect_url);
  if (input.name !== undefined && input.name !== null) consumer.name = input.name;
  if (input.email !== undefined) consumer.email = input.email;
  if (input.internal_reference !== undefined) consumer.internal_reference = input.internal_reference;
  if (input.redirect_url !== undefined) consumer.redirect_url = input.redirect_url;
  return consumer;
}

export function deleteConsumer(world: World, consumer: ConsumerRecord): void {
  removeConsumerData(world, consumer.consumerid);
}
