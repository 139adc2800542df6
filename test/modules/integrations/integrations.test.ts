import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { IntegrationItem, LogoImage } from '../../../src/modules/integrations/integrations.schemas.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import {
  call,
  everyOperationDocument,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const catalogue = loadCatalogue();

let s: TestSandbox;
let token: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const get = (path: string) => call(s.app, 'GET', path, { token });

describe('GET /integrations', () => {
  it('lists the whole catalogue, active and inactive, each item an IntegrationItem', async () => {
    const res = await get('/integrations');
    expect(res.status).toBe(200);
    const items = (res.body as unknown[]).map((item) => IntegrationItem.parse(item));
    expect(items.map((i) => i.integrationid)).toEqual(catalogue.integrations.map((i) => i.integrationid));
    expect(new Set(items.map((i) => i.status))).toEqual(new Set(['active', 'inactive']));
  });

  it('answers exactly the fields of the reference IntegrationItem, from the catalogue', async () => {
    const res = await get('/integrations');
    const ledgerline = (res.body as Record<string, unknown>[]).find((i) => i.integrationid === 1000);
    const source = catalogue.get(1000);
    expect(source).toBeDefined();
    expect(ledgerline).toEqual({
      integrationid: 1000,
      name: source?.name,
      description: source?.description,
      status: 'active',
      api: 'Accounting',
      logo_url: 'http://localhost/integrations/1000/logo.png',
      icon_url: 'http://localhost/integrations/1000/icon.png',
      post_connections: source?.post_connections,
      operations_coverage: [],
      credentials: source?.credentials,
      supported_countries: source?.supported_countries,
      local_agent: false,
    });
  });

  it.each(['active', 'inactive'] as const)('status=%s keeps those integrations only', async (status) => {
    const res = await get(`/integrations?status=${status}`);
    expect(res.status).toBe(200);
    const ids = (res.body as { integrationid: number; status: string }[]).map((i) => i.integrationid);
    const expected = catalogue.integrations.filter((i) => i.status === status).map((i) => i.integrationid);
    expect(ids).toEqual(expected);
    expect(ids.length).toBeGreaterThan(0);
  });

  it.each([
    ['absent', '', false],
    ['false', '?include_coverage=false', false],
    ['true', '?include_coverage=true', true],
  ])('include_coverage %s', async (_n, query, included) => {
    const res = await get(`/integrations${query}`);
    expect(res.status).toBe(200);
    for (const item of res.body as { integrationid: number; operations_coverage: unknown[] }[]) {
      const coverage = catalogue.get(item.integrationid)?.coverage ?? [];
      expect(item.operations_coverage).toEqual(included ? coverage : []);
    }
    if (included) {
      const all = (res.body as { operations_coverage: unknown[] }[]).flatMap((i) => i.operations_coverage);
      expect(all.length).toBeGreaterThan(0);
    }
  });

  it('combines the filters', async () => {
    const res = await get('/integrations?status=inactive&include_coverage=true');
    const items = res.body as { status: string; operations_coverage: unknown[] }[];
    expect(items.every((i) => i.status === 'inactive')).toBe(true);
    expect(items.some((i) => i.operations_coverage.length > 0)).toBe(true);
  });

  it.each([
    ['status=deleted', ['query', 'status']],
    ['status=ACTIVE', ['query', 'status']],
    ['include_coverage=yes', ['query', 'include_coverage']],
    ['include_coverage=1', ['query', 'include_coverage']],
  ])('?%s is a 422 validation error', async (query, loc) => {
    expectValidation(await get(`/integrations?${query}`), loc, 'enum');
  });

  it('image urls use the configured public url when there is one', async () => {
    const other = sandbox({ publicUrl: 'https://sandbox.vendor.example/' });
    const res = await call(other.app, 'GET', '/integrations', { token: await sandboxToken(other) });
    const first = (res.body as { integrationid: number; logo_url: string; icon_url: string }[])[0];
    expect(first?.logo_url).toBe(
      `https://sandbox.vendor.example/integrations/${first?.integrationid}/logo.png`,
    );
    expect(first?.icon_url).toBe(
      `https://sandbox.vendor.example/integrations/${first?.integrationid}/icon.png`,
    );
  });

  it('needs a token, and is not open to MCP tokens', async () => {
    expectError(await call(s.app, 'GET', '/integrations'), errors.missingToken());
    const mcp = await call(s.app, 'POST', '/mcp-token', {
      token,
      body: {
        accountId: s.ids.accountId,
        ...s.ids.sandbox,
        consumerId: s.ids.verticalConsumers.ACCOUNTING,
      },
    });
    expect(mcp.status).toBe(200);
    const res = await call(s.app, 'GET', '/integrations', { token: mcp.body.access_token });
    expectError(res, errors.scopeDenied([]));
    expectError(
      await call(s.app, 'GET', '/integrations/1000/logo.json', { token: mcp.body.access_token }),
      errors.scopeDenied([]),
    );
  });
});

const imageCases = catalogue.integrations.flatMap((integration) =>
  (['logo', 'icon'] as const).map((type) => ({
    id: integration.integrationid,
    type,
    exists: integration.images[type] !== undefined,
  })),
);

describe('GET /integrations/{integrationid}/{image_type}.json and .png', () => {
  it('the catalogue has integrations with both images, with a logo only and with none', () => {
    expect(imageCases.some((c) => c.exists)).toBe(true);
    expect(catalogue.integrations.some((i) => i.images.logo && !i.images.icon)).toBe(true);
    expect(catalogue.integrations.some((i) => !i.images.logo && !i.images.icon)).toBe(true);
  });

  it.each(imageCases)('$id $type.json: a base64 PNG, or 404 when missing', async ({ id, type, exists }) => {
    const res = await get(`/integrations/${id}/${type}.json`);
    if (!exists) {
      expectError(res, errors.imageNotFound(type));
      return;
    }
    expect(res.status).toBe(200);
    const image = LogoImage.parse(res.body);
    expect(image.integrationid).toBe(id);
    const bytes = Buffer.from(image.data, 'base64');
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(bytes.toString('base64')).toBe(image.data);
  });

  it.each(imageCases)(
    '$id $type.png: the same bytes as image/png, without a token',
    async ({ id, type, exists }) => {
      const res = await s.app.request(`/integrations/${id}/${type}.png`);
      if (!exists) {
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual(errors.imageNotFound(type).toBody());
        return;
      }
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      const json = await get(`/integrations/${id}/${type}.json`);
      expect(bytes.toString('base64')).toBe(json.body.data);
    },
  );

  it('the urls of the list serve the images', async () => {
    const list = await get('/integrations');
    const item = (list.body as { logo_url: string; icon_url: string }[])[0];
    for (const url of [item?.logo_url, item?.icon_url]) {
      const res = await s.app.request(new URL(url ?? '').pathname);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 8)
          .equals(PNG_SIGNATURE),
      ).toBe(true);
    }
  });

  it.each([
    ['an unknown integration', '/integrations/999999/logo.json', 'logo'],
    ['an unknown integration (icon)', '/integrations/999999/icon.json', 'icon'],
    ['a negative id', '/integrations/-1/logo.json', 'logo'],
  ])('.json of %s is 404', async (_n, path, type) => {
    expectError(await get(path), errors.imageNotFound(type));
  });

  it.each([
    ['a non-integer id', '/integrations/abc/logo.json', ['path', 'integrationid'], 'int_parsing'],
    ['a decimal id', '/integrations/11.5/logo.json', ['path', 'integrationid'], 'int_parsing'],
    ['an unknown image type', '/integrations/1000/banner.json', ['path', 'image_type'], 'enum'],
    ['an image type in capitals', '/integrations/1000/LOGO.json', ['path', 'image_type'], 'enum'],
  ])('.json with %s is a 422 validation error', async (_n, path, loc, type) => {
    expectValidation(await get(path), loc, type);
  });

  it.each([
    ['an unknown integration', '/integrations/999999/logo.png', 'logo'],
    ['a non-integer id', '/integrations/abc/icon.png', 'icon'],
    ['an unknown image type', '/integrations/1000/banner.png', 'banner'],
  ])('.png of %s is a 404 ServiceError', async (_n, path, type) => {
    const res = await call(s.app, 'GET', path);
    expectError(res, errors.imageNotFound(type));
  });

  it('.json needs a token', async () => {
    expectError(await call(s.app, 'GET', '/integrations/1000/logo.json'), errors.missingToken());
  });

  it('other suffixes are not routes', async () => {
    expectError(await get('/integrations/1000/logo'), errors.notFound());
    expectError(await get('/integrations/1000/logo.gif'), errors.notFound());
  });

  it('the OpenAPI document lists the image route under its real path', async () => {
    const doc = await everyOperationDocument(s.app);
    const op = doc.paths['/integrations/{integrationid}/{image_type}.json']?.get;
    expect(op?.operationId).toBe('integrations_get_integration_logo_json');
    expect(doc.paths['/integrations']?.get?.operationId).toBe('integrations_get_integrations');
    expect(doc.paths['/integrations/{integrationid}/{image_type}.png']?.get?.security).toEqual([]);
  });
});

describe('schemas of the group', () => {
  // Field lists and required flags of the reference's schemas.
  it.each([
    [
      'IntegrationItem',
      [
        'integrationid',
        'name',
        'description',
        'status',
        'api',
        'logo_url',
        'icon_url',
        'post_connections',
        'operations_coverage',
        'credentials',
        'supported_countries',
        'local_agent',
      ],
      ['integrationid', 'name', 'status', 'api', 'logo_url', 'icon_url'],
    ],
    ['LogoImage', ['integrationid', 'data'], ['integrationid', 'data']],
    [
      'IntegrationsPostConnectionItem',
      ['id', 'title', 'optional', 'resource', 'config'],
      ['id', 'title', 'optional', 'resource'],
    ],
    ['IntegrationsPostConnectionItemConfig', ['enabled', 'allow_multiple'], []],
    ['IntegrationsCredentialItem', ['name', 'optional', 'visibility'], ['name']],
    ['CoverageItem', ['operation', 'status'], ['operation', 'status']],
  ])('%s has the fields and required fields of the reference', async (name, fields, required) => {
    const ours = (await call(s.app, 'GET', '/openapi.json')).body.components.schemas[name];
    expect(Object.keys(ours.properties).sort()).toEqual([...fields].sort());
    expect([...(ours.required ?? [])].sort()).toEqual([...required].sort());
  });

  it.each([
    ['IntegationStatus', ['active', 'inactive']],
    ['BoolParam', ['true', 'false']],
    ['ImageType', ['icon', 'logo']],
    ['CoverageStatus', ['SUPPORTED', 'NOT_IMPLEMENTED', 'NOT_SUPPORTED', 'UNDER_ANALYSIS']],
    ['Visibility', ['consumer', 'connector', 'both']],
  ])('%s has the values of the reference', async (name, values) => {
    const ours = (await call(s.app, 'GET', '/openapi.json')).body.components.schemas[name];
    expect(ours.enum).toEqual(values);
  });
});
