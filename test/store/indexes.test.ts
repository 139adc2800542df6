import { describe, expect, it } from 'vitest';
import { connectionsOfConsumer, consumersOfEnvironment } from '../../src/store/indexes.js';
import { call, sandbox, sandboxToken } from '../helpers.js';

/** The secondary indexes agree with a full scan of the world after every kind of change. */
describe('indexes', () => {
  it('follow creations, deletions and resets made through the API', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const world = () => s.app.services.store.world;
    const check = () => {
      const { accountId, sandboxEnvId } = s.ids;
      const scanned = Object.values(world().consumers).filter(
        (c) => c.accountid === accountId && c.envid === sandboxEnvId,
      );
      expect(
        consumersOfEnvironment(world(), accountId, sandboxEnvId)
          .map((c) => c.consumerid)
          .sort(),
      ).toEqual(scanned.map((c) => c.consumerid).sort());
      for (const consumer of scanned) {
        const connections = Object.values(world().connections).filter(
          (c) => c.consumerid === consumer.consumerid,
        );
        expect(
          connectionsOfConsumer(world(), consumer.consumerid)
            .map((c) => c.connectionid)
            .sort(),
        ).toEqual(connections.map((c) => c.connectionid).sort());
      }
    };
    check();
    const created = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Indexed' } });
    const id = created.body.consumerid as string;
    await call(s.app, 'POST', `/consumers/${id}/connections`, {
      token,
      body: { integrationid: 7010, credentials: [{ key: 'api_token', value: 't' }] },
    });
    check();
    const [connection] = connectionsOfConsumer(world(), id);
    await call(s.app, 'DELETE', `/consumers/${id}/connections/${connection?.connectionid}`, { token });
    check();
    await call(s.app, 'DELETE', `/consumers/${s.ids.verticalConsumers.POS}`, { token });
    check();
    await call(s.app, 'POST', '/__sandbox/reset');
    check();
    expect(
      consumersOfEnvironment(world(), s.ids.accountId, s.ids.sandboxEnvId).some((c) => c.consumerid === id),
    ).toBe(false);
  });
});
