import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { ConsumerItem } from '../../../src/modules/consumers/consumers.schemas.js';
import {
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
} from '../../helpers.js';

let s: TestSandbox;
let token: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const create = (body: unknown) => call(s.app, 'POST', '/consumers', { token, body });

describe('consumers', () => {
  it('creates, reads, lists, updates and deletes a consumer', async () => {
    const created = await create({
      name: 'Acme SA',
      email: 'acc@acme.example',
      internal_reference: 'ACME-1',
      redirect_url: 'https://vendor.example/back',
    });
    expect(created.status).toBe(200);
    const item = ConsumerItem.parse(created.body);
    expect(item).toEqual({
      consumerid: expect.any(String),
      name: 'Acme SA',
      email: 'acc@acme.example',
      internal_reference: 'ACME-1',
      redirect_url: 'https://vendor.example/back',
    });
    const read = await call(s.app, 'GET', `/consumers/${item.consumerid}`, { token });
    expect(read.body).toEqual(item);
    const list = await call(s.app, 'GET', '/consumers', { token });
    expect(list.body).toContainEqual(item);

    const patched = await call(s.app, 'PATCH', `/consumers/${item.consumerid}`, {
      token,
      body: { name: 'Acme NV', email: null },
    });
    expect(patched.body).toEqual({ ...item, name: 'Acme NV', email: null });

    const deleted = await call(s.app, 'DELETE', `/consumers/${item.consumerid}`, { token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(
      await call(s.app, 'GET', `/consumers/${item.consumerid}`, { token }),
      errors.consumerNotFound(),
    );
  });

  it('optional fields are present as null', async () => {
    const created = await create({ name: 'Minimal' });
    expect(created.body).toEqual({
      consumerid: expect.any(String),
      name: 'Minimal',
      email: null,
      internal_reference: null,
      redirect_url: null,
    });
  });

  it('filters by search (name, e-mail, reference; any case) and by exact internal_reference', async () => {
    await create({ name: 'Zebra Bakery', internal_reference: 'ZB-1' });
    await create({ name: 'Other', email: 'ZEBRA@farm.example', internal_reference: 'ZB-2' });
    await create({ name: 'Third', internal_reference: 'zb-1' });
    const search = await call(s.app, 'GET', '/consumers?search=zebra', { token });
    expect((search.body as { name: string }[]).map((c) => c.name).sort()).toEqual(['Other', 'Zebra Bakery']);
    const exact = await call(s.app, 'GET', '/consumers?internal_reference=ZB-1', { token });
    expect((exact.body as { name: string }[]).map((c) => c.name)).toEqual(['Zebra Bakery']);
    const both = await call(s.app, 'GET', '/consumers?search=other&internal_reference=ZB-1', { token });
    expect(both.body).toEqual([]);
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name over 255 characters', { name: 'x'.repeat(256) }],
    ['a name with control characters', { name: 'bad\u0000name' }],
  ])('POST refuses %s with 400', async (_n, body) => {
    expectError(await create(body), errors.consumerNameInvalid());
  });

  it.each([
    ['not a url', 'not a url'],
    ['a relative path', '/back'],
    ['another scheme', 'ftp://vendor.example/x'],
    ['an empty string', ''],
  ])('POST and PATCH refuse a redirect url that is %s with 422', async (_n, redirect_url) => {
    expectError(await create({ name: 'Ok', redirect_url }), errors.redirectUrlInvalid());
    const id = s.ids.verticalConsumers.POS;
    expectError(
      await call(s.app, 'PATCH', `/consumers/${id}`, { token, body: { redirect_url } }),
      errors.redirectUrlInvalid(),
    );
  });

  it.each([
    ['no name', {}, ['body', 'name'], 'missing'],
    ['a numeric name', { name: 5 }, ['body', 'name'], 'string_type'],
    [
      'an e-mail over 80 characters',
      { name: 'a', email: `${'e'.repeat(81)}` },
      ['body', 'email'],
      'string_too_long',
    ],
    [
      'a reference over 255 characters',
      { name: 'a', internal_reference: 'r'.repeat(256) },
      ['body', 'internal_reference'],
      'string_too_long',
    ],
    // FastAPI reads a body of null as no body.
    ['null', null, ['body'], 'missing'],
  ])('POST with %s is a 422 validation error', async (_n, body, loc, type) => {
    expectValidation(await create(body), loc, type);
  });

  it('PATCH refuses an invalid name with 400 and leaves the consumer unchanged', async () => {
    const id = s.ids.verticalConsumers.POS;
    const before = await call(s.app, 'GET', `/consumers/${id}`, { token });
    expectError(
      await call(s.app, 'PATCH', `/consumers/${id}`, {
        token,
        body: { name: ' ', email: 'changed@x.example' },
      }),
      errors.consumerNameInvalid(),
    );
    expect((await call(s.app, 'GET', `/consumers/${id}`, { token })).body).toEqual(before.body);
  });

  it.each([
    ['GET', undefined],
    ['PATCH', { name: 'x' }],
    ['DELETE', undefined],
  ])('%s of a missing consumer is 404, of a malformed id 422', async (method, body) => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(
      await call(s.app, method, `/consumers/${missing}`, { token, body }),
      errors.consumerNotFound(),
    );
    expectValidation(
      await call(s.app, method, '/consumers/12', { token, body }),
      ['path', 'consumer_id'],
      'uuid_parsing',
    );
  });

  it('deleting a consumer removes its connections', async () => {
    const id = s.ids.verticalConsumers.ACCOUNTING;
    const world = s.app.services.store.world;
    expect(Object.values(world.connections).some((c) => c.consumerid === id)).toBe(true);
    expect((await call(s.app, 'DELETE', `/consumers/${id}`, { token })).status).toBe(204);
    expect(Object.values(world.connections).some((c) => c.consumerid === id)).toBe(false);
  });

  it('every seeded consumer parses as a ConsumerItem', async () => {
    const list = await call(s.app, 'GET', '/consumers', { token });
    expect((list.body as unknown[]).length).toBeGreaterThan(20);
    for (const item of list.body as unknown[]) ConsumerItem.parse(item);
  });
});
