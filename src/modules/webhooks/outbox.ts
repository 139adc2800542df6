import type { WebhookDeliveryRecord, World } from '../../store/world.js';

/**
 * The outbox (world.webhook_deliveries): what is to be sent, and what was, bounded. Deliveries
 * waiting (pending: not sent yet, held by a fault, or to be tried again) are bounded per account, so
 * that a receiver that fails or never answers, or a fault that copies deliveries, cannot grow the
 * world without end: past MAX_PENDING_DELIVERIES_PER_ACCOUNT a new delivery is given up at once, the
 * way a service's full queue drops what comes, and the write that published its event stands.
 * Finished deliveries (delivered, given up) are history: the newest MAX_FINISHED_DELIVERIES are kept.
 */

/**
 * Deliveries one account may have waiting; past it, a new one is given up at once. Above the
 * deliveries faults may hold (MAX_HELD_DELIVERIES), so that a holding fault meets its own bound first.
 */
export const MAX_PENDING_DELIVERIES_PER_ACCOUNT = 2000;

/** Finished deliveries kept for the control endpoint; older ones are dropped. */
export const MAX_FINISHED_DELIVERIES = 1000;

/** The last_error of a delivery given up because its account had as many waiting as the outbox keeps. */
export const OUTBOX_FULL = `The account had ${MAX_PENDING_DELIVERIES_PER_ACCOUNT} deliveries waiting, as many as the sandbox keeps: this one was given up without an attempt`;

/** The outbox state of a delivery made at `now`: due at once, never tried. */
export function pendingFrom(now: Date) {
  return {
    created_on: now.toISOString(),
    attempts: 0,
    next_attempt_at: now.toISOString(),
    state: 'pending' as const,
    last_httpstatus: null,
    last_error: null,
  };
}

/** How many deliveries of the account wait; counting stops at `bound`. */
export function waitingOf(
  world: World,
  accountid: string,
  bound = MAX_PENDING_DELIVERIES_PER_ACCOUNT,
): number {
  let count = 0;
  for (const delivery of Object.values(world.webhook_deliveries)) {
    if (delivery.state !== 'pending' || delivery.accountid !== accountid) continue;
    count += 1;
    if (count >= bound) break;
  }
  return count;
}

/** Whether the account has as many deliveries waiting as the outbox keeps. */
export const outboxFull = (world: World, accountid: string): boolean =>
  waitingOf(world, accountid) >= MAX_PENDING_DELIVERIES_PER_ACCOUNT;

/**
 * Puts a new pending delivery into the outbox; when its account already has as many waiting as the
 * outbox keeps, it goes in given up instead (failed, never tried, OUTBOX_FULL its reason).
 */
export function enqueue(world: World, record: WebhookDeliveryRecord): WebhookDeliveryRecord {
  if (outboxFull(world, record.accountid)) {
    record.state = 'failed';
    record.next_attempt_at = null;
    record.last_error = OUTBOX_FULL;
  }
  world.webhook_deliveries[record.deliveryid] = record;
  if (record.state !== 'pending') pruneDeliveries(world);
  return record;
}

/** Drops the oldest finished deliveries beyond `keep`; pending ones always stay. */
export function pruneDeliveries(world: World, keep = MAX_FINISHED_DELIVERIES): void {
  const finished = Object.values(world.webhook_deliveries).filter((d) => d.state !== 'pending');
  for (const delivery of finished.slice(0, Math.max(0, finished.length - keep))) {
    delete world.webhook_deliveries[delivery.deliveryid];
  }
}
