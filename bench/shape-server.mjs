// The floor of the sandbox's shape: a Hono app routed and chained as the sandbox's authenticated read
// is (a TrieRouter holding as many routes, three middlewares in front of every route, the route's
// token check and its path parameter's zod validation), each step doing nothing, answering the bare
// server's JSON. What the sandbox costs beyond it is its own work.
// node bench/shape-server.mjs [routes]
import { serve } from '@hono/node-server';
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { TrieRouter } from 'hono/router/trie-router';
import { REFERENCE_ANSWER } from './reference-answer.mjs';

const ROUTES = Number(process.argv[2] ?? 500);
const body = REFERENCE_ANSWER;
const app = new OpenAPIHono({ router: new TrieRouter() });
// The request policy (reads the Host), the journal's step (around the route), the services.
app.use('*', async (c, next) => {
  if (c.req.header('host') === undefined) return c.json({}, 400);
  await next();
});
app.use('*', async (_c, next) => {
  await next();
});
app.use('*', (c, next) => {
  c.set('services', body);
  return next();
});
for (let i = 1; i < ROUTES; i++) app.get(`/r${i}/:id/x${i}`, (c) => c.json({}));
const read = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}',
  request: { params: z.object({ consumer_id: z.string() }) },
  responses: { 200: { description: 'The consumer' } },
});
const authenticate = async (c, next) => {
  if (!c.req.header('authorization')) return c.json({}, 401);
  await next();
};
app.openapi({ ...read, middleware: [authenticate] }, (c) => c.json(body));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(`http://127.0.0.1:${info.port}`),
);
