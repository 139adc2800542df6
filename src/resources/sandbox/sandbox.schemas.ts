import { z } from '@hono/zod-openapi';

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
    advance_seconds: z.number().optional().openapi({ description: 'Seconds to move the clock forward' }),
    now: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: 'The instant to set the clock to' }),
  })
  .refine((v) => (v.advance_seconds === undefined) !== (v.now === undefined), {
    message: 'Give exactly one of advance_seconds and now',
  })
  .openapi('SandboxClockChange');

export const ResetResult = z
  .object({ status: z.literal('reset'), seed: z.number().int() })
  .openapi('SandboxReset');
