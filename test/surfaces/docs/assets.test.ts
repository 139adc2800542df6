import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { builtFiles, SWAGGER_UI_ASSETS, swaggerUiPackageFolder } from '../../../src/surfaces/docs/built.js';
import { sandbox } from '../../helpers.js';

/**
 * Swagger UI's files for /docs: from the sources, the swagger-ui-dist dev dependency's own (the
 * package serves the copy the build puts in dist/swagger-ui/: test/entry/package.test.ts).
 */
describe('/docs/assets', () => {
  it.each(Object.entries(SWAGGER_UI_ASSETS))('serves %s, with its content type', async (name, type) => {
    const res = await sandbox().app.request(`/docs/assets/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(readFileSync(join(swaggerUiPackageFolder(), name)))).toBe(true);
  });

  it.each([['LICENSE'], ['index.html'], ['swagger-ui-bundle.js.map'], ['package.json']])(
    'answers 404 for %s, a file of the folder it does not serve',
    async (name) => {
      const res = await sandbox().app.request(`/docs/assets/${name}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(errors.notFound().toBody());
    },
  );

  it("reads no build from the sources: a build's files count only in a folder named dist", () => {
    expect(builtFiles('swagger-ui')).toEqual([]);
  });
});
