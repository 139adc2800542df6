import { z } from '@hono/zod-openapi';
import { calendarDay } from '../lib/calendar-schemas.js';
import { PACES } from '../lib/pace.js';

const MAX_SHIFT_SECONDS = 100 * 366 * 86_400;

export const ClockState = z
  .object({
    now: z.iso.datetime().openapi({ description: 'The sandbox time' }),
    mode: z.enum(['system', 'manual']).openapi({
      description: 'system: follows the machine time plus an offset; manual: stands still until moved',
    }),
  })
  .openapi('SandboxClock');

export const ClockChange = z
  .object({
    mode: z.enum(['system', 'manual']).optional().openapi({
      description:
        'system: back to the machine\'s time, every earlier move dropped, and following it from then on; manual: stand still at the current reading until moved. Applied before advance_seconds or now when one comes with it ({"mode": "manual", "now": ...} stops the clock at that instant)',
    }),
    // A century either way keeps every date the sandbox writes a valid ISO date.
    advance_seconds: z
      .number()
      .min(-MAX_SHIFT_SECONDS)
      .max(MAX_SHIFT_SECONDS)
      .optional()
      .openapi({ description: 'Seconds to move the clock forward (negative: back)' }),
    now: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'The instant to set the clock to' }),
  })
  .refine(
    (v) =>
      !(v.advance_seconds !== undefined && v.now !== undefined) &&
      (v.mode !== undefined || v.advance_seconds !== undefined || v.now !== undefined),
    { message: 'Give mode, advance_seconds or now (advance_seconds and now not together)' },
  )
  .openapi('SandboxClockChange');

export const ResetResult = z
  .object({ status: z.literal('reset'), seed: z.number().int() })
  .openapi('SandboxReset');

const Day = calendarDay();

export const PaceState = z
  .object({
    pace: z.enum(PACES).openapi({ description: "The pace of the clock's day" }),
    changes: z
      .array(z.object({ from: Day, pace: z.enum(PACES) }))
      .openapi({ description: 'Every change of pace, by the day it applies from' }),
  })
  .openapi('SandboxPace');

export const PaceSet = z
  .object({
    pace: z.enum(PACES).openapi({
      description:
        "quiet: about 0.4 times a usual day's sales, invoices, bank lines and stays; normal; busy: 2.5 times",
    }),
    from: Day.optional().openapi({
      description:
        "The first day it applies to (default: the clock's day). Days before it keep their pace, so what a client read never changes",
    }),
  })
  .strict()
  .openapi('SandboxPaceChange');
