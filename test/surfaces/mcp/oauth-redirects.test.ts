import { describe, expect, it } from 'vitest';
import { oauthMessages } from '../../../src/surfaces/mcp/oauth.domain.js';
import { html } from '../../../src/surfaces/mcp/oauth.pages.js';
import { sandboxToken, tokenFor } from '../../helpers.js';
import { servedPerTest } from './helpers.js';
import { hiddenFields, post, rawClient, signIn } from './oauth-helpers.js';

/**
 * Registration is open: anyone may register a client with any https redirect uri. So a registered
 * redirect uri proves nothing about who will follow a link to the authorization page, and an error
 * is sent back to it only for a client registered by the account the user signed in with; any
 * other error is shown as a page (RFC 6749 section 4.1.2.1 shows the errors about the client that
 * way; here no client is trusted before the user is known).
 */

const served = servedPerTest();
const EVIL = 'https://evil.example/landing';

/** The authorization url of a client, with some parameters changed (null: left out). */
function variant(authorize: URL, changes: Record<string, string | null>): URL {
  const url = new URL(authorize);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  return url;
}

describe('MCP OAuth: no redirect to a uri nobody vouches for', () => {
  it('an error of the authorization request is a page, never a redirect, whoever registered the client', async () => {
    const s = await served();
    const anonymous = await rawClient(s.url, { redirect: EVIL });
    const ofTheAccount = await rawClient(s.url, { redirect: EVIL, token: await sandboxToken(s) });
    const cases: [Record<string, string | null>, string][] = [
      [{ response_type: 'x' }, oauthMessages.responseTypeUnsupported],
      [{ response_type: null }, oauthMessages.responseTypeUnsupported],
      [{ code_challenge: null }, oauthMessages.pkceRequired],
      [{ code_challenge_method: 'plain' }, oauthMessages.pkceRequired],
      [
        { resource: 'https://elsewhere.example/mcp' },
        oauthMessages.resourceInvalid('https://elsewhere.example/mcp'),
      ],
    ];
    for (const { authorize } of [anonymous, ofTheAccount]) {
      for (const [changes, message] of cases) {
        const res = await fetch(variant(authorize, changes), { redirect: 'manual' });
        const what = JSON.stringify(changes);
        expect(res.status, what).toBe(400);
        expect(res.headers.get('location'), what).toBeNull();
        expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
        expect(await res.text(), what).toContain(html(message));
      }
      // The sign-in form's post is held to the same rule.
      const page = await fetch(authorize);
      const fields = hiddenFields(await page.text()).filter(([name]) => name !== 'code_challenge');
      const signedIn = await post(s.url, [...fields, ...signIn(s)]);
      expect(signedIn.status).toBe(400);
      expect(signedIn.location).toBeNull();
      expect(signedIn.html).toContain(oauthMessages.pkceRequired);
    }
  });

  it('a denial goes back only to a client the signed-in account registered; to any other it is a page', async () => {
    const s = await served();
    const other = await tokenFor(s.app, s.ids.otherAccount);
    const clients = {
      anonymous: await rawClient(s.url, { redirect: EVIL }),
      'another account': await rawClient(s.url, { redirect: EVIL, token: other }),
      'the same account': await rawClient(s.url, { redirect: EVIL, token: await sandboxToken(s) }),
    };
    const answers: Record<string, string | null> = {};
    for (const [who, { authorize }] of Object.entries(clients)) {
      const consent = await post(s.url, [
        ...hiddenFields(await (await fetch(authorize)).text()),
        ...signIn(s),
      ]);
      expect(consent.status, who).toBe(200);
      const denied = await post(s.url, [...hiddenFields(consent.html), ['action', 'deny']]);
      if (denied.location === null) {
        expect(denied.status, who).toBe(200);
        expect(denied.html, who).toContain(oauthMessages.denied);
      }
      answers[who] = denied.location && new URL(denied.location).searchParams.get('error');
    }
    expect(answers).toEqual({
      anonymous: null,
      'another account': null,
      'the same account': 'access_denied',
    });
  });

  it('an approval still gives the code to the redirect uri the client registered', async () => {
    const s = await served();
    const { authorize } = await rawClient(s.url, { redirect: EVIL });
    const consent = await post(s.url, [...hiddenFields(await (await fetch(authorize)).text()), ...signIn(s)]);
    // The consent page says where the code goes.
    expect(consent.html).toContain(html(EVIL));
    const done = await post(s.url, [
      ...hiddenFields(consent.html),
      ['consumer_id', s.ids.verticalConsumers.ACCOUNTING as string],
      ['scope', 'consumers.read'],
      ['action', 'approve'],
    ]);
    expect(done.status).toBe(302);
    const back = new URL(done.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(EVIL);
    expect(back.searchParams.get('code')).toBeTruthy();
  });
});
