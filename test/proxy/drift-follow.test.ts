import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type DriftReport, driftFileText, readDriftFile, startProxy } from '../../src/proxy/index.js';
import { DEVIATIONS, UNKNOWN_CONSUMER } from './deviations.js';
import { sdkClient } from './sdk-client.js';
import { type ServiceDouble, serviceDouble } from './service-double.js';

/**
 * End to end: the findings of a service that departs from the sandbox, written as a drift file, and
 * a sandbox that follows it (the proxy's replay world, as `serve --drift` builds it): the proxy in
 * front of the same service finds no longer what the sandbox now follows, and still the rest.
 */

const SEED = 13;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;

let service: ServiceDouble;
let folder: string;

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'drift-follow-'));
  service = await serviceDouble(SEED, DEVIATIONS);
});

afterEach(async () => {
  await service.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The client's run through a proxy in front of the service, and the proxy's report. */
async function run(follow?: Parameters<typeof startProxy>[0]['follow']): Promise<DriftReport> {
  const proxy = await startProxy({ upstream: service.origin, seed: SEED, ...(follow ? { follow } : {}) });
  try {
    const client = sdkClient(proxy.url, SEED);
    const invoicing = (await client.Consumers.getConsumerById(INVOICING)).invoicing;
    await invoicing.getContacts();
    await invoicing.getProducts();
    await invoicing.getInvoices({ invoice_type: 'customer_invoice' });
    await invoicing.getTaxes();
    await expect(client.Consumers.getConsumerById(UNKNOWN_CONSUMER)).rejects.toBeDefined();
    return await proxy.report();
  } finally {
    await proxy.close();
  }
}

const kinds = (report: DriftReport) =>
  report.findings.map((finding) => `${finding.kind} ${finding.at}`).sort();

describe('a sandbox following the drift file of its findings', () => {
  it('is found to differ no longer where it follows the service, and still where it does not', async () => {
    const first = await run();
    const file = join(folder, 'drift.yaml');
    writeFileSync(file, driftFileText(first, file));
    const entries = readDriftFile(file);
    const second = await run(entries);
    const followed = [
      'sandbox_error message',
      'sandbox_pagination $.size',
      'schema_deviation $.items[].source_ref',
    ];
    expect(kinds(first)).toEqual(expect.arrayContaining(followed));
    expect(kinds(second)).toEqual(kinds(first).filter((kind) => !followed.includes(kind)));
    expect(second.findings.length).toBeLessThan(first.findings.length);
  });
});
