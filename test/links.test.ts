import { describe, expect, it } from 'vitest';
import { errors } from '../src/lib/errors.js';
import { uuidFrom } from '../src/lib/ids.js';
import { LinkItem } from '../src/resources/connections/connections.schemas.js';
import { call, expectError, SEED, sandbox, sandboxToken, type TestSandbox } from './helpers.js';

/**
 * Connection links open a page without a token and complete a connection: their ids must not be
 * computable from the seed and the request count, as every other id is.
 */

interface Run {
  s: TestSandbox;
  consumerid: string;
  connectionid: string;
  linkPath: string;
  /** The ids the counter stood at while the link was minted, as the old scheme would have used them. */
  counterSteps: number[];
}

/** The same requests on a fresh app of the seed: a consumer, then a connection without credentials. */
async function connectionLink(): Promise<Run> {
  const s = sandbox();
  const token = await sandboxToken(s);
  const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Link owner' } });
  expect(consumer.status).toBe(200);
  const consumerid = consumer.body.consumerid as string;
  const meta = s.app.services.store.world.meta;
  const before = meta.sequence;
  const res = await call(s.app, 'POST', `/consumers/${consumerid}/connections`, {
    token,
    body: { integrationid: 9012 },
  });
  expect(res.status, res.text).toBe(200);
  const counterSteps = Array.from({ length: meta.sequence - before }, (_, i) => before + i + 1);
  const connectionid = Object.values(s.app.services.store.world.connections).find(
    (c) => c.consumerid === consumerid,
  )?.connectionid as string;
  return {
    s,
    consumerid,
    connectionid,
    linkPath: new URL(LinkItem.parse(res.body).url).pathname,
    counterSteps,
  };
}

describe('connection link ids', () => {
  it('differ between two apps of the same seed given the same requests; other ids do not', async () => {
    const a = await connectionLink();
    const b = await connectionLink();
    expect(a.consumerid).toBe(b.consumerid);
    expect(a.connectionid).toBe(b.connectionid);
    expect(a.counterSteps).toEqual(b.counterSteps);
    expect(a.linkPath).toMatch(
      /^\/link\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(a.linkPath).not.toBe(b.linkPath);
  });

  it('the link still opens its page and completes the connection', async () => {
    const { s, linkPath, consumerid, connectionid } = await connectionLink();
    const page = await call(s.app, 'GET', linkPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`action="${linkPath}"`);
    const done = await call(s.app, 'POST', linkPath, {
      body: { credentials: { client_id: 'id-1', client_secret: 'secret-1' } },
    });
    expect(done.body).toEqual({ status: 'active', connectionid });
    expect(s.app.services.store.world.connections[connectionid]).toMatchObject({
      consumerid,
      status: 'active',
    });
    expectError(await call(s.app, 'GET', linkPath), errors.linkNotFound());
  });

  it('an id computed the old way from the seed and the counter is not a link', async () => {
    const { s, linkPath, counterSteps } = await connectionLink();
    const guesses = counterSteps.map((step) => `/link/${uuidFrom('id', SEED, 'link', step)}`);
    expect(guesses.length).toBeGreaterThan(0);
    for (const guess of guesses) {
      expect(guess).not.toBe(linkPath);
      expectError(await call(s.app, 'GET', guess), errors.linkNotFound());
      expectError(
        await call(s.app, 'POST', guess, { body: { credentials: { client_id: 'x', client_secret: 'y' } } }),
        errors.linkNotFound(),
      );
    }
    // The guesses changed nothing: the real link is still open.
    expect((await call(s.app, 'GET', linkPath)).status).toBe(200);
  });

  it('sync links are keyed the same way', async () => {
    const links: string[] = [];
    for (let run = 0; run < 2; run += 1) {
      const s = sandbox();
      const token = await sandboxToken(s);
      const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Sync owner' } });
      const before = s.app.services.store.world.meta.sequence;
      const res = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/syncs`, {
        token,
        body: { syncid: s.ids.syncId },
      });
      expect(res.status, res.text).toBe(200);
      const linkPath = new URL(res.body.url as string).pathname;
      expect((await call(s.app, 'GET', linkPath)).status).toBe(200);
      const after = s.app.services.store.world.meta.sequence;
      for (let step = before + 1; step <= after; step += 1) {
        expectError(
          await call(s.app, 'GET', `/link/${uuidFrom('id', SEED, 'link', step)}`),
          errors.linkNotFound(),
        );
      }
      links.push(linkPath);
    }
    expect(links[0]).not.toBe(links[1]);
  });
});
