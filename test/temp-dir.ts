import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new folder in the temporary directory, removed with what it holds once the test that made it
 * has finished (after its afterEach hooks, which close the stores writing there). Called inside a test.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Closes what writes into such a folder (a store opened on a world file) once the test has
 * finished, before the folder is removed: a store left open would go on writing there (a compaction
 * in the background) after its folder is gone.
 */
export function closedAfterTest<T extends { close(): Promise<unknown> }>(resource: T): T {
  onTestFinished(async () => {
    await resource.close();
  });
  return resource;
}
