import { createHash, timingSafeEqual } from 'node:crypto';
import { type ApiError, errors } from '../lib/errors.js';
import { own } from '../lib/own.js';
import { eachConsumerOfEnvironment } from '../store/indexes.js';
import type { ConsumerRecord, World } from '../store/world.js';
import type { Principal } from './tokens.js';

/** What the rule needs of a consumer, or of a record kept for one (an issue, an execution). */
export type ConsumerOwner = Pick<ConsumerRecord, 'consumerid' | 'accountid' | 'envid'>;

/**
 * Whether the caller may see a consumer (and what is kept for it): one of the caller's account and
 * environment, within the list of a key restricted to consumers, and the one an MCP token is bound
 * to. A consumer the caller may not see does not exist for it.
 */
export function canSee(principal: Principal, consumer: ConsumerOwner): boolean {
  return (
    consumer.accountid === principal.accountid &&
    consumer.envid === principal.envid &&
    (principal.consumers === null || principal.consumers.has(consumer.consumerid)) &&
    (principal.mcp === null || principal.mcp.consumerid === consumer.consumerid)
  );
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether two secrets are equal, in a time that does not tell where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

/**
 * The rule of the control surfaces (/__sandbox, the console): open when the sandbox has no admin
 * token, else only to a request whose Authorization is that token as a bearer.
 */
export function isAdmin(adminToken: string | null, authorization: string | undefined): boolean {
  return (
    adminToken === null || (authorization !== undefined && sameSecret(authorization, `Bearer ${adminToken}`))
  );
}

/**
 * Finds a consumer the caller may see (canSee). One of the account's other environment is a
 * 401; any other consumer the caller may not see does not exist for it.
 */
export function requireConsumer(
  world: World,
  principal: Principal,
  consumerId: string,
  notFound: () => ApiError = errors.consumerNotFound,
): ConsumerRecord {
  const consumer = own(world.consumers, consumerId.toLowerCase());
  if (!consumer || consumer.accountid !== principal.accountid) throw notFound();
  if (consumer.envid !== principal.envid) throw errors.wrongEnvironment();
  if (!canSee(principal, consumer)) throw notFound();
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
    if (canSee(principal, consumer) && keep(consumer)) out.push(consumer);
  });
  return out;
}
