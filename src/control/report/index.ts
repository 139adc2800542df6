/**
 * The integration readiness report: what a world's client did (the request journal, its tokens, the
 * webhook deliveries to it) and what it will meet in production, as findings.
 *
 * - kinds.ts: every kind of finding, its severity and advice, once;
 * - operations.ts: the published operations, matched to requests, and unknown body fields;
 * - analyse.ts: the report, a pure function of what it is handed, made of readings: tokens.ts (the
 *   client's tokens), traffic.ts (errors and reactions, paging, writes), coverage.ts (routes,
 *   coverage, webhooks), over the calls of calls.ts;
 * - format.ts: Markdown, JUnit, and which findings fail a run;
 * - schemas.ts and routes.ts: GET /__sandbox/report.
 */
export * from './analyse.js';
export * from './format.js';
export * from './kinds.js';
export {
  type Operation,
  type OperationIndex,
  operationIndex,
  type PublishedBodies,
  unknownFields,
} from './operations.js';
export * from './routes.js';
export * from './schemas.js';
