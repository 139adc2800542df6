import { createHash } from 'node:crypto';
import { type ServerResponse, STATUS_CODES } from 'node:http';
import { z } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import type { Clock } from '../lib/clock.js';
import { ApiError, errors, messages, ValidationFailure } from '../lib/errors.js';
import { compilePathPattern, type PathMatcher } from '../lib/path-pattern.js';
import {
  type DeliveryFacts,
  holdsDelivery,
  type MisbehaviourOrder,
  type WebhookFaultEffect,
  type WebhookMisbehaviour,
} from '../modules/webhooks/index.js';
import type { AppEnv } from '../platform/context.js';
import type { WorldQuota } from '../store/store.js';
import {
  DEFAULT_REORDER_HOLD_SECONDS,
  type Fault,
  type FaultControl,
  FaultInputSchema,
  type FaultRule,
  FaultRuleError,
  given,
  MAX_FAULT_HOLD_MS,
  WEBHOOK_EFFECTS,
} from './faults.schema.js';

/**
 * Fault injection: rules armed through POST /__sandbox/faults (or `faults.add` in code) that make
 * the matching requests fail the way a real service or network does: an error status, a delay, a
 * dropped connection, or no answer at all. A fault acts in the first middleware, before the write
 * boundary and the route: a request it answers never reaches a handler, so it writes nothing.
 *
 * A rule with a webhook match instead makes the matching webhook deliveries misbehave the way
 * at-least-once, unordered delivery does (sent again, late, out of order, lost then sent again,
 * followed by a stale one, signed after a rotation of the secret): the book is the app's
 * `webhookMisbehaviour`, which the delivery worker asks before a delivery's first attempt
 * (modules/webhooks/misbehaviour.ts carries the effects out).
 */

interface RequestMatch {
  matches: PathMatcher;
  method: string | null;
  consumer: string | null;
  header: { name: string; value: string } | null;
}

interface WebhookMatch {
  event: ((event: string) => boolean) | null;
  webhookid: string | null;
  consumer: string | null;
  effect: WebhookFaultEffect;
}

interface Armed {
  id: string;
  fault: Fault;
  /** Set for a request fault (a path match). */
  request: RequestMatch | null;
  /** Set for a webhook fault (a webhook match). */
  webhook: WebhookMatch | null;
  random: (() => number) | null;
  /** What it costs in memory, counted in the world's bytes. */
  bytes: number;
}

type Release = 'elapsed' | 'removed' | 'aborted' | 'closed';

interface Hold {
  faultId: string;
  /** Whether removing the fault lets the request go on (a time-out); a latency runs its course. */
  releasable: boolean;
  release(why: Release): void;
}

/**
 * Faults one app keeps armed (exhausted ones included, until removed): at it, the oldest exhausted
 * fault that holds nothing back makes room for a new one, and when none is exhausted arming another
 * is refused with 413. Every request and delivery walks them, oldest first, so they stay few.
 */
export const MAX_FAULTS = 100;

/**
 * What an armed fault costs in memory beyond its rule as JSON (its matcher, counters and entries:
 * about 2.2 KB were measured for a path fault whose JSON is 250 bytes), counted in the world's bytes.
 */
export const FAULT_OVERHEAD_BYTES = 2048;

/** The answer left in place of one that was never sent; app.request turns it into a rejection. */
export const UNANSWERED_HEADER = 'x-sandbox-unanswered';

/** A generator of [0, 1) seeded with the sandbox seed and the fault id (mulberry32). */
function seededRandom(seed: number, id: string): () => number {
  let state = createHash('sha256').update(`fault:${seed}:${id}`).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Whether an event type matches a pattern where * stands for any characters, the rest compared as
 * written. Greedy with a single way back (the last *), so its time is linear in practice and at
 * most the product of the two lengths (each at most 100 characters).
 */
export function eventPatternMatcher(pattern: string): (event: string) => boolean {
  if (!pattern.includes('*')) return (event) => event === pattern;
  return (event) => {
    let p = 0;
    let e = 0;
    let star = -1;
    let resume = 0;
    while (e < event.length) {
      if (p < pattern.length && pattern[p] === '*') {
        star = p++;
        resume = e;
      } else if (p < pattern.length && pattern[p] === event[e]) {
        p++;
        e++;
      } else if (star >= 0) {
        p = star + 1;
        e = ++resume;
      } else return false;
    }
    while (p < pattern.length && pattern[p] === '*') p++;
    return p === pattern.length;
  };
}

/**
 * The signing secret a rotate_secret fault gives an instance: drawn from the sandbox seed, the
 * fault id and how many times the fault has fired, so the same run rotates to the same secrets.
 */
export function rotatedSecret(seed: number, faultId: string, firing: number): string {
  const digest = createHash('sha256').update(`webhook secret:${seed}:${faultId}:${firing}`).digest('hex');
  return `whsec_${digest.slice(0, 32)}`;
}

/** What a webhook fault's effect orders a delivery to do (its rotation drawn for this firing). */
function orderOf(seed: number, armed: Armed, effect: WebhookFaultEffect): MisbehaviourOrder {
  const rule = armed.fault.effect;
  const faultId = armed.id;
  switch (effect) {
    case 'duplicate':
      return { faultId, effect, copies: rule.duplicate ?? 1 };
    case 'delay_seconds':
      return { faultId, effect, seconds: rule.delay_seconds ?? 1 };
    case 'reorder':
      return { faultId, effect, holdSeconds: rule.hold_seconds ?? DEFAULT_REORDER_HOLD_SECONDS };
    case 'drop_then_redeliver_seconds':
      return { faultId, effect, seconds: rule.drop_then_redeliver_seconds ?? 1 };
    case 'stale':
      return { faultId, effect };
    case 'rotate_secret':
      return {
        faultId,
        effect,
        overlapSeconds: rule.rotate_secret?.overlap_seconds ?? 0,
        secret: rotatedSecret(seed, faultId, armed.fault.fired),
      };
  }
}

/**
 * The service's error for a status, as a fault answers it by default: its message from errors.ts,
 * the envelope of every refusal, a detail naming the fault. Statuses the service has no message of
 * its own for carry the HTTP reason phrase.
 */
export function faultErrorBody(status: number, detail: string, context: { path: string; bodyLimit: number }) {
  switch (status) {
    case 400:
      return new ApiError(400, messages.accountingFailure, detail).toBody();
    case 401:
      return context.path === '/token'
        ? new ApiError(
            401,
            messages.invalidCredentials,
            detail,
            errors.invalidCredentials().errorCode,
          ).toBody()
        : errors.invalidToken(detail).toBody();
    case 404:
      return new ApiError(404, messages.notFound, detail).toBody();
    case 413:
      return new ApiError(413, messages.payloadTooLarge(context.bodyLimit), detail).toBody();
    case 415:
      return new ApiError(415, messages.unsupportedMediaType, detail).toBody();
    case 422:
      return new ValidationFailure([{ loc: ['body'], msg: detail, type: 'value_error' }]).toBody();
    case 500:
      return { message: messages.internal, status: 'error' as const, detail };
    default:
      return { message: STATUS_CODES[status] ?? 'Error', status: 'error' as const, detail };
  }
}

/** What fetch rejects with when the other side closes the connection without an answer. */
function networkError(): TypeError {
  const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
  return new TypeError('fetch failed', { cause });
}

/**
 * The armed faults of one app: matching, effects, and the requests they hold; and, for the webhook
 * faults, which deliveries misbehave (the app's `webhookMisbehaviour`).
 */
export class FaultBook implements FaultControl, WebhookMisbehaviour {
  readonly #seed: number;
  readonly #clock: Clock;
  readonly #holdLimitMs: number;
  readonly #faults = new Map<string, Armed>();
  readonly #holds = new Set<Hold>();
  /** Request faults among the armed ones: without any, requests skip matching. */
  #requestFaults = 0;
  #counter = 0;
  #closed = false;
  /** What the armed faults cost in memory (see FAULT_OVERHEAD_BYTES), counted in the world's bytes. */
  #bytes = 0;
  readonly #quota: WorldQuota | null;

  /** `quota`: the world's, which the armed faults count toward (none: they count toward nothing). */
  constructor(options: { seed: number; clock: Clock; holdLimitMs?: number; quota?: WorldQuota }) {
    this.#seed = options.seed;
    this.#clock = options.clock;
    this.#holdLimitMs = Math.min(options.holdLimitMs ?? MAX_FAULT_HOLD_MS, MAX_FAULT_HOLD_MS);
    this.#quota = options.quota ?? null;
    this.#quota?.holdOutside(() => this.#bytes);
  }

  /** Whether any request fault is armed: without one, requests pay nothing. */
  get armed(): boolean {
    return this.#requestFaults > 0;
  }

  /**
   * Arms a fault; throws FaultRuleError for a rule the endpoint would refuse with 422, and the 413
   * ApiError it answers past the bounds (see arm).
   */
  add(rule: FaultRule): Fault {
    const parsed = FaultInputSchema.safeParse(rule);
    if (!parsed.success) throw new FaultRuleError(`Invalid fault rule: ${z.prettifyError(parsed.error)}`);
    return this.arm(parsed.data);
  }

  /**
   * Arms a rule the schema has checked; throws the 413 ApiError when the book holds MAX_FAULTS
   * faults none of which is exhausted, or when the fault would take the world past its bytes
   * (nothing is armed then).
   */
  arm(rule: z.infer<typeof FaultInputSchema>): Fault {
    const armed = this.#entry(`fault_${this.#counter + 1}`, rule);
    if (this.#faults.size >= MAX_FAULTS && !this.#dropExhausted()) {
      throw errors.listFull(
        'armed faults',
        MAX_FAULTS,
        'DELETE /__sandbox/faults/{id} removes one, DELETE /__sandbox/faults every one (a reset does too)',
      );
    }
    const bytes = FAULT_OVERHEAD_BYTES + JSON.stringify(armed.fault).length;
    const full = this.#quota?.refusal(bytes);
    if (full) throw errors.worldFull(full.used, full.limit);
    this.#counter += 1;
    this.#faults.set(armed.id, { ...armed, bytes });
    this.#bytes += bytes;
    if (armed.request) this.#requestFaults += 1;
    return copy(armed.fault);
  }

  /** Removes the oldest fault that fires no more and holds nothing back; false when there is none. */
  #dropExhausted(): boolean {
    for (const [id, armed] of this.#faults) {
      if (armed.fault.remaining !== 0) continue;
      if ([...this.#holds].some((hold) => hold.faultId === id)) continue;
      return this.remove(id);
    }
    return false;
  }

  /** What a rule arms as fault `id`: the fault as listed, and how it matches. */
  #entry(id: string, rule: z.infer<typeof FaultInputSchema>): Omit<Armed, 'bytes'> {
    const counters = {
      times: rule.times ?? null,
      remaining: rule.times ?? null,
      probability: rule.probability ?? null,
      fired: 0,
      created_at: this.#clock.now().toISOString(),
    };
    const random = rule.probability === undefined ? null : seededRandom(this.#seed, id);
    const webhook = rule.match.webhook;
    const [effectName] = given(rule.effect, WEBHOOK_EFFECTS);
    if (webhook !== undefined && effectName !== undefined) {
      const match = {
        event: webhook.event ?? null,
        webhook_id: webhook.webhook_id?.toLowerCase() ?? null,
        consumer_id: webhook.consumer_id?.toLowerCase() ?? null,
      };
      const effect = { ...rule.effect };
      if (effect.reorder) effect.hold_seconds ??= DEFAULT_REORDER_HOLD_SECONDS;
      const fault: Fault = { id, match: { webhook: match }, effect, ...counters };
      const matcher = {
        event: match.event === null ? null : eventPatternMatcher(match.event),
        webhookid: match.webhook_id,
        consumer: match.consumer_id,
        effect: effectName,
      };
      return { id, fault, request: null, webhook: matcher, random };
    }
    // The schema gives a path to every rule without a webhook match.
    const path = rule.match.path ?? '*';
    const method = rule.match.method?.toUpperCase() ?? null;
    const consumer = rule.match.consumer_id?.toLowerCase() ?? null;
    const header = rule.match.header ?? null;
    const fault: Fault = {
      id,
      match: { method, path, consumer_id: consumer, header },
      effect: { ...rule.effect },
      ...counters,
    };
    const request = {
      matches: compilePathPattern(path),
      method,
      consumer,
      header: header && { name: header.name.toLowerCase(), value: header.value },
    };
    return { id, fault, request, webhook: null, random };
  }

  /** The armed faults, oldest first (exhausted ones too, until removed). */
  list(): Fault[] {
    return [...this.#faults.values()].map((armed) => copy(armed.fault));
  }

  get(id: string): Fault | undefined {
    const armed = this.#faults.get(id);
    return armed && copy(armed.fault);
  }

  /** Removes a fault; the requests its time-out holds go on and are answered normally. */
  remove(id: string): boolean {
    const armed = this.#faults.get(id);
    if (!armed) return false;
    this.#faults.delete(id);
    this.#bytes -= armed.bytes;
    if (armed.request) this.#requestFaults -= 1;
    for (const hold of this.#holds) if (hold.faultId === id && hold.releasable) hold.release('removed');
    return true;
  }

  /** Removes every fault (a reset does too); returns how many there were. */
  clear(): number {
    const count = this.#faults.size;
    for (const id of [...this.#faults.keys()]) this.remove(id);
    return count;
  }

  /** The sandbox stops: every held request is let go without an answer, and nothing is held again. */
  close(): void {
    this.#closed = true;
    for (const hold of this.#holds) hold.release('closed');
  }

  /**
   * The first armed fault (oldest first) that matches the request and fires, counted as fired; null
   * when none. A fault with a probability draws from its generator only for requests it matches.
   */
  match(c: Context<AppEnv>, path: string, consumerId: string | null): Armed | null {
    const method = c.req.method;
    for (const armed of this.#faults.values()) {
      const fault = armed.fault;
      const request = armed.request;
      if (request === null || fault.remaining === 0) continue;
      if (request.method !== null && request.method !== method) continue;
      if (request.consumer !== null && request.consumer !== consumerId) continue;
      if (!request.matches(path)) continue;
      if (request.header !== null && c.req.header(request.header.name) !== request.header.value) continue;
      if (armed.random !== null && !(armed.random() < (fault.probability ?? 1))) continue;
      if (fault.remaining !== null) fault.remaining -= 1;
      fault.fired += 1;
      return armed;
    }
    return null;
  }

  /**
   * The first armed webhook fault (oldest first) that matches the delivery and fires, counted as
   * fired, with what it orders; null when none. A fault with a probability draws from its generator
   * only for deliveries it matches; one whose effect holds the delivery back is passed over, without
   * counting, while `mayHold()` says the app holds as many deliveries as it may.
   */
  misbehave(delivery: DeliveryFacts, mayHold: () => boolean): MisbehaviourOrder | null {
    if (this.#faults.size === this.#requestFaults) return null;
    const consumer = delivery.consumerid?.toLowerCase() ?? null;
    for (const armed of this.#faults.values()) {
      const fault = armed.fault;
      const webhook = armed.webhook;
      if (webhook === null || fault.remaining === 0) continue;
      if (webhook.webhookid !== null && webhook.webhookid !== delivery.webhookid.toLowerCase()) continue;
      if (webhook.consumer !== null && webhook.consumer !== consumer) continue;
      if (webhook.event !== null && !webhook.event(delivery.event)) continue;
      if (armed.random !== null && !(armed.random() < (fault.probability ?? 1))) continue;
      if (holdsDelivery(webhook.effect) && !mayHold()) continue;
      if (fault.remaining !== null) fault.remaining -= 1;
      fault.fired += 1;
      return orderOf(this.#seed, armed, webhook.effect);
    }
    return null;
  }

  /**
   * Applies a fault that fired; false when the request is left without an answer. Only a latency
   * (alone) or a time-out lifted by removing its fault go on to the route.
   */
  async apply(hit: Armed, c: Context<AppEnv>, next: Next, bodyLimit: number): Promise<boolean> {
    const effect = hit.fault.effect;
    if (effect.latency_ms !== undefined) {
      // A delay runs its course even when the client gives up, as a slow service's work would.
      const why = await this.#hold(hit.id, effect.latency_ms, null, false);
      if (why === 'closed') return this.#noAnswer(c, why);
    }
    if (effect.timeout) {
      const why = await this.#hold(hit.id, this.#holdLimitMs, c.req.raw.signal, true);
      if (why !== 'removed') return this.#noAnswer(c, why);
      await next();
      return true;
    }
    if (effect.drop) return this.#noAnswer(c, 'closed');
    if (effect.status !== undefined) {
      const body =
        effect.body !== undefined
          ? effect.body
          : faultErrorBody(effect.status, messages.faultInjected(hit.id), { path: c.req.path, bodyLimit });
      const json = c.json as (object: unknown, status: number, headers: Record<string, string>) => Response;
      c.res = json(body, effect.status, { ...effect.headers, 'x-sandbox-fault': hit.id });
      return true;
    }
    await next();
    return true;
  }

  /** The error app.request rejects with for an answer that was never sent, if `res` is one. */
  unanswered(res: Response): Error | undefined {
    const why = res.headers.get(UNANSWERED_HEADER);
    if (why === null) return undefined;
    return why === 'aborted' ? new DOMException('This operation was aborted', 'AbortError') : networkError();
  }

  #hold(faultId: string, ms: number, signal: AbortSignal | null, releasable: boolean): Promise<Release> {
    if (this.#closed) return Promise.resolve('closed');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      let done = false;
      const onAbort = () => hold.release('aborted');
      const hold: Hold = {
        faultId,
        releasable,
        release: (why) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.#holds.delete(hold);
          resolve(why);
        },
      };
      const timer = setTimeout(() => hold.release('elapsed'), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#holds.add(hold);
    });
  }

  /**
   * No answer: over a real connection (@hono/node-server) its socket is destroyed, so the client
   * sees the connection closed; the empty answer left in place is never written. In process, that
   * answer carries UNANSWERED_HEADER, and app.request rejects as fetch would.
   */
  #noAnswer(c: Context<AppEnv>, why: Release): false {
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    outgoing?.socket?.destroy();
    c.res = new Response(null, { status: 500, headers: { [UNANSWERED_HEADER]: why } });
    return false;
  }
}

function copy(fault: Fault): Fault {
  const { header, webhook } = fault.match;
  const { rotate_secret } = fault.effect;
  return {
    ...fault,
    match: {
      ...fault.match,
      ...(header ? { header: { ...header } } : {}),
      ...(webhook ? { webhook: { ...webhook } } : {}),
    },
    effect: { ...fault.effect, ...(rotate_secret ? { rotate_secret: { ...rotate_secret } } : {}) },
  };
}
