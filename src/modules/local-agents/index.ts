import type { OpenAPIHono, RouteHandler } from '@hono/zod-openapi';
import { readFixture } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import * as routes from './local-agents.routes.js';
import type { ReleaseItemOut } from './local-agents.schemas.js';

interface ReleasesFixture {
  downloadBase: string;
  releases: Record<string, { version: string; fileName: string }[]>;
}

let fixture: ReleasesFixture | undefined;

/** The releases of a connector (fixtures/local-agent-releases.json), newest first. */
export function releasesOf(connector: string): ReleaseItemOut[] {
  fixture ??= readFixture<ReleasesFixture>('local-agent-releases.json');
  const base = fixture.downloadBase;
  const key = connector === 'cockpit' ? connector : String(Number(connector));
  return (fixture.releases[key] ?? []).map((r) => ({
    fileName: r.fileName,
    version: r.version,
    downloadUrl: `${base}/${key}/${r.version}/${r.fileName}`,
  }));
}

const getReleases: RouteHandler<typeof routes.getReleases, AppEnv> = (c) =>
  c.json(releasesOf(c.req.valid('query').connector), 200);

/** GET /local-agents/releases: the small fixture list of releases of the local agent. */
export function registerLocalAgents(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getReleases, getReleases);
}
