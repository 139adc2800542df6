import { z } from '@hono/zod-openapi';

// Kept unregistered so that MCPAuthItem renders as one flat object rather than allOf [AuthItem, ...].
const keyCredentials = z.object({
  clientId: z.string().openapi({ description: 'Client id of the API key' }),
  clientSecret: z.string().openapi({ description: 'Client secret of the API key' }),
  accountId: z.uuid().openapi({ description: 'Id of the vendor account' }),
  marketplaceId: z.uuid().nullable().optional().openapi({ description: 'Id of a marketplace, if any' }),
  envId: z.uuid().nullable().optional().openapi({ description: 'Id of a sub-environment, if any' }),
});

export const AuthItem = keyCredentials.openapi('AuthItem');

export const MCPAuthItem = keyCredentials
  .extend({
    consumerId: z.uuid().openapi({ description: 'The consumer the token is bound to' }),
    scopes: z.array(z.string()).nullable().optional().openapi({
      description:
        'Sandbox extension: the scopes the token should carry, a subset of those granted to the API key. Omitted: every scope granted to the key.',
    }),
  })
  .openapi('MCPAuthItem');

export const Token = z
  .object({
    access_token: z.string().openapi({ description: 'The JWT to send as a bearer token' }),
    token_type: z.string().openapi({ example: 'bearer' }),
    expires_in: z.number().int().openapi({ description: 'Lifetime in seconds' }),
    expires_on: z.number().int().openapi({ description: 'Expiry as a Unix timestamp, in seconds' }),
  })
  .openapi('Token');
