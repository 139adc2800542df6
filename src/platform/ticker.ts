/**
 * Work that time drives: executions that finish, scheduled flow runs, webhook retries. A resource
 * group that has such work exports it as a task, and createApp registers them all in one place;
 * `run()` performs every task once, in that order, for the current sandbox time. It runs after
 * every move of the clock through the control endpoint (which answers once the run is done), and on
 * a timer while the server follows the machine's time. Runs never overlap: a run asked for while one
 * is going waits for it and then runs again, so nothing due is missed.
 *
 * A task must not wait for the network: one that talks to the outside (the webhook delivery worker)
 * starts that work with `spawn()` and returns. Runs never wait for spawned work, so a receiver that
 * never answers cannot hold back the clock endpoint, the other tasks or the requests that kick a run.
 * Spawned work holds no write while it waits: it is handed the store itself, and makes each of its
 * changes in a write of its own (`store.transact`), so the world is never held across a network call.
 * `idle()` is how a test waits for all of it instead of sleeping.
 *
 * A run gives the event loop back after each task, so a run that has much to do (a clock moved far)
 * never holds the other requests, nor the other worlds of the process, for more than one task's
 * write. A task whose work is long makes its own writes, in slices (`register(..., 'own')`).
 */
import { giveTurn } from '../lib/slices.js';
import type { WorldStore } from '../store/store.js';

/**
 * A task, or a piece of work a task spawned: it is handed the store to write through, since each
 * runs as a write of its own (it outlives the request that kicked it, if any).
 */
export type TickTask = (store: WorldStore) => Promise<void> | void;

/** How one piece of background work is run: the app gives each its own write (store.transactApart). */
export type Boundary = (work: TickTask) => Promise<void>;

/** How spawned work is run: handed the store, outside any write (it makes its own). */
export type Direct = (work: TickTask) => Promise<void> | void;

/**
 * How a task writes: `write`, the ticker gives it one write of its own (the default); `own`, it is
 * handed the store outside any write and makes its own, as many as its work needs.
 */
export type TaskWrites = 'write' | 'own';

export class Ticker {
  readonly #tasks: { name: string; task: TickTask; writes: TaskWrites }[] = [];
  #running: Promise<void> | null = null;
  #again = false;
  /** Work started by tasks and still going, by key. */
  readonly #spawned = new Map<string, Promise<void>>();
  readonly #boundary: Boundary;
  readonly #direct: Direct;

  constructor(boundary: Boundary, direct: Direct) {
    this.#boundary = boundary;
    this.#direct = direct;
  }

  register(name: string, task: TickTask, writes: TaskWrites = 'write'): void {
    this.#tasks.push({ name, task, writes });
  }

  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Starts `work` in the background, unless work of the same key is still going (then it answers
   * false and starts nothing: the same piece of work never runs twice at once). Runs do not wait
   * for it; a failure is logged, never thrown.
   */
  spawn(key: string, work: TickTask): boolean {
    if (this.#spawned.has(key)) return false;
    // Started on the next microtask, so the key is registered before the work can look at it.
    const going = Promise.resolve()
      .then(() => this.#direct(work))
      .catch((error: unknown) => {
        console.error(`[unified-api-sandbox] background work ${key} failed:`, error);
      })
      .finally(() => {
        this.#spawned.delete(key);
      });
    this.#spawned.set(key, going);
    return true;
  }

  /** Whether work of this key is going. */
  busy(key: string): boolean {
    return this.#spawned.has(key);
  }

  /** Resolves once the work of `key` is over (at once when none is going). */
  settled(key: string): Promise<void> {
    return this.#spawned.get(key) ?? Promise.resolve();
  }

  /**
   * Resolves once no run is going and no spawned work is left, including work that finishing work
   * started (the next delivery of a webhook instance, say). Tests await it rather than sleeping.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.#running) await this.#running;
      else if (this.#spawned.size > 0) await Promise.all(this.#spawned.values());
      else return;
    }
  }

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      for (const { name, task, writes } of this.#tasks) {
        try {
          await (writes === 'own' ? this.#direct(task) : this.#boundary(task));
        } catch (error) {
          console.error(`[unified-api-sandbox] background task ${name} failed:`, error);
        }
        // The requests that came meanwhile are answered before the next task.
        await giveTurn();
      }
    } while (this.#again);
  }
}
