import { describe, expect, it } from 'vitest';
import { errors, messages } from '../../../src/lib/errors.js';
import { uuidFrom } from '../../../src/lib/ids.js';
import {
  ConnectionItem,
  LinkCompleted,
  LinkItem,
} from '../../../src/modules/connections/connections.schemas.js';
import { acceptsHtml } from '../../../src/modules/connections/link-page.js';
import { IntegrationItem } from '../../../src/modules/integrations/integrations.schemas.js';
import {
  type CallOptions,
  type CallResult,
  call,
  everyOperationDocument,
  expectError,
  formTarget,
  SEED,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

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
    expect(formTarget(page.text, `http://localhost${linkPath}`)).toBe(`http://localhost${linkPath}`);
    const done = await call(s.app, 'POST', linkPath, {
      body: {
        credentials: { client_id: 'id-1', client_secret: 'secret-1' },
        post_connections: { location: 'location-1' },
      },
    });
    expect(done.body).toEqual({ status: 'active', connectionid });
    expect(s.app.services.store.world.connections[connectionid]).toMatchObject({
      consumerid,
      status: 'active',
    });
    expectError(await call(s.app, 'GET', linkPath), errors.linkNotFound());
  });

  it('the form posts back to the url the link names, under the path prefix of a public url', async () => {
    // A router in front of the process serves it under /p1/ and strips the prefix on the way in.
    const s = sandbox({ publicUrl: 'http://router.test/p1' });
    const token = await sandboxToken(s);
    const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: 'Routed' } });
    const res = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
      token,
      body: { integrationid: 9012 },
    });
    const { url } = LinkItem.parse(res.body);
    expect(url).toMatch(/^http:\/\/router\.test\/p1\/link\/[0-9a-f-]{36}$/);
    const page = await call(s.app, 'GET', new URL(url).pathname.slice('/p1'.length));
    expect(page.status).toBe(200);
    expect(formTarget(page.text, url)).toBe(url);
  });

  it('a script completing the link without post connections gets placeholders; an empty value is refused', async () => {
    const { s, linkPath, connectionid } = await connectionLink();
    const credentials = { client_id: 'id-1', client_secret: 'secret-1' };
    expectError(
      await call(s.app, 'POST', linkPath, { body: { credentials, post_connections: { location: ' ' } } }),
      errors.missingPostConnection("Missing or empty: 'location'"),
    );
    expect(s.app.services.store.world.connections[connectionid]?.status).toBe('inactive');
    const done = await call(s.app, 'POST', linkPath, { body: { credentials } });
    expect(done.body).toEqual({ status: 'active', connectionid });
    expect(s.app.services.store.world.connections[connectionid]?.post_connections).toEqual({
      location: 'locations-1',
    });
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

// ---------------------------------------------------------------------------------------------
// The page itself: logo, post connections, and what a browser sees of a refusal.

/** What a browser sends when it opens a page or submits its form. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const browserForm = (fields: Record<string, string>, accept = BROWSER_ACCEPT): CallOptions => ({
  rawBody: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
});

const escaped = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[ch]};`);

/** The options of the select named `field` on a page: value and label. */
function selectOptions(html: string, field: string): { value: string; label: string }[] {
  const start = html.indexOf(`<select id="${field}"`);
  expect(start, `no select ${field}`).toBeGreaterThanOrEqual(0);
  const select = html.slice(start, html.indexOf('</select>', start));
  return [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => ({
    value: m[1] ?? '',
    label: m[2] ?? '',
  }));
}

interface Fixture {
  s: TestSandbox;
  token: string;
  consumerid: string;
  api: (method: string, path: string, options?: CallOptions) => Promise<CallResult>;
  /** POST connections; the link's path and the connection it made, if any. */
  link: (body: unknown) => Promise<{ linkPath: string; connectionid: string | null }>;
}

async function fixture(): Promise<Fixture> {
  const s = sandbox();
  const token = await sandboxToken(s);
  const api = (method: string, path: string, options: CallOptions = {}) =>
    call(s.app, method, path, { token, ...options });
  const consumer = await api('POST', '/consumers', { body: { name: 'Café <Léa>' } });
  expect(consumer.status).toBe(200);
  const consumerid = consumer.body.consumerid as string;
  const link = async (body: unknown) => {
    const before = new Set(Object.keys(s.app.services.store.world.connections));
    const res = await api('POST', `/consumers/${consumerid}/connections`, { body });
    expect(res.status, res.text).toBe(200);
    const created = Object.keys(s.app.services.store.world.connections).filter((id) => !before.has(id));
    return { linkPath: new URL(LinkItem.parse(res.body).url).pathname, connectionid: created[0] ?? null };
  };
  return { s, token, consumerid, api, link };
}

describe('the page of a connection link', () => {
  it.each([
    ['a browser', BROWSER_ACCEPT, true],
    ['text/html alone', 'text/html', true],
    ['text/html among others, weighted', 'application/json, text/html;q=0.5', true],
    ['text/html refused', 'text/html;q=0, application/json', false],
    ['text/html refused with decimals', 'text/html; q=0.000', false],
    ['anything (*/*)', '*/*', false],
    ['JSON', 'application/json', false],
    ['no Accept', undefined, false],
    ['an empty Accept', '', false],
  ])('acceptsHtml: %s', (_n, accept, expected) => {
    expect(acceptsHtml(accept)).toBe(expected);
  });

  it("shows the integration's logo as GET /integrations gives it, served by the sandbox", async () => {
    const f = await fixture();
    const { linkPath } = await f.link({ integrationid: 9012 });
    const integrations = await f.api('GET', '/integrations');
    const zelty = (integrations.body as unknown[])
      .map((item) => IntegrationItem.parse(item))
      .find((i) => i.integrationid === 9012);
    expect(zelty?.logo_url).toMatch(/^http:\/\/localhost\/integrations\/9012\/logo\.png$/);
    const page = await call(f.s.app, 'GET', linkPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<img class="logo" src="${zelty?.logo_url}" alt="Zelty logo"`);
    // Every asset of the page is the sandbox's own.
    const assets = [...page.text.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(assets).toEqual([zelty?.logo_url]);
    const image = await f.s.app.request(new URL(zelty?.logo_url ?? '').pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('a choice link shows the logo of each integration that has one, loaded when chosen', async () => {
    const f = await fixture();
    const { linkPath } = await f.link({ apis: ['Accounting'] });
    const page = await call(f.s.app, 'GET', linkPath);
    expect(page.text).toContain(
      '<img class="logo" src="http://localhost/integrations/1000/logo.png" alt="Odoo logo" width="64" height="64" loading="lazy">',
    );
  });

  it('asks for each mandatory post connection, a select of the journals of the seeded ledger', async () => {
    const f = await fixture();
    const { linkPath, connectionid } = await f.link({ integrationid: 1000 });
    const page = await call(f.s.app, 'GET', linkPath);
    expect(page.text).toContain(
      '<label for="post_connection:1000:default_journal">Journal used for created invoices',
    );
    // The optional post connection is not asked.
    expect(page.text).not.toContain('analytic_plans');
    const options = selectOptions(page.text, 'post_connection:1000:default_journal');
    expect(options[0]).toEqual({ value: '', label: 'Choose...' });
    expect(page.text).toMatch(/<select id="post_connection:1000:default_journal" [^>]*required>/);
    const chosen = options.find((o) => o.label === 'VEN Sales');
    expect(chosen).toBeDefined();

    const done = await call(
      f.s.app,
      'POST',
      linkPath,
      browserForm({
        integrationid: '1000',
        'credential:1000:api_key': 'k',
        'credential:1000:company_code': 'C1',
        'post_connection:1000:default_journal': chosen?.value ?? '',
      }),
    );
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Connected');
    const world = f.s.app.services.store.world;
    expect(world.connections[connectionid ?? '']).toMatchObject({
      status: 'active',
      credentials: { api_key: 'k', company_code: 'C1' },
      post_connections: { default_journal: chosen?.value },
    });
    // The choices were the journals the accounting API lists for the connection.
    const journals = await f.api('GET', `/consumers/${f.consumerid}/accounting/journals`);
    expect(journals.status, journals.text).toBe(200);
    expect((journals.body.items as { id: string }[]).map((j) => j.id).sort()).toEqual(
      options
        .slice(1)
        .map((o) => o.value)
        .sort(),
    );
  });

  it('the locations of a point of sale connection; a link without a connection asks for text', async () => {
    const f = await fixture();
    const { linkPath } = await f.link({ integrationid: 9012 });
    const page = await call(f.s.app, 'GET', linkPath);
    const options = selectOptions(page.text, 'post_connection:9012:location').slice(1);
    expect(options.length).toBeGreaterThan(0);
    const done = await call(f.s.app, 'POST', linkPath, {
      body: {
        credentials: { client_id: 'i', client_secret: 's' },
        post_connections: { location: options[0]?.value },
      },
    });
    expect(done.status, done.text).toBe(200);
    const locations = await f.api('GET', `/consumers/${f.consumerid}/pos/locations`);
    expect(locations.status, locations.text).toBe(200);
    expect((locations.body.items as { id: string }[]).map((l) => l.id)).toEqual(options.map((o) => o.value));

    const other = await fixture();
    const choice = await other.link({ apis: ['Point of Sale'] });
    const choicePage = await call(other.s.app, 'GET', choice.linkPath);
    expect(choicePage.text).toContain(
      '<input id="post_connection:9012:location" name="post_connection:9012:location" type="text" autocomplete="off">',
    );
  });

  it('starts from the values the connection holds', async () => {
    const f = await fixture();
    const { linkPath } = await f.link({
      integrationid: 1000,
      post_connections: [{ key: 'default_journal', value: 'journal-kept' }],
    });
    const page = await call(f.s.app, 'GET', linkPath);
    expect(page.text).toContain('<option value="journal-kept" selected>journal-kept</option>');
    // JSON clients may leave them out: the connection's values stand.
    const done = await call(f.s.app, 'POST', linkPath, {
      body: { credentials: { api_key: 'k', company_code: 'c' } },
    });
    expect(LinkCompleted.parse(done.body).status).toBe('active');
    const connection = f.s.app.services.store.world.connections[done.body.connectionid];
    expect(connection?.post_connections).toEqual({ default_journal: 'journal-kept' });
  });

  it('stores the post connections exactly as PATCH connections does', async () => {
    const viaLink = await fixture();
    const viaPatch = await fixture();
    const a = await viaLink.link({ integrationid: 9012 });
    const b = await viaPatch.link({ integrationid: 9012 });
    const credentials = { client_id: 'i', client_secret: 's' };
    const done = await call(viaLink.s.app, 'POST', a.linkPath, {
      body: { credentials, post_connections: { location: 'loc-9' } },
    });
    expect(done.status, done.text).toBe(200);
    const patched = await viaPatch.api(
      'PATCH',
      `/consumers/${viaPatch.consumerid}/connections/${b.connectionid}`,
      {
        body: {
          credentials: Object.entries(credentials).map(([key, value]) => ({ key, value })),
          post_connections: [{ key: 'location', value: 'loc-9' }],
        },
      },
    );
    expect(patched.status, patched.text).toBe(200);
    const stored = (f: Fixture, id: string | null) => {
      const {
        post_connections,
        credentials: creds,
        status,
      } = f.s.app.services.store.world.connections[id ?? ''] ?? {};
      return { post_connections, credentials: creds, status };
    };
    expect(stored(viaLink, a.connectionid)).toEqual(stored(viaPatch, b.connectionid));
    expect(stored(viaLink, a.connectionid).post_connections).toEqual({ location: 'loc-9' });
  });

  it.each([
    ['left out', {}],
    ['empty', { 'post_connection:9012:location': '  ' }],
  ])(
    'a mandatory post connection %s: a browser gets the form again with the message, nothing is written',
    async (_n, extra) => {
      const f = await fixture();
      const { linkPath, connectionid } = await f.link({ integrationid: 9012 });
      const world = f.s.app.services.store.world;
      const before = JSON.stringify({ connections: world.connections, links: world.links });
      const fields = {
        integrationid: '9012',
        'credential:9012:client_id': 'typed <id>',
        'credential:9012:client_secret': 'typed-secret',
        ...extra,
      };
      const res = await call(f.s.app, 'POST', linkPath, browserForm(fields));
      const error = errors.missingPostConnection("Missing or empty: 'location'");
      expect(res.status).toBe(error.status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain(`<div class="error" role="alert"><p>${escaped(error.message)}</p>`);
      expect(res.text).toContain(escaped(error.detail));
      expect(formTarget(res.text, `http://localhost${linkPath}`)).toBe(`http://localhost${linkPath}`);
      // What was typed is kept, but never a secret.
      expect(res.text).toContain('value="typed &lt;id&gt;"');
      expect(res.text).not.toContain('typed-secret');
      expect(selectOptions(res.text, 'post_connection:9012:location').length).toBeGreaterThan(1);
      expect(JSON.stringify({ connections: world.connections, links: world.links })).toBe(before);
      expect(world.connections[connectionid ?? '']?.status).toBe('inactive');

      // An API client posting the same form gets the JSON refusal.
      expectError(await call(f.s.app, 'POST', linkPath, browserForm(fields, '*/*')), error);
      expect((await call(f.s.app, 'GET', linkPath)).status).toBe(200);
    },
  );

  it('a choice link refused for a browser shows the choice again, the chosen integration selected', async () => {
    const f = await fixture();
    const { linkPath } = await f.link({ apis: ['Point of Sale'] });
    const res = await call(
      f.s.app,
      'POST',
      linkPath,
      browserForm({ integrationid: '9012', 'credential:9012:client_id': 'x' }),
    );
    expect(res.status).toBe(400);
    expect(res.text).toContain(escaped(messages.missingCredential));
    expect(res.text).toContain('<option value="9012" selected>');
    expect(
      Object.values(f.s.app.services.store.world.connections).filter((c) => c.consumerid === f.consumerid),
    ).toEqual([]);
  });

  /** A used link, an unknown one: GET and a form POST. */
  async function deadLinks(f: Fixture): Promise<[string, string][]> {
    const { linkPath } = await f.link({ integrationid: 7010 });
    const done = await call(f.s.app, 'POST', linkPath, { body: { credentials: { api_token: 't' } } });
    expect(done.status).toBe(200);
    return [
      ['a used link', linkPath],
      ['an unknown link', `/link/${uuidFrom('id', SEED, 'link', 1)}`],
      ['a malformed link id', '/link/<script>'],
    ];
  }

  it("a browser gets a used or unknown link as a page with the JSON answer's message and status", async () => {
    const f = await fixture();
    const error = errors.linkNotFound();
    for (const [label, path] of await deadLinks(f)) {
      for (const [method, options] of [
        ['GET', { headers: { accept: BROWSER_ACCEPT } }],
        ['POST', browserForm({ 'credential:7010:api_token': 't' })],
      ] as const) {
        const res = await call(f.s.app, method, path, options);
        expect(res.status, `${label} ${method}`).toBe(error.status);
        expect(res.headers.get('content-type'), `${label} ${method}`).toMatch(/^text\/html/);
        expect(res.text).toContain(`<div class="error" role="alert"><p>${escaped(error.message)}</p></div>`);
        expect(res.text).not.toContain('<script');
      }
    }
  });

  it('API clients keep the JSON answer of a used or unknown link', async () => {
    const f = await fixture();
    for (const [label, path] of await deadLinks(f)) {
      for (const accept of [undefined, '*/*', 'application/json']) {
        const headers: Record<string, string> = accept ? { accept } : {};
        const get = await call(f.s.app, 'GET', path, { headers });
        expect(get.headers.get('content-type'), label).toMatch(/^application\/json/);
        expectError(get, errors.linkNotFound());
        expectError(
          await call(f.s.app, 'POST', path, { headers, body: { credentials: { api_token: 't' } } }),
          errors.linkNotFound(),
        );
      }
    }
  });

  it('the OpenAPI document declares the pages beside the JSON refusals', async () => {
    const { s } = await fixture();
    const doc = await everyOperationDocument(s.app);
    const link = doc.paths['/link/{linkid}'];
    const types = (response: { content?: object }) => Object.keys(response.content ?? {}).sort();
    expect(types(link.get.responses['200'])).toEqual(['text/html']);
    expect(types(link.get.responses['404'])).toEqual(['application/json', 'text/html']);
    for (const code of ['400', '404', '422']) {
      expect(types(link.post.responses[code]), code).toEqual(['application/json', 'text/html']);
    }
    expect(Object.keys(doc.components.schemas.SandboxLinkCompletion.properties)).toContain(
      'post_connections',
    );
  });

  it('the connection made through the page is listed active', async () => {
    const f = await fixture();
    const { linkPath, connectionid } = await f.link({ integrationid: 9012 });
    const page = await call(f.s.app, 'GET', linkPath);
    const location = selectOptions(page.text, 'post_connection:9012:location')[1]?.value ?? '';
    const done = await call(
      f.s.app,
      'POST',
      linkPath,
      browserForm({
        integrationid: '9012',
        'credential:9012:client_id': 'i',
        'credential:9012:client_secret': 's',
        'post_connection:9012:location': location,
      }),
    );
    expect(done.status).toBe(200);
    const listed = await f.api('GET', `/consumers/${f.consumerid}/connections`);
    expect((listed.body as unknown[]).map((c) => ConnectionItem.parse(c))).toMatchObject([
      { connectionid, status: 'active', integrationid: 9012 },
    ]);
  });
});
