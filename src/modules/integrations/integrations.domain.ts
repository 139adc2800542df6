import { errors } from '../../lib/errors.js';
import type { Catalogue, ImageType, Integration } from '../../platform/catalogue.js';
import type { IntegrationItemOut } from './integrations.schemas.js';

export const imageUrl = (origin: string, integrationid: number, type: ImageType) =>
  `${origin}/integrations/${integrationid}/${type}.png`;

export function toIntegrationItem(
  integration: Integration,
  origin: string,
  includeCoverage: boolean,
): IntegrationItemOut {
  return {
    integrationid: integration.integrationid,
    name: integration.name,
    description: integration.description,
    status: integration.status,
    api: integration.api,
    logo_url: imageUrl(origin, integration.integrationid, 'logo'),
    icon_url: imageUrl(origin, integration.integrationid, 'icon'),
    post_connections: integration.post_connections.map((p) => ({
      id: p.id,
      title: p.title,
      optional: p.optional,
      resource: p.resource,
      config: { enabled: p.config.enabled, allow_multiple: p.config.allow_multiple },
    })),
    operations_coverage: includeCoverage ? integration.coverage.map((c) => ({ ...c })) : [],
    credentials: integration.credentials.map((c) => ({
      name: c.name,
      optional: c.optional,
      visibility: c.visibility,
    })),
    supported_countries: integration.supported_countries ? [...integration.supported_countries] : null,
    local_agent: integration.local_agent,
  };
}

export function listIntegrations(
  catalogue: Catalogue,
  filters: { status?: 'active' | 'inactive' | undefined },
): readonly Integration[] {
  return filters.status
    ? catalogue.integrations.filter((i) => i.status === filters.status)
    : catalogue.integrations;
}

/** The base64 PNG of an integration's logo or icon; 404 when the integration or that image is missing. */
export function requireImage(catalogue: Catalogue, integrationid: number, type: string): string {
  const integration = Number.isSafeInteger(integrationid) ? catalogue.get(integrationid) : undefined;
  const data = integration && (type === 'logo' || type === 'icon') ? integration.images[type] : undefined;
  if (data === undefined) throw errors.imageNotFound(type);
  return data;
}
