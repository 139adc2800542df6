import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * hono's TrieRouter, filled on the first match instead of at each `add`: an app registers a thousand
 * routes, and one that never answers a request (a test's, a world's over HTTP) should not pay for
 * building the tree (~2 ms). hono's default router defers the same way, but first tries a RegExpRouter
 * that cannot take some of the sandbox's paths (a parameter with a pattern beside literal siblings),
 * so every app built and dropped that one on its first request (~5 ms) before using a TrieRouter.
 */
export class DeferredTrieRouter<T> implements Router<T> {
  readonly name = 'TrieRouter';
  #pending: [method: string, path: string, handler: T][] | null = [];
  readonly #trie = new TrieRouter<T>();

  add(method: string, path: string, handler: T): void {
    if (this.#pending) this.#pending.push([method, path, handler]);
    else this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const pending = this.#pending;
    if (pending) {
      this.#pending = null;
      for (const [m, p, h] of pending) this.#trie.add(m, p, h);
    }
    return this.#trie.match(method, path);
  }
}
