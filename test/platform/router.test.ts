import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { DeferredTrieRouter } from '../../src/lib/router.js';

const handlersOf = (router: DeferredTrieRouter<string>, method: string, path: string) =>
  router.match(method, path)[0].map(([handler, params]) => [handler, params]);

describe('the deferred trie router', () => {
  it('answers what a trie router filled in the same order answers', () => {
    const router = new DeferredTrieRouter<string>();
    router.add('ALL', '*', 'every');
    router.add('GET', '/consumers/:consumer_id', 'one');
    router.add('GET', '/consumers/mine', 'literal');
    router.add('POST', '/consumers', 'create');
    expect(handlersOf(router, 'GET', '/consumers/mine')).toEqual([
      ['every', {}],
      ['one', { consumer_id: 'mine' }],
      ['literal', {}],
    ]);
    expect(handlersOf(router, 'POST', '/consumers')).toEqual([
      ['every', {}],
      ['create', {}],
    ]);
    expect(handlersOf(router, 'DELETE', '/consumers')).toEqual([['every', {}]]);
  });

  it('takes routes added after its first match', () => {
    const router = new DeferredTrieRouter<string>();
    router.add('GET', '/a', 'a');
    expect(handlersOf(router, 'GET', '/b')).toEqual([]);
    router.add('GET', '/b', 'b');
    expect(handlersOf(router, 'GET', '/b')).toEqual([['b', {}]]);
    expect(handlersOf(router, 'GET', '/a')).toEqual([['a', {}]]);
  });

  it('is the router of an app, which never builds the RegExpRouter the sandbox paths defeat', async () => {
    const app = createApp();
    const res = await app.request('/integrations');
    expect(res.status).toBe(401);
    // hono's default names itself "SmartRouter + TrieRouter" once it has given up its RegExpRouter.
    expect(app.router.name).toBe('TrieRouter');
    expect(app.router).toBeInstanceOf(DeferredTrieRouter);
  });
});
