// The framework's ceiling: a bare Hono app on @hono/node-server answering the bare server's JSON from
// one route with a path parameter, as the sandbox's `GET /consumers/{id}` is routed.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { REFERENCE_ANSWER } from './reference-answer.mjs';

const body = REFERENCE_ANSWER;
const app = new Hono();
app.get('/consumers/:consumer_id', (c) => c.json(body));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log(`http://127.0.0.1:${info.port}`),
);
