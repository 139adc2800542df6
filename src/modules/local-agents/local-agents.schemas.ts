import { z } from '@hono/zod-openapi';

export const ReleaseItem = z
  .object({
    fileName: z.string(),
    version: z.string(),
    downloadUrl: z.string(),
  })
  .openapi('ReleaseItem', { description: 'A release of the local agent' });

export const ReleasesQuery = z.object({
  connector: z
    .union([
      z.literal('cockpit'),
      z.string().regex(/^\d{1,9}$/, 'Input should be a valid integer or cockpit'),
    ])
    .openapi({
      param: { name: 'connector', in: 'query', required: true },
      description: 'An integrationid, or cockpit for the control panel of the agent',
    }),
});

export type ReleaseItemOut = z.infer<typeof ReleaseItem>;
