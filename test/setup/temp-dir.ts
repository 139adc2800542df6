import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The run's own temporary directory. Set as TMPDIR before the test processes start, it is what
 * `os.tmpdir()` answers in every test and in every process a test spawns, so what the tests leave
 * behind is told apart from what the rest of the machine writes. At the end the run fails naming
 * each entry still there (a test removes what it writes), and the directory is removed either way.
 */
const PREFIX = 'unified-api-sandbox-tests-';

/**
 * What tools keep there on purpose, across processes: tsx's compile cache (`tsx-<uid>`), and Node's
 * own compile cache (`node-compile-cache`, where Node 22 and later keep the code the package's entry
 * compiled when no folder is named).
 */
const TOOL_CACHES = [/^tsx-\d+$/, /^node-compile-cache$/];

export default function ownTemporaryDirectory(): () => void {
  const outer = process.env.TMPDIR;
  const own = mkdtempSync(join(tmpdir(), PREFIX));
  process.env.TMPDIR = own;
  return () => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    const left = readdirSync(own).filter((name) => !TOOL_CACHES.some((cache) => cache.test(name)));
    rmSync(own, { recursive: true, force: true });
    if (left.length === 0) return;
    console.error(
      `The tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory ` +
        `(removed now): ${left.sort().join(', ')}`,
    );
    process.exitCode = 1;
  };
}
