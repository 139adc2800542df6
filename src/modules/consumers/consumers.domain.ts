import type { Clock } from '../../lib/clock.js';
import { errors } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import type { Principal } from '../../platform/tokens.js';
import { isHttpUrl } from '../../platform/urls.js';
import { removeConsumerData } from '../../store/cascade.js';
import { putConsumer } from '../../store/indexes.js';
import type { WorldStore } from '../../store/store.js';
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

export interface ConsumerFilters {
  search?: string | undefined;
  internal_reference?: string | undefined;
}

/**
 * The filters of GET /consumers as one test, its pattern compiled once: search, a case-insensitive
 * part of the name, e-mail or internal reference; internal_reference, exact.
 */
export function consumerMatcher(filters: ConsumerFilters): (consumer: ConsumerRecord) => boolean {
  const text = filters.search ?? '';
  // A case-insensitive regular expression tests many names without lower-casing copies of them. It
  // is compiled on the first field long enough to hold the text: each character of the escaped text
  // matches one character, so a shorter field cannot, and a text longer than every field (V8 refuses
  // an expression past some size) is never compiled.
  let pattern: RegExp | undefined;
  const holds = (field: string | null) => {
    if (field === null || field.length < text.length) return false;
    pattern ??= new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    return pattern.test(field);
  };
  return (consumer) => {
    if (
      filters.internal_reference !== undefined &&
      consumer.internal_reference !== filters.internal_reference
    ) {
      return false;
    }
    return text === '' || holds(consumer.name) || holds(consumer.email) || holds(consumer.internal_reference);
  };
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

export function deleteConsumer(store: WorldStore, consumer: ConsumerRecord): void {
  removeConsumerData(store, consumer.consumerid);
}
