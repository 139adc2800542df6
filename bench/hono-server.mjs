// The framework's ceiling: a bare Hono app on @hono/node-server answering the bare server's JSON from
// one route with a path parameter, as the sandbox's `GET /consumers/{id}` is routed.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const body = {
  consumerid: '3f0c2a8e-5b7d-4c1e-9a6f-2d8b7e4c1a90',
  name: 'Bare server reference answer',
  email: 'bench@example.invalid',
  internal_reference: 'BENCH-0001',
  redirect_url: 'https://vendor.example/back',
};
const app = new Hono();
app.get('/consumers/:consumer_id', (c) => c.json(body));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(`http://127.0.0.1:${info.port}`),
);
