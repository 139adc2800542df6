import { readFileSync } from 'node:fs';
import { packageFile } from '../lib/package-files.js';
import { tilePng } from '../lib/png.js';

/** The integration catalogue of fixtures/integrations.json, with its images drawn once. */
export const API_NAMES = [
  'Point of Sale',
  'eCommerce',
  'Accounting',
  'Invoicing',
  'Communication',
  'Banking',
  'Custom',
  'Payment',
  'Property Management System',
] as const;
export type ApiName = (typeof API_NAMES)[number];

export const COVERAGE_STATUSES = ['SUPPORTED', 'NOT_IMPLEMENTED', 'NOT_SUPPORTED', 'UNDER_ANALYSIS'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export type ImageType = 'logo' | 'icon';

export interface CredentialDefinition {
  name: string;
  optional: boolean;
  visibility: 'consumer' | 'connector' | 'both';
}

export interface PostConnectionDefinition {
  id: string;
  title: string;
  optional: boolean;
  resource: string;
  config: { enabled: boolean; allow_multiple: boolean };
}

/**
 * The value the sandbox gives a mandatory post connection that nobody chose: what the seeded active
 * connections hold, and what a link completed by a script (JSON) without it gets.
 */
export const placeholderPostConnection = (definition: PostConnectionDefinition): string =>
  `${definition.resource}-1`;

export interface IntegrationFeatures {
  multiple_folders: boolean;
  unified_partners: boolean;
  datalayer: boolean;
  /** The software returns invoice lines only on a separate request (include_invoice_lines=true). */
  invoice_lines_on_request: boolean;
}

export interface Integration {
  integrationid: number;
  name: string;
  description: string;
  api: ApiName;
  status: 'active' | 'inactive';
  supported_countries: string[] | null;
  local_agent: boolean;
  credentials: CredentialDefinition[];
  post_connections: PostConnectionDefinition[];
  features: IntegrationFeatures;
  coverage: { operation: string; status: CoverageStatus }[];
  images: Partial<Record<ImageType, string>>;
}

interface IntegrationFixture extends Omit<Integration, 'coverage' | 'images'> {
  color: string;
  images: ImageType[];
  coverage: { default: CoverageStatus; except: Record<string, CoverageStatus> };
}

/** A fixture of the package (lib/package-files.ts finds it from the code, bundled or not). */
function readFixture<T>(name: string): T {
  const url = packageFile(`fixtures/${name}`);
  if (!url) throw new Error(`fixture ${name} not found`);
  return JSON.parse(readFileSync(url, 'utf8')) as T;
}

export { readFixture };

const IMAGE_SIZES: Record<ImageType, number> = { logo: 64, icon: 24 };

/**
 * An integration's images, each drawn (and kept) the first time it is read: drawing every logo and
 * icon of the catalogue up front cost some 35 ms of the first createApp of a process.
 */
function lazyImages(types: ImageType[], color: string): Partial<Record<ImageType, string>> {
  const images: Partial<Record<ImageType, string>> = {};
  for (const type of types) {
    let drawn: string | undefined;
    Object.defineProperty(images, type, {
      enumerable: true,
      get: () => {
        drawn ??= tilePng(IMAGE_SIZES[type], color).toString('base64');
        return drawn;
      },
    });
  }
  return images;
}

export class Catalogue {
  readonly integrations: readonly Integration[];
  readonly #byId: Map<number, Integration>;

  constructor(integrations: Integration[]) {
    this.integrations = integrations;
    this.#byId = new Map(integrations.map((integration) => [integration.integrationid, integration]));
  }

  get(integrationid: number): Integration | undefined {
    return this.#byId.get(integrationid);
  }

  /** Active integrations of a vertical. */
  activeOf(api: ApiName): Integration[] {
    return this.integrations.filter((i) => i.api === api && i.status === 'active');
  }
}

let cached: Catalogue | undefined;

export function loadCatalogue(): Catalogue {
  if (cached) return cached;
  const operations = readFixture<Record<ApiName, string[]>>('operations-by-api.json');
  const fixture = readFixture<{ integrations: IntegrationFixture[] }>('integrations.json');
  const integrations = fixture.integrations.map(
    ({ color, images, coverage, ...rest }): Integration => ({
      ...rest,
      coverage: (operations[rest.api] ?? []).map((operation) => ({
        operation,
        status: coverage.except[operation] ?? coverage.default,
      })),
      images: lazyImages(images, color),
    }),
  );
  cached = new Catalogue(integrations);
  return cached;
}
