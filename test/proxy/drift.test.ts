import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import {
  DriftFileError,
  driftFailing,
  driftFileText,
  driftToJUnit,
  driftToMarkdown,
  type RunningProxy,
  readDriftFile,
  startProxy,
} from '../../src/proxy/index.js';
import { DEVIATIONS, EXPECTED_FINDINGS, sidesOf, UNKNOWN_CONSUMER } from './deviations.js';
import { sdkClient } from './sdk-client.js';
import { type ServiceDouble, serviceDouble } from './service-double.js';

/**
 * The drift report of a service that departs from the sandbox in five chosen ways, driven by the
 * official Node SDK through the proxy: the report names those, each with both sides and the
 * exchanges it was seen in, and nothing else.
 */

const SEED = 13;
const ids = seedDirectory(SEED);
const INVOICING = ids.verticalConsumers.INVOICING as string;

let service: ServiceDouble;
let proxy: RunningProxy;
let folder: string;

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'proxy-drift-'));
  service = await serviceDouble(SEED, DEVIATIONS);
  proxy = await startProxy({ upstream: service.origin, seed: SEED });
});

afterEach(async () => {
  await proxy.close();
  await service.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the drift report of a service with chosen deviations, through the official Node SDK', () => {
  it('finds those deviations, with both sides and their exchanges, and nothing else', async () => {
    const client = sdkClient(proxy.url, SEED);
    const consumer = await client.Consumers.getConsumerById(INVOICING);
    const invoicing = consumer.invoicing;
    expect((await invoicing.getContacts()).length).toBeGreaterThan(5);
    expect((await invoicing.getProducts()).length).toBeGreaterThan(5);
    expect((await invoicing.getInvoices({ invoice_type: 'customer_invoice' })).length).toBeGreaterThan(5);
    expect((await invoicing.getTaxes()).length).toBeGreaterThan(5);
    await expect(client.Consumers.getConsumerById(UNKNOWN_CONSUMER)).rejects.toBeDefined();

    const report = await proxy.report();
    const found = sidesOf(report);
    expect(found).toEqual(expect.arrayContaining(EXPECTED_FINDINGS));
    expect(found).toHaveLength(EXPECTED_FINDINGS.length);
    for (const finding of report.findings) {
      expect(finding.count).toBeGreaterThan(0);
      expect(finding.exchanges.length).toBeGreaterThan(0);
      expect(finding.exchanges.every((id) => /^x\d+$/.test(id))).toBe(true);
    }
    // The summary by operation: what conformed, what agreed.
    const contacts = report.summary.find((entry) => entry.operation_id === 'invoicing_get_contacts');
    expect(contacts).toMatchObject({ conforming: 0, agreeing: contacts?.calls });
    const token = report.summary.find((entry) => entry.path === '/token');
    // The SDK asks for a token before each call: all conform and agree.
    expect(token?.calls).toBeGreaterThan(1);
    expect(token).toMatchObject({ conforming: token?.calls, replayed: token?.calls, agreeing: token?.calls });
    // What the readiness report says of the client, from the world the traffic was replayed at.
    expect(report.client_findings.map((finding) => finding.kind)).toContain('token_not_reused');
    // Linked to the guide's path, which any running sandbox serves.
    expect(report.client_findings.every((finding) => finding.docs.startsWith('/guides/readiness#'))).toBe(
      true,
    );
    // The same report as a person and as CI read it.
    const markdown = driftToMarkdown(report);
    expect(markdown).toContain(
      '| error | sandbox_pagination | GET /consumers/{consumer_id}/invoicing/taxes | $.size | 50 | 100 |',
    );
    const junit = driftToJUnit(report);
    expect(junit).toContain('<failure type="schema_deviation"');
    expect(junit).not.toContain('<failure type="undocumented_field"');
  });

  it('turns findings into a drift file; given back, what it names is known and fails no run', async () => {
    const client = sdkClient(proxy.url, SEED);
    await (await client.Consumers.getConsumerById(INVOICING)).invoicing.getTaxes();
    const first = await proxy.report();
    expect(first.findings.map((finding) => finding.kind)).toEqual(['sandbox_pagination']);
    expect(driftFailing(first, 'error')).toHaveLength(1);
    const file = join(folder, 'drift.yaml');
    writeFileSync(file, driftFileText(first, file));
    const known = readDriftFile(file);
    expect(known).toEqual([
      expect.objectContaining({
        kind: 'sandbox_pagination',
        method: 'GET',
        path: '/consumers/{consumer_id}/invoicing/taxes',
        at: '$.size',
        service: '50',
      }),
    ]);
    const second = await startProxy({ upstream: service.origin, seed: SEED, known });
    try {
      const again = sdkClient(second.url, SEED);
      await (await again.Consumers.getConsumerById(INVOICING)).invoicing.getTaxes();
      const report = await second.report();
      expect(report.findings.map((finding) => [finding.kind, finding.known])).toEqual([
        ['sandbox_pagination', true],
      ]);
      expect(driftFailing(report, 'error')).toEqual([]);
      expect(driftToMarkdown(report)).toContain('| error (known) | sandbox_pagination |');
    } finally {
      await second.close();
    }
  });

  it('refuses a drift file it cannot read whole, naming the entry', () => {
    const file = join(folder, 'bad.yaml');
    writeFileSync(file, 'known:\n  - kind: sandbox_colour\n    method: GET\n    path: /x\n    at: $\n');
    expect(() => readDriftFile(file)).toThrow(DriftFileError);
    expect(() => readDriftFile(file)).toThrow(/bad\.yaml, known\.0\.kind: /);
    expect(() => readDriftFile(join(folder, 'missing.yaml'))).toThrow(/cannot read/);
  });

  it('holds no credential in what it reports or records', async () => {
    const secret = ids.sandbox.clientSecret;
    const client = sdkClient(proxy.url, SEED, secret);
    await (await client.Consumers.getConsumerById(INVOICING)).invoicing.getTaxes();
    const report = await proxy.report();
    expect(JSON.stringify(report)).not.toContain(secret);
    expect(driftToMarkdown(report)).not.toContain(secret);
  });
});
