/**
 * Work that time drives: executions that finish, scheduled flow runs, webhook retries. Each group
 * registers a task; `run()` performs every task once for the current sandbox time. It runs after
 * every move of the clock through the control endpoint (which answers once the work is done), and on
 * a timer while the server follows the machine's time. Runs never overlap: a run asked for while one
 * is going waits for it and then runs again, so nothing due is missed.
 */
export type TickTask = () => Promise<void> | void;

export class Ticker {
  readonly #tasks: { name: string; task: TickTask }[] = [];
  #running: Promise<void> | null = null;
  #again = false;

  register(name: string, task: TickTask): void {
    this.#tasks.push({ name, task });
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

  async #loop(): Promise<void> {
    do {
      this.#again = false;
      for (const { name, task } of this.#tasks) {
        try {
          await task();
        } catch (error) {
          console.error(`[unified-api-sandbox] background task ${name} failed:`, error);
        }
      }
    } while (this.#again);
  }
}
