import { describe, expect, it } from 'vitest';
import { errors } from '../../src/lib/errors.js';
import { call, expectError, sandbox, tokenFor } from '../helpers.js';

/**
 * A client request id is recorded only against a connection the caller owns: another account that
 * sends a write naming a victim's connection under its own consumer gets 404, and the victim's
 * connection keeps no trace of it.
 */
describe('client request ids across accounts', () => {
  it("another account's write naming a victim's connection records nothing there", async () => {
    const s = sandbox();
    const victimToken = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
    const attackerToken = await tokenFor(s.app, s.ids.otherAccount);
    const victim = s.ids.verticalConsumers.ACCOUNTING as string;
    const world = s.app.services.store.world;
    const victimConnection = Object.values(world.connections).find((c) => c.consumerid === victim)
      ?.connectionid as string;
    const attacker = s.ids.otherAccountConsumerId;

    const attack = await call(s.app, 'PATCH', `/consumers/${attacker}/connections/${victimConnection}`, {
      token: attackerToken,
      body: { name: 'Attacker route' },
      headers: { 'x-chift-client-requestid': 'R' },
    });
    expect(attack.status).toBe(404);
    expect(Object.keys(world.transactions).filter((key) => key.endsWith(':R'))).toEqual([]);

    const lookup = await call(
      s.app,
      'GET',
      `/consumers/${victim}/connections/${victimConnection}/transactions?client_request_id=R`,
      { token: victimToken },
    );
    expectError(lookup, errors.transactionNotFound());

    // The victim's own write with R is recorded, and a repeat of it is answered from the record.
    const own = () =>
      call(s.app, 'PATCH', `/consumers/${victim}/connections/${victimConnection}`, {
        token: victimToken,
        body: {},
        headers: { 'x-chift-client-requestid': 'R' },
      });
    const first = await own();
    const again = await own();
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const recorded = await call(
      s.app,
      'GET',
      `/consumers/${victim}/connections/${victimConnection}/transactions?client_request_id=R`,
      { token: victimToken },
    );
    expect(recorded.status).toBe(200);
    expect(recorded.body.route).toBe(`/consumers/${victim}/connections/${victimConnection}`);
  });
});
