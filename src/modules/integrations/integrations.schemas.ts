import { z } from '@hono/zod-openapi';
import { API_NAMES, COVERAGE_STATUSES } from '../../platform/catalogue.js';

export const IntegationStatus = z
  .enum(['active', 'inactive'])
  .openapi('IntegationStatus', { description: 'Whether an integration can be connected' });

export const Api = z
  .enum(API_NAMES)
  .openapi('Api', { description: 'The One API (vertical) of an integration' });

export const BoolParam = z
  .enum(['true', 'false'])
  .openapi('BoolParam', { description: 'A boolean query parameter, spelled true or false' });

export const ImageType = z.enum(['icon', 'logo']).openapi('ImageType', { description: 'Which image' });

export const CoverageStatus = z
  .enum(COVERAGE_STATUSES)
  .openapi('CoverageStatus', { description: 'How far an integration implements an operation' });

export const CoverageItem = z
  .object({
    operation: z.string().openapi({ description: 'The operationId of a One API operation' }),
    status: CoverageStatus,
  })
  .openapi('CoverageItem');

export const Visibility = z
  .enum(['consumer', 'connector', 'both'])
  .openapi('Visibility', { description: 'Who gives a credential: the end user, the vendor once, or either' });

export const IntegrationsCredentialItem = z
  .object({
    name: z.string().openapi({ description: 'Key of the credential' }),
    optional: z.boolean().default(false).openapi({ description: 'Whether a connection may go without it' }),
    visibility: z.union([Visibility, z.null()]).default('both').openapi({
      description:
        'consumer: given per connection; connector: set once when the integration is enabled; both: either way',
    }),
  })
  .openapi('IntegrationsCredentialItem');

export const IntegrationsPostConnectionItemConfig = z
  .object({
    enabled: z.boolean().default(false).openapi({ description: 'Whether the post connection is asked' }),
    allow_multiple: z
      .boolean()
      .default(false)
      .openapi({ description: 'Whether several values may be chosen' }),
  })
  .openapi('IntegrationsPostConnectionItemConfig');

export const IntegrationsPostConnectionItem = z
  .object({
    id: z.string().openapi({ description: 'Key of the post connection' }),
    title: z.string().openapi({ description: 'Label shown to the end user' }),
    optional: z.boolean().openapi({ description: 'Whether a connection may go without it' }),
    resource: z.string().openapi({ description: 'The kind of record the value designates' }),
    config: IntegrationsPostConnectionItemConfig.optional().openapi({
      description: 'How the post connection is asked',
    }),
  })
  .openapi('IntegrationsPostConnectionItem');

export const IntegrationItem = z
  .object({
    integrationid: z.number().int().openapi({ description: 'Id of the integration' }),
    name: z.string().openapi({ description: 'Name of the integrated software' }),
    description: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'What the integration connects to' }),
    status: IntegationStatus,
    api: Api,
    logo_url: z.string().openapi({ description: 'Url of the logo (PNG) on this server' }),
    icon_url: z.string().openapi({ description: 'Url of the icon (PNG) on this server' }),
    post_connections: z
      .array(IntegrationsPostConnectionItem)
      .nullable()
      .default([])
      .openapi({ description: 'Values asked after the connection is made (a default journal, say)' }),
    operations_coverage: z.array(CoverageItem).nullable().default([]).openapi({
      description: 'Coverage of each operation of the One API; empty unless include_coverage=true',
    }),
    credentials: z
      .array(IntegrationsCredentialItem)
      .nullable()
      .default([])
      .openapi({ description: 'Credentials a connection of this integration takes' }),
    supported_countries: z
      .array(z.string())
      .nullable()
      .optional()
      .openapi({ description: 'ISO 3166-1 alpha-2 codes where it is offered; null: everywhere' }),
    local_agent: z
      .boolean()
      .default(false)
      .openapi({ description: 'Whether the integration runs through an agent installed on premises' }),
  })
  .openapi('IntegrationItem');

export const LogoImage = z
  .object({
    integrationid: z.number().int().openapi({ description: 'Id of the integration' }),
    data: z.string().openapi({ description: 'The PNG image, base64-encoded' }),
  })
  .openapi('LogoImage');

export const IntegrationsQuery = z.object({
  status: IntegationStatus.optional().openapi({
    param: { name: 'status', in: 'query', description: 'Only integrations of this status' },
  }),
  // No zod default (the generator would copy it into the BoolParam component): absent reads as false.
  include_coverage: BoolParam.optional().openapi({
    param: {
      name: 'include_coverage',
      in: 'query',
      description: 'Fill operations_coverage (true) or leave it empty (false, the default)',
    },
  }),
});

export const ImageParams = z.object({
  integrationid: z.coerce
    .number()
    .int()
    .openapi({
      param: { name: 'integrationid', in: 'path', required: true },
      type: 'integer',
      description: 'Id of the integration',
    }),
  image_type: ImageType.openapi({ param: { name: 'image_type', in: 'path' } }),
});

/** The raw image route is for <img src>: anything it cannot serve is a 404, so it types its params loosely. */
export const RawImageParams = z.object({
  integrationid: z.string().openapi({
    param: { name: 'integrationid', in: 'path' },
    type: 'integer',
    description: 'Id of the integration',
  }),
  image_type: z.string().openapi({ param: { name: 'image_type', in: 'path' }, enum: ['icon', 'logo'] }),
});

export type IntegrationItemOut = z.infer<typeof IntegrationItem>;
export type ImageTypeName = z.infer<typeof ImageType>;
