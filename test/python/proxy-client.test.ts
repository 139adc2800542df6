import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { DEVIATIONS, EXPECTED_FINDINGS, sidesOf, UNKNOWN_CONSUMER } from '../proxy/deviations.js';
import { type ServiceDouble, serviceDouble } from '../proxy/service-double.js';
import { PYTHON_PACKAGE, PYTHON3 } from './pytest.js';

/**
 * The drift report of the service double with its five deviations (test/proxy/deviations.ts), this
 * time driven by the pytest plugin's client (`World` of python/unified_api_sandbox_pytest/client.py)
 * through the proxy: the same findings, and no other.
 */

const SEED = 13;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;

/** The client's reads, as a Python script: a World over the proxy with the service's key. */
const SCRIPT = `
import json, sys
from unified_api_sandbox_pytest.client import World
url, account, client_id, secret, consumer, unknown = sys.argv[1:]
world = World(url, {"id": "service", "seed": ${SEED}, "control_token": "",
  "credentials": {"account_id": account, "sandbox": {"client_id": client_id, "client_secret": secret}}, "env": {}})
statuses = []
for path in [f"/consumers/{consumer}", f"/consumers/{consumer}/invoicing/contacts?size=100",
             f"/consumers/{consumer}/invoicing/products?size=100",
             f"/consumers/{consumer}/invoicing/invoices?size=100&invoice_type=customer_invoice",
             f"/consumers/{consumer}/invoicing/taxes?size=100", f"/consumers/{unknown}"]:
    statuses.append(world.api.get(path).status_code)
print(json.dumps(statuses))
`;

function python(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON3 as string, ['-c', SCRIPT, ...args], {
      env: { ...process.env, PYTHONPATH: PYTHON_PACKAGE },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

let service: ServiceDouble;
let proxy: RunningProxy;

beforeEach(async () => {
  service = await serviceDouble(SEED, DEVIATIONS);
  proxy = await startProxy({ upstream: service.origin, seed: SEED });
});

afterEach(async () => {
  await proxy.close();
  await service.close();
});

describe('the drift report through the pytest plugin client', () => {
  it('finds the deviations of the service, and nothing else', async () => {
    expect(PYTHON3, 'a python3 with requests').toBeDefined();
    const run = await python([
      proxy.url,
      ids.accountId,
      ids.sandbox.clientId,
      ids.sandbox.clientSecret,
      INVOICING,
      UNKNOWN_CONSUMER,
    ]);
    expect(run.code, run.out).toBe(0);
    expect(JSON.parse(run.out)).toEqual([200, 200, 203, 200, 200, 404]);
    const found = sidesOf(await proxy.report());
    expect(found).toEqual(expect.arrayContaining(EXPECTED_FINDINGS));
    expect(found).toHaveLength(EXPECTED_FINDINGS.length);
  });
});
