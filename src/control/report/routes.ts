import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { REPORT_BUDGET } from '../../lib/budgets.js';
import { errors } from '../../lib/errors.js';
import { type GuideLink, guideUrlAt } from '../../lib/guides.js';
import { readFixture } from '../../platform/catalogue.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { errorResponses } from '../../platform/openapi.js';
import { publicOrigin } from '../../platform/urls.js';
import { admin } from '../sandbox.routes.js';
import { type ReadinessReport, readinessReport } from './analyse.js';
import { parseFailOn, toJUnit, toMarkdown } from './format.js';
import { docsOf } from './kinds.js';
import { type OperationIndex, operationIndex, type PublishedBodies } from './operations.js';
import { ReportQuery, ReportSchema, tags } from './schemas.js';

export const getReport = createRoute({
  method: 'get',
  path: '/__sandbox/report',
  operationId: 'sandbox_get_report',
  tags,
  summary:
    "The integration readiness report of the world's client: what it did, and what it will meet in production",
  ...admin,
  request: { query: ReportQuery },
  responses: {
    200: {
      description: 'The report: JSON, or Markdown (text/markdown), or JUnit XML (application/xml)',
      content: {
        'application/json': { schema: ReportSchema },
        'text/markdown': { schema: { type: 'string' } },
        'application/xml': { schema: { type: 'string' } },
      },
    },
    ...errorResponses([400, 401, 422]),
  },
});

declare module '../../platform/context.js' {
  interface Services {
    /**
     * The texts of the published document and of the sandbox's own (set by the docs surface): the
     * readiness report matches requests to their operations.
     */
    servedDocuments?: () => { service: string; sandbox: string };
  }
}

let bodies: PublishedBodies | undefined;
/** The published document's request bodies (read once per process). */
export const publishedBodies = (): PublishedBodies =>
  (bodies ??= readFixture<PublishedBodies>('published-bodies.json'));

/** The operation index of the last document read (one per app and set of routes). */
let indexed: { texts: { service: string; sandbox: string }; index: OperationIndex } | undefined;

function indexOf(services: Services): OperationIndex {
  const texts = services.servedDocuments?.() ?? { service: '{}', sandbox: '{}' };
  if (indexed?.texts.service !== texts.service || indexed.texts.sandbox !== texts.sandbox) {
    indexed = {
      texts,
      index: operationIndex(JSON.parse(texts.service), JSON.parse(texts.sandbox), publishedBodies()),
    };
  }
  return indexed.index;
}

/**
 * The report with each finding's docs link made by `link` (the report links the guides' paths, as
 * served by the server that made it: `/guides/readiness#kind`): the absolute url of a server, or the
 * guide's file where no server runs.
 */
export const withGuideLinks = (report: ReadinessReport, link: GuideLink): ReadinessReport => ({
  ...report,
  findings: report.findings.map((finding) => ({ ...finding, docs: docsOf(finding.kind, link) })),
});

/**
 * The report of what `services` saw, optionally about one consumer or connection; its docs links are
 * made by `guides` when given (the server's absolute urls), else the guides' paths.
 */
export function reportOf(
  services: Services,
  consumerId?: string,
  connectionId?: string,
  guides?: GuideLink,
): Promise<ReadinessReport> {
  if (!services.requests.keeps) throw errors.reportNeedsJournal();
  // Its budget (lib/budgets.ts): refused before any of the journal is read.
  const held = services.requests.size;
  if (held > REPORT_BUDGET.records) {
    const most = REPORT_BUDGET.records.toLocaleString('en-US');
    throw errors.overBudget(
      'The readiness report',
      `${most} requests`,
      `The journal holds ${held.toLocaleString('en-US')} requests: empty it (DELETE /__sandbox/requests) and run the client again, or keep at most ${most} (--request-journal)`,
    );
  }
  const controlCalls = services.requests.controlCalls();
  const now = services.clock.now();
  // The journal is decoded in slices, other requests answered between them.
  return services.requests.recordsInSlices().then((records) =>
    readinessReport({
      records,
      controlCalls,
      operations: indexOf(services),
      areas: new Set(services.verticals.map((module) => module.key)),
      world: services.store.world,
      catalogue: services.catalogue,
      now,
      consumerId,
      connectionId,
      scrubber: services.requests.scrubber,
    }).then((report) => (guides ? withGuideLinks(report, guides) : report)),
  );
}

export function registerReportControl(app: OpenAPIHono<AppEnv>, services: Services): void {
  app.openapi(getReport, async (c) => {
    const { consumer_id, connection_id, format, fail_on } = c.req.valid('query');
    const failOn = parseFailOn(fail_on);
    // Its links are absolute: the report is read away from the server (a CI log, a file).
    const guides = guideUrlAt(publicOrigin(c.get('config'), c.req.url));
    const report = await reportOf(services, consumer_id, connection_id, guides);
    if (format === 'markdown')
      return c.body(toMarkdown(report), 200, { 'content-type': 'text/markdown; charset=utf-8' });
    if (format === 'junit')
      return c.body(toJUnit(report, failOn), 200, { 'content-type': 'application/xml; charset=utf-8' });
    return c.json(report, 200);
  });
}
