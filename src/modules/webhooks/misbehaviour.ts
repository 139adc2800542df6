import type { WebhookDeliveryRecord, WebhookRecord, World } from '../../store/world.js';
import { enqueue, pendingFrom } from './outbox.js';

/**
 * Deliveries that misbehave on purpose, the way real at-least-once, unordered delivery does: sent
 * twice, late, out of order, lost then sent again, followed by a stale one, or signed with a secret
 * that was just rotated. What decides which delivery misbehaves, and how, lives above this module
 * (the faults of the control endpoints, POST /__sandbox/faults with a webhook match): it reaches
 * the delivery worker through the `WebhookMisbehaviour` service declared here, which the worker asks
 * once per delivery, before its first attempt (delivery.ts). What a fault did is kept on the
 * delivery (`fault`) and on the logs of its attempts, so the control endpoints and the console show it.
 */

/** The misbehaviours a webhook fault can order, by the name of its effect. */
export const WEBHOOK_FAULT_EFFECTS = [
  'duplicate',
  'delay_seconds',
  'reorder',
  'drop_then_redeliver_seconds',
  'stale',
  'rotate_secret',
] as const;
export type WebhookFaultEffect = (typeof WEBHOOK_FAULT_EFFECTS)[number];

/** One misbehaviour, with what it needs to be carried out. */
export type Misbehaviour =
  | { effect: 'duplicate'; copies: number }
  | { effect: 'delay_seconds'; seconds: number }
  | { effect: 'reorder'; holdSeconds: number }
  | { effect: 'drop_then_redeliver_seconds'; seconds: number }
  | { effect: 'stale' }
  | { effect: 'rotate_secret'; overlapSeconds: number; secret: string };

/** A fault that fired on a delivery: its id, and what the delivery must do. */
export type MisbehaviourOrder = Misbehaviour & { faultId: string };

/** What a fault may match a delivery on. */
export interface DeliveryFacts {
  webhookid: string;
  event: string;
  /** The consumer the event is about, or null. */
  consumerid: string | null;
}

/** The service the delivery worker asks, once per delivery before its first attempt. */
export interface WebhookMisbehaviour {
  /**
   * The first armed webhook fault (oldest first) that matches the delivery and fires, counted as
   * fired; null when none. A fault whose effect holds the delivery back is passed over when
   * `mayHold()` says the app holds as many deliveries as it may.
   */
  misbehave(delivery: DeliveryFacts, mayHold: () => boolean): MisbehaviourOrder | null;
}

/** Deliveries a fault may hold back at once in one app (delayed, waiting to be reordered, lost). */
export const MAX_HELD_DELIVERIES = 1000;

/** Whether an effect holds a delivery back for a while. */
export const holdsDelivery = (effect: WebhookFaultEffect): boolean =>
  effect === 'delay_seconds' || effect === 'reorder' || effect === 'drop_then_redeliver_seconds';

/** What a fault did to a delivery, kept on the delivery record. */
export interface DeliveryFaultMark {
  /** The fault (fault_<n>). */
  id: string;
  effect: WebhookFaultEffect;
  /** What it did, in words. */
  detail: string;
  /** The new signing secret a rotate_secret fault gave the instance. */
  signingsecret?: string;
  /** Set while the fault holds the delivery back: its next attempt waits for its time or release. */
  held?: boolean;
  /** A stale fault whose older delivery is still to be sent again, once this one is sent. */
  stale_pending?: boolean;
}

declare module '../../store/world.js' {
  interface WebhookDeliveryRecord {
    /** The fault that made this delivery misbehave, if any (modules/webhooks/misbehaviour.ts). */
    fault?: DeliveryFaultMark;
  }
  interface WebhookLogRecord {
    /** The fault that shaped the delivery of this attempt, if any. */
    fault?: { id: string; effect: WebhookFaultEffect };
  }
  interface WebhookRecord {
    /**
     * After a secret rotated by a fault with an overlap: the secret that still signs deliveries
     * until `until` (sandbox time); null when the instance had none.
     */
    signingsecret_previous?: { secret: string | null; until: string };
  }
}

declare module '../../platform/context.js' {
  interface Services {
    /** Makes chosen webhook deliveries misbehave (the faults with a webhook match, control/faults.ts). */
    webhookMisbehaviour: WebhookMisbehaviour;
  }
}

/**
 * The secret that signs a delivery made at `now`: the previous one while a rotation's overlap
 * lasts, the instance's own otherwise.
 */
export function signingSecretAt(webhook: WebhookRecord, now: Date): string | null {
  const previous = webhook.signingsecret_previous;
  if (previous && now.getTime() < Date.parse(previous.until)) return previous.secret;
  return webhook.signingsecret;
}

/** How many deliveries of the world a fault holds back now. Stops counting at the bound. */
export function heldDeliveries(world: World, bound = MAX_HELD_DELIVERIES): number {
  let count = 0;
  for (const delivery of Object.values(world.webhook_deliveries)) {
    if (delivery.state === 'pending' && delivery.fault?.held === true) {
      count += 1;
      if (count >= bound) return count;
    }
  }
  return count;
}

const seconds = (at: Date, n: number) => new Date(at.getTime() + n * 1000).toISOString();

/** A new pending delivery of the same body to the same instance, which a fault sends. */
function copyOf(
  world: World,
  deliveryid: string,
  original: WebhookDeliveryRecord,
  now: Date,
  fault: DeliveryFaultMark,
): WebhookDeliveryRecord {
  const record: WebhookDeliveryRecord = {
    ...original,
    deliveryid,
    ...pendingFrom(now),
    redelivery_of: original.deliveryid,
    fault,
  };
  return enqueue(world, record);
}

/** What carrying out an order before the first attempt leaves to the worker. */
export type BeforeAttempt =
  /** Send the delivery now. */
  | 'send'
  /** Not now: the delivery is held (its next_attempt_at says until when). */
  | 'hold'
  /** Not now: its first attempt is lost; the worker logs it and it is sent again later. */
  | 'lose';

/**
 * Carries out, in the write that plans the first attempt of `delivery`, what the fault ordered
 * before that attempt; returns what the worker does next. `newId` names the copies it queues.
 */
export function applyBeforeAttempt(
  world: World,
  delivery: WebhookDeliveryRecord,
  webhook: WebhookRecord,
  order: MisbehaviourOrder,
  now: Date,
  newId: () => string,
): BeforeAttempt {
  const id = order.faultId;
  switch (order.effect) {
    case 'duplicate': {
      const copies: string[] = [];
      for (let k = 1; k <= order.copies; k++) {
        const copy = copyOf(world, newId(), delivery, now, {
          id,
          effect: 'duplicate',
          detail: `Copy ${k} of ${order.copies} of delivery ${delivery.deliveryid}: the same body sent again`,
        });
        copies.push(copy.deliveryid);
      }
      delivery.fault = {
        id,
        effect: 'duplicate',
        detail: `Sent ${order.copies} more time${order.copies === 1 ? '' : 's'}, as deliveries ${copies.join(', ')}`,
      };
      return 'send';
    }
    case 'delay_seconds': {
      const until = seconds(now, order.seconds);
      delivery.next_attempt_at = until;
      delivery.fault = {
        id,
        effect: 'delay_seconds',
        detail: `Held ${order.seconds} s of sandbox time before its first attempt, until ${until}`,
        held: true,
      };
      return 'hold';
    }
    case 'reorder': {
      const until = seconds(now, order.holdSeconds);
      delivery.next_attempt_at = until;
      delivery.fault = {
        id,
        effect: 'reorder',
        detail: `Held until the next delivery to the instance is sent, at most until ${until}`,
        held: true,
      };
      return 'hold';
    }
    case 'drop_then_redeliver_seconds': {
      const until = seconds(now, order.seconds);
      delivery.next_attempt_at = until;
      delivery.fault = {
        id,
        effect: 'drop_then_redeliver_seconds',
        detail: `The first attempt was lost (nothing was sent); sent again ${order.seconds} s later, at ${until}`,
        held: true,
      };
      return 'lose';
    }
    case 'stale':
      delivery.fault = {
        id,
        effect: 'stale',
        detail: 'Once sent, the previous delivery of its event to the instance is sent again',
        stale_pending: true,
      };
      return 'send';
    case 'rotate_secret': {
      const previous = webhook.signingsecret;
      webhook.signingsecret = order.secret;
      const overlap = order.overlapSeconds;
      if (overlap > 0) webhook.signingsecret_previous = { secret: previous, until: seconds(now, overlap) };
      else delete webhook.signingsecret_previous;
      delivery.fault = {
        id,
        effect: 'rotate_secret',
        detail:
          overlap > 0
            ? `The instance's signing secret was replaced before this delivery; the previous one signs deliveries until ${seconds(now, overlap)}`
            : "The instance's signing secret was replaced before this delivery, which it signs (no overlap)",
        signingsecret: order.secret,
      };
      return 'send';
    }
  }
}

/**
 * Called when the next attempt of a delivery a fault held is planned: the hold is over. A reorder
 * that no other delivery released went alone.
 */
export function endHold(delivery: WebhookDeliveryRecord): void {
  const fault = delivery.fault;
  if (!fault?.held) return;
  delete fault.held;
  if (fault.effect === 'reorder')
    fault.detail = 'Held, but no other delivery to the instance came in time: sent alone';
}

/**
 * What follows an attempt of `sent` (whatever its outcome), in the write that records it: the
 * deliveries a reorder holds for the same instance go right after it, and a stale fault sends the
 * previous delivery of the instance again. Returns whether anything was queued or released.
 */
export function afterAttempt(
  world: World,
  sent: WebhookDeliveryRecord,
  now: Date,
  newId: () => string,
): boolean {
  let changed = false;
  const at = now.toISOString();
  let previous: WebhookDeliveryRecord | undefined;
  let reached = false;
  for (const delivery of Object.values(world.webhook_deliveries)) {
    if (delivery === sent || delivery.deliveryid === sent.deliveryid) {
      reached = true;
      continue;
    }
    if (delivery.webhookid !== sent.webhookid) continue;
    const fault = delivery.fault;
    if (delivery.state === 'pending' && fault?.held && fault.effect === 'reorder') {
      delivery.next_attempt_at = at;
      delete fault.held;
      fault.detail = `Held, then sent right after delivery ${sent.deliveryid} to the same instance`;
      changed = true;
    }
    // The latest delivery queued before this one of the same event with another body: an older event.
    if (!reached && delivery.event === sent.event && delivery.body !== sent.body) previous = delivery;
  }
  const fault = sent.fault;
  if (fault?.effect === 'stale' && fault.stale_pending) {
    delete fault.stale_pending;
    if (previous) {
      const copy = copyOf(world, newId(), previous, now, {
        id: fault.id,
        effect: 'stale',
        detail: `Stale: the older delivery ${previous.deliveryid} sent again after the newer ${sent.deliveryid}`,
      });
      fault.detail = `Once sent, the older delivery ${previous.deliveryid} of its event was sent again, as delivery ${copy.deliveryid}`;
    } else {
      fault.detail = 'Once sent: no older delivery of its event to the instance was left to send again';
    }
    changed = true;
  }
  return changed;
}
