import { describe, expect, it } from 'vitest';
import { runAtOnce, runInSlices, type Sliced } from '../../src/lib/slices.js';

/** Long work written once as a generator: run at once, or in slices with the event loop given back. */

function* counting(steps: number, log: string[], stepMs = 0): Sliced<number> {
  for (let i = 0; i < steps; i++) {
    const until = performance.now() + stepMs;
    while (performance.now() < until) {
      // a step of work
    }
    log.push(`step ${i}`);
    yield;
  }
  return steps;
}

describe('sliced work', () => {
  it('runs at once to its end, nothing else in between', () => {
    const log: string[] = [];
    setImmediate(() => log.push('other'));
    expect(runAtOnce(counting(3, log))).toBe(3);
    expect(log).toEqual(['step 0', 'step 1', 'step 2']);
  });

  it('gives the event loop back between slices', async () => {
    const log: string[] = [];
    // Each step lasts longer than a slice: what waited runs after the first one.
    setImmediate(() => log.push('other'));
    expect(await runInSlices(counting(3, log, 2), 1)).toBe(3);
    expect(log.indexOf('other')).toBe(1);
  });

  it('passes a refusal of the work on, where it was thrown', async () => {
    function* refusing(): Sliced<void> {
      yield;
      throw new Error('refused');
    }
    await expect(runInSlices(refusing())).rejects.toThrow('refused');
    expect(() => runAtOnce(refusing())).toThrow('refused');
  });
});
