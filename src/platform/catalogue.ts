import { readFileSync } from 'node:fs';
import { packageFile } from '../lib/package-files.js';
import { tilePng } from '../lib/png.js';

/**
 * The One APIs of the service, each with its integer code (a sync connection's `one_api`), in the
 * order the service's enum lists them. A wire table, like an error message: the verticals name
 * their One API from it (their descriptor, src/verticals.ts), and it holds the One APIs that are no
 * vertical of the sandbox (Communication, Custom).
 */
export const ONE_APIS = [
  { name: 'Point of Sale', code: 2 },
  { name: 'eCommerce', code: 3 },
  { name: 'Accounting', code: 1 },
  { name: 'Invoicing', code: 4 },
  { name: 'Communication', code: 8 },
  { name: 'Banking', code: 5 },
  { name: 'Custom', code: 9 },
  { name: 'Payment', code: 6 },
  { name: 'Property Management System', code: 7 },
] as const;

/** The names of the One APIs, in the service's order (the enum of the wire). */
export const API_NAMES = ONE_APIS.map((api) => api.name) as unknown as readonly [
  (typeof ONE_APIS)[number]['name'],
  ...(typeof ONE_APIS)[number]['name'][],
];
export type ApiName = (typeof ONE_APIS)[number]['name'];

/** A One API's name and code, as a vertical's descriptor holds them. */
export function oneApi<N extends ApiName>(name: N): { api: N; code: number } {
  const found = ONE_APIS.find((api) => api.name === name);
  if (!found) throw new Error(`No One API named ${name}`);
  return { api: name, code: found.code };
}

/** The integration catalogue of fixtures/integrations.json, with its images drawn once. */

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
