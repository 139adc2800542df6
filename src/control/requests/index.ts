/**
 * The request journal: every request the API answers, kept in a ring of the app's (in memory, never
 * in the world), its capture on the request's path, and its control endpoints.
 *
 * - records.ts: what a recorded request keeps (scrubbed: platform/scrub.ts) and its wire shape;
 * - paths.ts: which paths carry credentials (their bodies never stored), which consumer a path names;
 * - journal.ts: the ring of records; rows.ts: how a record is held in it; queries.ts: its filters;
 * - requests-file.ts: the journal written beside a world file when the sandbox stops, and read back;
 * - capture.ts: the middleware that records each request (and lets an armed fault answer it);
 * - schemas.ts and routes.ts: GET and DELETE /__sandbox/requests.
 */
export * from './capture.js';
export * from './journal.js';
export * from './paths.js';
export * from './records.js';
export * from './requests-file.js';
export * from './routes.js';
