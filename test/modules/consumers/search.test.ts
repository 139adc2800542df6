import { describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken } from '../../helpers.js';

/**
 * GET /consumers?search= answers from an index of the environment's consumers: the same consumers,
 * in the same order, as testing every consumer with the rule, after creations, renames and deletions.
 */
describe('consumer search', () => {
  it('finds what the rule finds, in creation order, and follows creations, renames and deletions', async () => {
    const s = sandbox();
    const token = await sandboxToken(s);
    const api = (method: string, path: string, body?: unknown) => call(s.app, method, path, { token, body });
    const names = ['Alpha Trading', 'ALPHABET soup', 'Beta alp', 'Gamma', 'delta-ALP-ha'];
    const ids: string[] = [];
    for (const name of names) ids.push((await api('POST', '/consumers', { name })).body.consumerid);

    const all = (await api('GET', '/consumers')).body as {
      consumerid: string;
      name: string;
      email: string | null;
      internal_reference: string | null;
    }[];
    const byRule = (text: string) =>
      all
        .filter((c) =>
          [c.name, c.email, c.internal_reference].some((f) => f?.toLowerCase().includes(text.toLowerCase())),
        )
        .map((c) => c.consumerid);
    const search = async (text: string) =>
      (
        (await api('GET', `/consumers?search=${encodeURIComponent(text)}`)).body as { consumerid: string }[]
      ).map((c) => c.consumerid);

    for (const text of ['alp', 'ALPHA', 'a', 'soup', 'finance@', 'CUST-', 'zzz-nothing', 'ha\u0000', 'Ω']) {
      expect(await search(text), text).toEqual(byRule(text));
    }
    expect(await search('alpha')).toEqual([ids[0], ids[1]]);

    // A text that would span two fields matches nothing.
    expect(await search('gammanull')).toEqual([]);

    await api('PATCH', `/consumers/${ids[3]}`, { name: 'Renamed Alphaville' });
    expect(await search('alpha')).toEqual([ids[0], ids[1], ids[3]]);
    expect(await search('gamma')).toEqual([]);

    const late = (await api('POST', '/consumers', { name: 'Late alpha' })).body.consumerid as string;
    expect(await search('alpha')).toEqual([ids[0], ids[1], ids[3], late]);

    expect((await api('DELETE', `/consumers/${ids[1]}`)).status).toBe(204);
    expect(await search('alpha')).toEqual([ids[0], ids[3], late]);
  });

  it('a restricted key finds only its consumers', async () => {
    const s = sandbox();
    const mine = s.ids.restricted.consumerId;
    const world = s.app.services.store.world;
    // A text the restricted consumer shares with others: its e-mail domain's top level.
    const text = '.example';
    const everyone = await call(s.app, 'GET', `/consumers?search=${text}`, { token: await sandboxToken(s) });
    expect((everyone.body as unknown[]).length).toBeGreaterThan(1);
    expect(world.consumers[mine]?.email).toContain(text);
    const res = await call(s.app, 'POST', '/token', {
      body: { accountId: s.ids.accountId, ...s.ids.restricted },
    });
    const found = await call(s.app, 'GET', `/consumers?search=${text}`, { token: res.body.access_token });
    expect((found.body as { consumerid: string }[]).map((c) => c.consumerid)).toEqual([mine]);
  });
});
