import { createHmac } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import type Https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Services } from '../../platform/context.js';
import { SELF_CALL_HEADER } from '../../platform/request-policy.js';
import type { OwnEndpoints } from '../../platform/self.js';
import type { WorldStore } from '../../store/store.js';
import { rawOf } from '../../store/unit-of-work.js';
import type { WebhookDeliveryRecord, WebhookLogRecord, WebhookRecord, World } from '../../store/world.js';
import {
  afterAttempt,
  applyBeforeAttempt,
  endHold,
  heldDeliveries,
  MAX_HELD_DELIVERIES,
  type MisbehaviourOrder,
  signingSecretAt,
} from './misbehaviour.js';
import { MAX_FINISHED_DELIVERIES, OUTBOX_FULL, pruneDeliveries } from './outbox.js';
import { receivesEventsOf } from './webhooks.domain.js';

/**
 * The delivery worker: sends the outbox (world.webhook_deliveries, filled by events.ts) to the
 * webhook instances. Its ticker task only starts the attempts that are due and returns: the ticker
 * (and so the clock endpoint, the other background tasks and the requests that kick it) never waits
 * for a receiver. At most MAX_ATTEMPTS_IN_FLIGHT attempts of one app are out at once, at most
 * MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT of them for one account, and one per webhook instance, so an
 * instance's deliveries go in the order they were queued and a receiver that never answers holds
 * back only its own instance. When an attempt ends the worker starts whatever waits for its slot.
 *
 * Each attempt is a webhook log; a failed attempt is retried on RETRY_DELAYS_SECONDS of the sandbox
 * clock, then given up. Nothing here may throw into the ticker or the server: every failure becomes
 * a log or the reason a delivery was given up.
 *
 * Before the first attempt of a delivery the worker asks the app's `webhookMisbehaviour` whether a
 * fault makes it misbehave (misbehaviour.ts): sent again, held, lost once, followed by a stale one,
 * or signed after a rotation of the instance's secret. It all happens in the worker's own writes.
 */

/** How long a receiver has to answer (status line and headers) before the attempt counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/** Waits between attempts, on the sandbox clock: after the last one fails the delivery is given up. */
export const RETRY_DELAYS_SECONDS = [10, 60, 300, 1800, 7200] as const;

/** Attempts a delivery gets at most: the first and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** Header holding the hex HMAC-SHA256 of the exact body, keyed by the instance's signing secret. */
export const SIGNATURE_HEADER = 'X-Chift-Signature';

/** The httpstatus logged for an attempt that got no HTTP answer (time-out, refused, reset, DNS). */
export const NO_ANSWER_HTTPSTATUS = 0;

export const DELIVERY_USER_AGENT = 'unified-api-sandbox-webhooks/1';

export { MAX_FINISHED_DELIVERIES, pruneDeliveries };

/** Webhook logs kept per account, the newest; older ones are dropped so the world stays bounded. */
export const MAX_WEBHOOK_LOGS_PER_ACCOUNT = 10_000;

/** Attempts out at once in one app: each holds a socket and a timer for up to the time-out. */
export const MAX_ATTEMPTS_IN_FLIGHT = 16;

/** Of those, the most one account may hold, so that one account's receivers cannot stall the others. */
export const MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT = 8;

/** Why a delivery was given up without an attempt (its last_error). */
export const GIVE_UP_REASONS = {
  inactive: 'The webhook instance is inactive',
  deleted: 'The webhook instance was deleted',
  outOfScope: 'The event is about a consumer the API key that created the webhook instance cannot reach',
  ownEndpoint: 'The url points at the sandbox itself (any of its worlds), which webhooks never call',
  outboxFull: OUTBOX_FULL,
} as const;

export const signBody = (secret: string, body: string): string =>
  createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** The headers of a delivery: JSON, and the signature when the instance has a signing secret. */
export function deliveryHeaders(body: string, signingsecret: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body, 'utf8')),
    'user-agent': DELIVERY_USER_AGENT,
  };
  if (signingsecret) headers[SIGNATURE_HEADER] = signBody(signingsecret, body);
  return headers;
}

export interface AttemptResult {
  httpstatus: number;
  /** Why no HTTP answer came, or null when one did. */
  error: string | null;
  /** Set when the host name resolved to the sandbox itself and nothing was sent. */
  ownEndpoint?: true;
}

/** Code of the error the guarded lookup fails with, to tell it from a DNS failure. */
const OWN_ENDPOINT_CODE = 'ESANDBOXSELF';

/**
 * dns.lookup, refusing a name that resolves to an address `isOwn` names: a host name is resolved
 * only when the connection is made, so this is the one place to see where it really points.
 */
function guardedLookup(isOwn: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '');
        return;
      }
      if (addresses.some((a) => isOwn(a.address))) {
        callback(Object.assign(new Error(GIVE_UP_REASONS.ownEndpoint), { code: OWN_ENDPOINT_CODE }), '');
        return;
      }
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else callback(null, first?.address ?? '', first?.family);
    });
  };
}

/**
 * Node's https client, loaded with the first delivery to an https url (dynamic import): loading it
 * and TLS costs a fresh process some 7 ms before its first answer (docs/benchmarks.md).
 */
let httpsClient: Promise<typeof Https> | undefined;
function httpsModule(): Promise<typeof Https> {
  httpsClient ??= import('node:https').then((loaded) => loaded.default);
  return httpsClient;
}

/** The protocol of a url (`https:`), or null when it is not one. */
function protocolOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

/**
 * POSTs a body and resolves with the receiver's status, or NO_ANSWER_HTTPSTATUS and the reason.
 * Never rejects. A fresh connection per attempt (no keep-alive), redirects are not followed.
 * `isOwnAddress`, when given, refuses to connect to a host name that resolves to one of those.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  isOwnAddress?: ((address: string) => boolean) | null,
): Promise<AttemptResult> {
  const tls = protocolOf(url) === 'https:' ? await httpsModule() : null;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: 'The url is not valid' });
      return;
    }
    const client = target.protocol === 'https:' ? tls : target.protocol === 'http:' ? http : null;
    if (!client) {
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: `Unsupported protocol ${target.protocol}` });
      return;
    }
    let request: http.ClientRequest;
    // The same deadline covers the connection, the answer and the rest of its body.
    const timer = setTimeout(() => {
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: noAnswerWithin(timeoutMs) });
      request.destroy();
    }, timeoutMs);
    try {
      const lookup = isOwnAddress ? guardedLookup(isOwnAddress) : undefined;
      request = client.request(target, { method: 'POST', headers, agent: false, lookup }, (response) => {
        finish({ httpstatus: response.statusCode ?? NO_ANSWER_HTTPSTATUS, error: null });
        response.on('close', () => clearTimeout(timer));
        response.on('error', () => undefined);
        response.resume();
      });
    } catch (error) {
      clearTimeout(timer);
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: reasonOf(error) });
      return;
    }
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === OWN_ENDPOINT_CODE) {
        finish({
          httpstatus: NO_ANSWER_HTTPSTATUS,
          error: GIVE_UP_REASONS.ownEndpoint,
          ownEndpoint: true,
        });
      } else {
        finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: reasonOf(error) });
      }
    });
    request.end(body);
  });
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export const isSuccess = (httpstatus: number) => httpstatus >= 200 && httpstatus < 300;

/** Deliveries whose next attempt is due at `now`, in the order they were queued. */
export function dueDeliveries(world: World, now: Date): WebhookDeliveryRecord[] {
  const at = now.getTime();
  return Object.values(world.webhook_deliveries).filter(
    (d) => d.state === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= at,
  );
}

/** Gives a delivery up without an attempt (its instance is gone or inactive, or its url is refused). */
export function abandonDelivery(delivery: WebhookDeliveryRecord, reason: string): void {
  delivery.state = 'failed';
  delivery.next_attempt_at = null;
  delivery.last_error = reason;
}

/**
 * Records the outcome of an attempt made at `startedAt`: a 2xx delivers; anything else schedules
 * the next retry, or gives the delivery up after the last one.
 */
export function recordAttempt(
  delivery: WebhookDeliveryRecord,
  url: string,
  startedAt: Date,
  result: AttemptResult,
): void {
  delivery.attempts += 1;
  delivery.url = url;
  delivery.last_httpstatus = result.httpstatus;
  if (isSuccess(result.httpstatus)) {
    delivery.state = 'delivered';
    delivery.next_attempt_at = null;
    delivery.last_error = null;
    return;
  }
  delivery.last_error = result.error ?? `The receiver answered HTTP ${result.httpstatus}`;
  const delay = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
  if (delay === undefined) {
    delivery.state = 'failed';
    delivery.next_attempt_at = null;
  } else {
    delivery.next_attempt_at = new Date(startedAt.getTime() + delay * 1000).toISOString();
  }
}

export function attemptLog(
  webhooklogid: string,
  webhook: WebhookRecord,
  delivery: WebhookDeliveryRecord,
  url: string,
  startedAt: Date,
  result: AttemptResult,
): WebhookLogRecord {
  return {
    webhooklogid,
    webhookid: webhook.webhookid,
    event: delivery.event,
    url,
    accountid: delivery.accountid,
    createdon: startedAt.toISOString(),
    httpstatus: result.httpstatus,
    integrationid: delivery.integrationid,
    deliveryid: delivery.deliveryid,
    error: result.error ?? (isSuccess(result.httpstatus) ? null : `HTTP ${result.httpstatus}`),
    ...(delivery.fault ? { fault: { id: delivery.fault.id, effect: delivery.fault.effect } } : {}),
  };
}

/** The error logged for a first attempt a drop_then_redeliver_seconds fault lost. */
export const lostAttemptError = (faultId: string, retryAt: string | null) =>
  `${LOST_BY_FAULT} ${faultId}: nothing was sent; sent again at ${retryAt}`;

const LOST_BY_FAULT = 'Lost by the sandbox fault';
const NO_ANSWER_WITHIN = 'No answer within';

/** The error logged for an attempt the receiver did not answer in time. */
export const noAnswerWithin = (timeoutMs: number) => `${NO_ANSWER_WITHIN} ${timeoutMs} ms`;

/** What an attempt's logged error says: a time-out, an attempt a fault lost, or another failure. */
export function attemptErrorKind(error: string): 'time-out' | 'lost by a fault' | 'failed' {
  if (error.startsWith(NO_ANSWER_WITHIN)) return 'time-out';
  if (error.startsWith(LOST_BY_FAULT)) return 'lost by a fault';
  return 'failed';
}

/** Keeps the newest `keep` webhook logs of each account (logs are stored in the order they were made). */
export function pruneWebhookLogs(world: World, keep = MAX_WEBHOOK_LOGS_PER_ACCOUNT): void {
  const ids = Object.keys(world.webhook_logs);
  // No account can be over the bound while the whole table is within it: skip the walk.
  if (ids.length <= keep) return;
  const seen = new Map<string, number>();
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i] as string;
    const accountid = world.webhook_logs[id]?.accountid ?? '';
    const count = (seen.get(accountid) ?? 0) + 1;
    seen.set(accountid, count);
    if (count > keep) delete world.webhook_logs[id];
  }
}

export interface DeliveryOptions {
  /** Time-out of one attempt, in milliseconds (default WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number | undefined;
}

type DeliveryServices = Pick<Services, 'store' | 'clock' | 'ids' | 'ticker' | 'self' | 'webhookMisbehaviour'>;

/** The ticker key of the attempt of a delivery: `ticker.settled(key)` waits for it. */
export const deliveryWorkKey = (deliveryid: string) => `webhook-delivery:${deliveryid}`;

/** Starts due attempts within the bounds, and the next ones as attempts end (see the top of the file). */
export class DeliveryWorker {
  readonly #services: DeliveryServices;
  readonly #timeoutMs: number;
  /** Instances with an attempt out: their next delivery waits for it. */
  readonly #busyWebhooks = new Set<string>();
  readonly #perAccount = new Map<string, number>();
  #inFlight = 0;

  constructor(services: DeliveryServices, options: DeliveryOptions = {}) {
    this.#services = services;
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  /** Starts every due attempt there is room for, and returns without waiting for any. */
  tick(): void {
    const { store, clock } = this.#services;
    for (const delivery of dueDeliveries(store.world, clock.now())) {
      if (this.#inFlight >= MAX_ATTEMPTS_IN_FLIGHT) return;
      if (this.#busyWebhooks.has(delivery.webhookid)) continue;
      if ((this.#perAccount.get(delivery.accountid) ?? 0) >= MAX_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT) continue;
      this.#start(delivery);
    }
  }

  #start(delivery: WebhookDeliveryRecord): void {
    const { deliveryid, webhookid, accountid } = delivery;
    const started = this.#services.ticker.spawn(deliveryWorkKey(deliveryid), async (store) => {
      try {
        await this.#attempt(store, deliveryid);
      } finally {
        this.#busyWebhooks.delete(webhookid);
        this.#inFlight -= 1;
        const left = (this.#perAccount.get(accountid) ?? 1) - 1;
        if (left > 0) this.#perAccount.set(accountid, left);
        else this.#perAccount.delete(accountid);
        // The slot is free: the instance's next delivery, or another that waited for room.
        this.tick();
      }
    });
    // Not started: the same delivery is still out (a reset can bring back its id); its end ticks.
    if (!started) return;
    this.#busyWebhooks.add(webhookid);
    this.#inFlight += 1;
    this.#perAccount.set(accountid, (this.#perAccount.get(accountid) ?? 0) + 1);
  }

  /** Why a delivery must not go to its instance, or null when it may. */
  #refusal(webhook: WebhookRecord | undefined, delivery: WebhookDeliveryRecord, own: OwnEndpoints) {
    if (!webhook) return GIVE_UP_REASONS.deleted;
    if (webhook.status !== 'active') return GIVE_UP_REASONS.inactive;
    if (!receivesEventsOf(webhook, delivery.event_consumerid)) return GIVE_UP_REASONS.outOfScope;
    if (own.isOwnUrl(webhook.url)) return GIVE_UP_REASONS.ownEndpoint;
    return null;
  }

  /**
   * One attempt of one delivery, in three steps so that no write is held while the receiver is
   * out: a write that checks the delivery may go (or gives it up), the request, then a write that
   * records the outcome in whatever world is current then. Both writes are the sandbox's own
   * bookkeeping (bounded by the outbox's and the logs' own bounds): a world at its bytes still
   * records them, or the attempt would be made again and again, never counted.
   */
  async #attempt(store: WorldStore, deliveryid: string): Promise<void> {
    const { clock, ids, self } = this.#services;
    // Checked at every attempt, not only when the url was stored: a world file or a fixture may
    // hold a url written before the sandbox listened where it does now.
    const own = self.endpoints();
    const planned = await store.transact((write) => {
      write.bookkeeping();
      const world = write.world;
      const delivery = world.webhook_deliveries[deliveryid];
      if (delivery?.state !== 'pending') return null;
      const webhook = world.webhooks[delivery.webhookid];
      const refusal = this.#refusal(webhook, delivery, own);
      if (refusal !== null || !webhook) {
        abandonDelivery(delivery, refusal ?? GIVE_UP_REASONS.deleted);
        return null;
      }
      const now = clock.now();
      // A fault acts once, before the first attempt: a delivery it already shaped is not asked again.
      if (delivery.fault) endHold(delivery);
      else if (delivery.attempts === 0) {
        const order = this.#misbehaviour(world, delivery);
        if (order) {
          const next = applyBeforeAttempt(world, delivery, webhook, order, now, () =>
            ids.next('webhook-delivery'),
          );
          if (next === 'hold') return null;
          if (next === 'lose') {
            // Logged as an attempt that got no answer; the delivery is sent again at its time.
            delivery.attempts += 1;
            delivery.url = webhook.url;
            delivery.last_httpstatus = NO_ANSWER_HTTPSTATUS;
            delivery.last_error = lostAttemptError(order.faultId, delivery.next_attempt_at);
            const result = { httpstatus: NO_ANSWER_HTTPSTATUS, error: delivery.last_error };
            const log = attemptLog(ids.next('webhook-log'), webhook, delivery, webhook.url, now, result);
            world.webhook_logs[log.webhooklogid] = log;
            pruneWebhookLogs(world);
            return null;
          }
        }
      }
      // The instance's current url and secret: a url fixed or a secret rotated since the event counts
      // (while a rotation's overlap lasts, the previous secret still signs).
      return {
        delivery: rawOf(delivery),
        webhook: rawOf(webhook),
        url: webhook.url,
        body: delivery.body,
        headers: deliveryHeaders(delivery.body, signingSecretAt(webhook, now)),
      };
    });
    if (planned === null) return;
    const { url } = planned;
    const startedAt = clock.now();
    // The marker that only this server knows: a request bearing it is refused before routing by
    // every world, so a delivery can never reach the sandbox itself, whatever its url says.
    const headers = { ...planned.headers, [SELF_CALL_HEADER]: self.marker };
    const result = await postWebhook(url, planned.body, headers, this.#timeoutMs, own.addressGuard(url));
    await store.transact((write) => {
      write.bookkeeping();
      // The world may have been reset, or the instance deleted, while the request was out.
      const now = write.world;
      const delivery = now.webhook_deliveries[deliveryid];
      const webhook = now.webhooks[planned.webhook.webhookid];
      if (!delivery || !webhook || rawOf(delivery) !== planned.delivery || rawOf(webhook) !== planned.webhook)
        return;
      if (result.ownEndpoint) {
        abandonDelivery(delivery, GIVE_UP_REASONS.ownEndpoint);
      } else {
        recordAttempt(delivery, url, startedAt, result);
        const log = attemptLog(ids.next('webhook-log'), webhook, delivery, url, startedAt, result);
        now.webhook_logs[log.webhooklogid] = log;
        pruneWebhookLogs(now);
        // Held deliveries of the instance go right after this one; a stale fault queues the older one.
        afterAttempt(now, delivery, clock.now(), () => ids.next('webhook-delivery'));
      }
      pruneDeliveries(now);
    });
  }

  /** The fault that makes this delivery misbehave, if any; holding ones only while there is room. */
  #misbehaviour(world: World, delivery: WebhookDeliveryRecord): MisbehaviourOrder | null {
    const facts = {
      webhookid: delivery.webhookid,
      event: delivery.event,
      consumerid: delivery.event_consumerid,
    };
    return this.#services.webhookMisbehaviour.misbehave(
      facts,
      () => heldDeliveries(world) < MAX_HELD_DELIVERIES,
    );
  }
}
