import { describe, expect, it } from 'vitest';
import { runCli, serveCli, stop } from '../cli/helpers.js';

/** The command line's --cors, in a process of its own: the origins a served sandbox lets in. */

const PAGE = 'http://localhost:5173';
const OTHER = 'https://elsewhere.example';

const preflight = (origin: string, method = 'POST', headers = 'authorization, content-type') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  },
});

describe('--cors', () => {
  it('restricts the origins of the served sandbox', async () => {
    const served = await serveCli(['--port', '0', '--seed', '7', '--cors', PAGE]);
    try {
      const listed = await fetch(`${served.url}/token`, preflight(PAGE));
      expect(listed.headers.get('access-control-allow-origin')).toBe(PAGE);
      const other = await fetch(`${served.url}/token`, preflight(OTHER));
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await stop(served.child);
    }
  });

  it('refuses what is not an origin, with the usage exit code', () => {
    const out = runCli(['serve', '--port', '0', '--cors', 'localhost:3000']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--cors');
  });
});
