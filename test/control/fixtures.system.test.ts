import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedCredentials } from '../../src/platform/credentials.js';
import { runCli, serveCli, stop } from '../cli/helpers.js';
import { SEED } from '../helpers.js';
import { tempDir } from '../temp-dir.js';

/** Fixtures given to the command line, which serves them in a process of its own. */

const ACCOUNTING_EXAMPLE = 'examples/fixtures/accounting-world.yaml';

describe('loading a fixture', () => {
  it('the command line takes --fixtures, and refuses a bad one with exit code 2 and the path', async () => {
    const dir = tempDir('fixtures-');
    const { child, url } = await serveCli([
      '--port',
      '0',
      '--seed',
      String(SEED),
      '--fixtures',
      ACCOUNTING_EXAMPLE,
    ]);
    try {
      const creds = seedCredentials(SEED);
      const minted = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
      });
      const { access_token } = (await minted.json()) as { access_token: string };
      const consumers = await fetch(`${url}/consumers`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(((await consumers.json()) as { name: string }[]).map((c) => c.name)).toEqual(['Acme Bakery']);
    } finally {
      await stop(child);
    }
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'consumers:\n  - name: Fine\n  - email: nobody@example.com\n');
    const out = runCli(['serve', '--port', '0', '--fixtures', bad]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(bad);
    expect(out.stderr).toContain('consumers[1].name');
  });
});
