import { describe, expect, it } from 'vitest';
import { runAtOnce, runInSlices, type Sliced } from '../../src/lib/slices.js';

/** Long work written once as a generator: run at once, or in slices with the event loop given back. */

function* counting(steps: number, log: string[]): Sliced<number> {
  for (let i = 0; i < steps; i++) {
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

  it('gives the event loop back before its first slice, between slices, and after its last', async () => {
    const log: string[] = [];
    setImmediate(() => log.push('before'));
    function* work(): Sliced<string> {
      for (let i = 0; i < 3; i++) {
        // What comes in during a step is answered before the next: each step outlasts the slice.
        setImmediate(() => log.push(`during ${i}`));
        const until = performance.now() + 2;
        while (performance.now() < until) {
          // a step of work
        }
        log.push(`step ${i}`);
        yield;
      }
      return 'done';
    }
    expect(await runInSlices(work(), 1)).toBe('done');
    expect(log).toEqual(['before', 'step 0', 'during 0', 'step 1', 'during 1', 'step 2', 'during 2']);
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
