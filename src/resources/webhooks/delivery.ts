import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Services } from '../../context.js';
import type { WebhookDeliveryRecord, WebhookLogRecord, WebhookRecord, World } from '../../store/world.js';

/**
 * The delivery worker: sends the outbox (world.webhook_deliveries, filled by lib/events.ts) to the
 * webhook instances. It is one task of the ticker, so it runs when a handler kicks it after
 * publishing, after every move of the clock, and every second on the machine's time. Each attempt
 * is a webhook log; a failed attempt is retried on RETRY_DELAYS_SECONDS of the sandbox clock, then
 * given up. Nothing here may throw into the ticker or the server: every failure becomes a log.
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

/** Finished deliveries kept for the control endpoint; older ones are dropped (their logs stay). */
export const MAX_FINISHED_DELIVERIES = 1000;

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
}

/**
 * POSTs a body and resolves with the receiver's status, or NO_ANSWER_HTTPSTATUS and the reason.
 * Never rejects. A fresh connection per attempt (no keep-alive), redirects are not followed.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptResult> {
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
    const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
    if (!client) {
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: `Unsupported protocol ${target.protocol}` });
      return;
    }
    let request: http.ClientRequest;
    // The same deadline covers the connection, the answer and the rest of its body.
    const timer = setTimeout(() => {
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: `No answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    try {
      request = client.request(target, { method: 'POST', headers, agent: false }, (response) => {
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
    request.on('error', (error) => {
      clearTimeout(timer);
      finish({ httpstatus: NO_ANSWER_HTTPSTATUS, error: reasonOf(error) });
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

/** Gives a delivery up without an attempt (its instance is gone or inactive). */
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
  };
}

/** Drops the oldest finished deliveries beyond `keep`; pending ones always stay. */
export function pruneDeliveries(world: World, keep = MAX_FINISHED_DELIVERIES): void {
  const finished = Object.values(world.webhook_deliveries).filter((d) => d.state !== 'pending');
  for (const delivery of finished.slice(0, Math.max(0, finished.length - keep))) {
    delete world.webhook_deliveries[delivery.deliveryid];
  }
}

export interface DeliveryOptions {
  /** Time-out of one attempt, in milliseconds (default WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number | undefined;
}

type DeliveryServices = Pick<Services, 'store' | 'clock' | 'ids'>;

/** One attempt of one delivery: send, then record the outcome in whatever world is current then. */
async function attempt(services: DeliveryServices, deliveryid: string, timeoutMs: number): Promise<void> {
  const world = services.store.world;
  const delivery = world.webhook_deliveries[deliveryid];
  if (delivery?.state !== 'pending') return;
  const webhook = world.webhooks[delivery.webhookid];
  if (webhook?.status !== 'active') {
    abandonDelivery(
      delivery,
      webhook ? 'The webhook instance is inactive' : 'The webhook instance was deleted',
    );
    await services.store.commit();
    return;
  }
  // The instance's current url and secret: a url fixed or a secret rotated since the event counts.
  const url = webhook.url;
  const startedAt = services.clock.now();
  const result = await postWebhook(
    url,
    delivery.body,
    deliveryHeaders(delivery.body, webhook.signingsecret),
    timeoutMs,
  );
  // The world may have been reset, or the instance deleted, while the request was out.
  const now = services.store.world;
  if (now.webhook_deliveries[deliveryid] !== delivery || now.webhooks[webhook.webhookid] !== webhook) return;
  recordAttempt(delivery, url, startedAt, result);
  const log = attemptLog(services.ids.next('webhook-log'), webhook, delivery, url, startedAt, result);
  now.webhook_logs[log.webhooklogid] = log;
  await services.store.commit();
}

/**
 * Makes every attempt due now. Deliveries of one instance go one after the other, in the order
 * they were queued; different instances are served side by side, so a slow receiver delays only
 * its own deliveries.
 */
export async function deliverDue(services: DeliveryServices, options: DeliveryOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const due = dueDeliveries(services.store.world, services.clock.now());
  if (due.length === 0) return;
  const queues = new Map<string, string[]>();
  for (const delivery of due) {
    const queue = queues.get(delivery.webhookid) ?? [];
    queue.push(delivery.deliveryid);
    queues.set(delivery.webhookid, queue);
  }
  await Promise.all(
    [...queues.values()].map(async (queue) => {
      for (const deliveryid of queue) {
        try {
          await attempt(services, deliveryid, timeoutMs);
        } catch (error) {
          console.error(`[unified-api-sandbox] webhook delivery ${deliveryid} failed:`, error);
        }
      }
    }),
  );
  pruneDeliveries(services.store.world);
  await services.store.commit();
}

/** Registers the worker as the ticker's 'webhook-delivery' task. */
export function registerDeliveryWorker(
  services: Pick<Services, 'store' | 'clock' | 'ids' | 'ticker'>,
  options: DeliveryOptions = {},
): void {
  services.ticker.register('webhook-delivery', () => deliverDue(services, options));
}
