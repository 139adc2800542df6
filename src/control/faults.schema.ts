import { z } from '@hono/zod-openapi';
import { checkPathPattern, MAX_PATTERN_SEGMENTS } from '../lib/path-pattern.js';
import { WEBHOOK_FAULT_EFFECTS } from '../modules/webhooks/index.js';

/** The wire shapes of faults: the rule POST /__sandbox/faults takes, and the fault it answers (faults.ts). */

/** Longest a fault holds a request (a latency, or a time-out with no answer): five minutes. */
export const MAX_FAULT_HOLD_MS = 5 * 60_000;

// A header name is an HTTP token; a value has no line break (both linear checks).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[^\r\n\0]{0,2000}$/;

/** Longest a webhook fault holds a delivery back, and longest overlap of a rotated secret: a day. */
export const MAX_WEBHOOK_FAULT_SECONDS = 86_400;

/** How long a reorder waits for the next delivery of the instance when the rule does not say. */
export const DEFAULT_REORDER_HOLD_SECONDS = 60;

/** An event type, or a pattern of one where * stands for any characters (pos.*). */
const EVENT_PATTERN = /^[A-Za-z0-9_.*-]{1,100}$/;

const WebhookMatchSchema = z
  .object({
    event: z.string().regex(EVENT_PATTERN, 'An event type, * for any characters').optional().openapi({
      description:
        'Only deliveries of this event type; * stands for any characters (account.connection.*, pos.*); default: any',
      example: 'account.connection.*',
    }),
    webhook_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Only deliveries to this webhook instance (its webhookid)' }),
    consumer_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Only deliveries of events about this consumer' }),
  })
  // A field it does not know (a url, say) would otherwise be dropped and match every delivery.
  .strict()
  .openapi('SandboxWebhookFaultMatch');

const FaultMatchSchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]{1,16}$/, 'An HTTP method')
      .optional()
      .openapi({ description: 'Only requests of this method (any case); default: any' }),
    path: z
      .string()
      .min(1)
      .max(500)
      .superRefine(checkPathPattern)
      .optional()
      .openapi({
        description: `A request fault: a path pattern: {name} matches one segment, * one or more segments, * alone every path (e.g. /consumers/{consumer_id}/accounting/*); at most ${MAX_PATTERN_SEGMENTS} segments. Exactly one of path and webhook`,
        example: '/consumers/{consumer_id}/accounting/invoices',
      }),
    webhook: WebhookMatchSchema.optional().openapi({
      description:
        'A webhook fault: the webhook deliveries it makes misbehave (each field optional; {} matches every delivery). Exactly one of path and webhook',
    }),
    consumer_id: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Only requests under /consumers/{this consumer}' }),
    header: z
      .object({
        name: z.string().regex(HEADER_NAME, 'An HTTP header name'),
        value: z.string().max(2000),
      })
      .optional()
      .openapi({ description: 'Only requests carrying this header with exactly this value' }),
  })
  .openapi('SandboxFaultMatch', {
    description:
      'What the fault matches: requests (path, with method, consumer_id and header) or webhook deliveries (webhook)',
  });

const REQUEST_EFFECTS = ['status', 'body', 'headers', 'latency_ms', 'drop', 'timeout'] as const;
export const WEBHOOK_EFFECTS = WEBHOOK_FAULT_EFFECTS;

/** The effects given (a flag counts when true), among `names`. */
export function given<K extends string>(effect: Partial<Record<K, unknown>>, names: readonly K[]): K[] {
  return names.filter((name) => effect[name] !== undefined && effect[name] !== false);
}

const webhookSeconds = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_WEBHOOK_FAULT_SECONDS)
    .optional()
    .openapi({
      description: `Webhook fault: ${what} (1 to ${MAX_WEBHOOK_FAULT_SECONDS}, sandbox time)`,
    });

const FaultEffectSchema = z
  .object({
    status: z.number().int().min(400).max(599).optional().openapi({
      description:
        "Answer this status without running the route; the body defaults to the service's error for it",
    }),
    body: z.unknown().optional().openapi({ description: 'With status: the JSON body to answer instead' }),
    headers: z
      .record(z.string().regex(HEADER_NAME, 'An HTTP header name'), z.string().regex(HEADER_VALUE))
      .optional()
      .openapi({ description: 'With status: headers to add to the answer (e.g. Retry-After)' }),
    latency_ms: z.number().int().min(1).max(MAX_FAULT_HOLD_MS).optional().openapi({
      description: 'Wait this long (real time) first, then answer normally, or with status or drop',
    }),
    drop: z
      .boolean()
      .optional()
      .openapi({ description: 'Close the connection without any answer (in process: app.request rejects)' }),
    timeout: z.boolean().optional().openapi({
      description:
        'Never answer: hold the request until the client gives up (then close), the fault is removed (then answer normally) or five minutes pass (then close)',
    }),
    duplicate: z.number().int().min(1).max(10).optional().openapi({
      description:
        'Webhook fault: send the delivery this many more times (1 to 10): the same body, each copy a delivery of its own',
    }),
    delay_seconds: webhookSeconds(
      'hold the delivery this many seconds of sandbox time before its first attempt (a move of the clock past it releases it)',
    ),
    reorder: z.boolean().optional().openapi({
      description:
        'Webhook fault: hold the delivery and send it right after the next delivery to the same instance, or alone after hold_seconds',
    }),
    hold_seconds: webhookSeconds(
      `with reorder: how long the delivery waits for the next one, default ${DEFAULT_REORDER_HOLD_SECONDS}`,
    ),
    drop_then_redeliver_seconds: webhookSeconds(
      'lose the first attempt (logged, nothing sent), then send the same delivery this many seconds later',
    ),
    stale: z.boolean().optional().openapi({
      description:
        'Webhook fault: once the delivery is sent, send the previous delivery of its event to the same instance again (an older event after a newer one)',
    }),
    rotate_secret: z
      .object({
        overlap_seconds: z.number().int().min(0).max(MAX_WEBHOOK_FAULT_SECONDS).default(0).openapi({
          description:
            'Seconds of sandbox time during which deliveries are still signed with the previous secret; 0 (the default): none, as the service documents no overlap',
        }),
      })
      .optional()
      .openapi({
        description:
          "Webhook fault: replace the instance's signing secret before the delivery with a new one drawn from the seed, the fault id and the firing count",
      }),
  })
  .superRefine((effect, ctx) => {
    const requests = given(effect, REQUEST_EFFECTS);
    const webhooks = given(effect, WEBHOOK_EFFECTS);
    if (webhooks.length > 0) {
      if (requests.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${requests.join(', ')} and ${webhooks.join(', ')} do not go together: the first act on requests, the others on webhook deliveries`,
        });
      }
      if (webhooks.length > 1) {
        ctx.addIssue({ code: 'custom', message: `Give one of ${WEBHOOK_EFFECTS.join(', ')}` });
      }
      if (effect.hold_seconds !== undefined && effect.reorder !== true) {
        ctx.addIssue({ code: 'custom', message: 'hold_seconds goes with reorder' });
      }
      return;
    }
    if (effect.hold_seconds !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'hold_seconds goes with reorder' });
    }
    const outcomes = [effect.status !== undefined, effect.drop === true, effect.timeout === true];
    const count = outcomes.filter(Boolean).length;
    if (count > 1) ctx.addIssue({ code: 'custom', message: 'Give at most one of status, drop and timeout' });
    if (count === 0 && effect.latency_ms === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `Give status, drop, timeout or latency_ms (a path match), or one of ${WEBHOOK_EFFECTS.join(', ')} (a webhook match)`,
      });
    }
    if (effect.timeout === true && effect.latency_ms !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'A timeout holds the request already: no latency_ms with it' });
    }
    if (effect.status === undefined && (effect.body !== undefined || effect.headers !== undefined)) {
      ctx.addIssue({ code: 'custom', message: 'body and headers go with status' });
    }
  })
  .openapi('SandboxFaultEffect');

export const FaultInputSchema = z
  .object({
    match: FaultMatchSchema,
    effect: FaultEffectSchema,
    times: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .openapi({ description: 'Fire on the next N matching requests only; default: until removed' }),
    probability: z.number().min(0).max(1).optional().openapi({
      description:
        'Fire on each matching request (or delivery) with this probability, drawn from a generator seeded with the sandbox seed and the fault id (reproducible); default 1',
    }),
  })
  .superRefine((rule, ctx) => {
    const { match, effect } = rule;
    if ((match.path === undefined) === (match.webhook === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['match'],
        message: 'Give exactly one of path (a request fault) and webhook (a webhook fault)',
      });
    }
    if (match.webhook !== undefined) {
      if (match.method !== undefined || match.consumer_id !== undefined || match.header !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['match'],
          message: 'method, consumer_id and header go with path; a webhook match takes its own consumer_id',
        });
      }
      const requests = given(effect, REQUEST_EFFECTS);
      if (match.path === undefined && requests.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['effect'],
          message: `${requests.join(', ')} go with a path match: a webhook match takes ${WEBHOOK_EFFECTS.join(', ')}`,
        });
      }
    }
    const webhooks = given(effect, WEBHOOK_EFFECTS);
    if (match.path !== undefined && match.webhook === undefined && webhooks.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['effect'],
        message: `${webhooks.join(', ')} go with a webhook match: a path match takes status, latency_ms, drop or timeout`,
      });
    }
  })
  .openapi('SandboxFaultInput');

export const FaultSchema = z
  .object({
    id: z.string().openapi({ description: 'Id of the fault (fault_<n>, counting from 1 per sandbox)' }),
    match: z
      .object({
        method: z.string().nullable().optional(),
        path: z.string().optional(),
        consumer_id: z.string().nullable().optional(),
        header: z.object({ name: z.string(), value: z.string() }).nullable().optional(),
        webhook: z
          .object({
            event: z.string().nullable(),
            webhook_id: z.string().nullable(),
            consumer_id: z.string().nullable(),
          })
          .optional(),
      })
      .openapi({
        description:
          'A request fault: method, path, consumer_id and header (null: any); a webhook fault: webhook (null: any)',
      }),
    effect: z.object({
      status: z.number().int().optional(),
      body: z.unknown().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      latency_ms: z.number().int().optional(),
      drop: z.boolean().optional(),
      timeout: z.boolean().optional(),
      duplicate: z.number().int().optional(),
      delay_seconds: z.number().int().optional(),
      reorder: z.boolean().optional(),
      hold_seconds: z.number().int().optional(),
      drop_then_redeliver_seconds: z.number().int().optional(),
      stale: z.boolean().optional(),
      rotate_secret: z.object({ overlap_seconds: z.number().int() }).optional(),
    }),
    times: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'How many times it was armed for; null: unbounded' }),
    remaining: z.number().int().nullable().openapi({ description: 'Firings left; null: unbounded' }),
    probability: z.number().nullable(),
    fired: z.number().int().openapi({ description: 'How many requests (or webhook deliveries) it fired on' }),
    created_at: z.iso.datetime().openapi({ description: 'Sandbox time at which it was armed' }),
  })
  .openapi('SandboxFault');

/** A fault rule, as POST /__sandbox/faults and `faults.add` take it. */
export type FaultRule = z.input<typeof FaultInputSchema>;
/** An armed fault, with its counters. */
export type Fault = z.infer<typeof FaultSchema>;

/** The typed face of the faults, on `startSandbox()` and `app.services.faults`. */
export interface FaultControl {
  add(rule: FaultRule): Fault;
  list(): Fault[];
  get(id: string): Fault | undefined;
  remove(id: string): boolean;
  clear(): number;
}

/** Thrown by `faults.add` for a rule the schema refuses (the endpoint answers 422 instead). */
export class FaultRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaultRuleError';
  }
}
