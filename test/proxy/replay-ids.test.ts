import { API } from '@chift/chift-nodejs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { type Listening, listenOn } from '../helpers.js';

/**
 * The service's ids are not the replay world's: a service of another seed, whose consumers and
 * records the world has none of. Each read by id is replayed with the id the world answered at the
 * same place of the same list, and the consumer of the vertical: every call is replayed, and agrees.
 */

const SERVICE_SEED = 7;
const WORLD_SEED = 1;
const ids = seedDirectory(SERVICE_SEED);

let upstream: Listening;
let proxy: RunningProxy;

beforeEach(async () => {
  upstream = await listenOn(createApp({ seed: SERVICE_SEED, connectionLife: 'off' }));
  proxy = await startProxy({ upstream: upstream.origin, seed: WORLD_SEED });
});

afterEach(async () => {
  await proxy.close();
  await upstream.close();
});

describe('the replay at a world of other ids', () => {
  it('maps the consumers and the records read by id, and finds no drift', async () => {
    const client = new API({
      baseUrl: proxy.url,
      accountId: ids.accountId,
      clientId: ids.sandbox.clientId,
      clientSecret: ids.sandbox.clientSecret,
    });
    const invoicing = (await client.Consumers.getConsumerById(ids.verticalConsumers.INVOICING as string))
      .invoicing;
    const [contact] = await invoicing.getContacts();
    await invoicing.getContactById(contact?.id as string);
    const [invoice] = await invoicing.getInvoices({});
    await invoicing.getInvoiceById(invoice?.id as string);
    const accounting = (await client.Consumers.getConsumerById(ids.verticalConsumers.ACCOUNTING as string))
      .accounting;
    const [client0] = await accounting.getClients();
    await accounting.getClient(client0?.id as string);
    expect(seedDirectory(WORLD_SEED).verticalConsumers.INVOICING).not.toBe(ids.verticalConsumers.INVOICING);

    const report = await proxy.report();
    expect(report.findings).toEqual([]);
    const byId = report.summary.filter((entry) => entry.path.endsWith('_id}'));
    expect(byId.map((entry) => entry.operation_id).sort()).toEqual([
      'accounting_get_client',
      'consumers_get_consumer',
      'invoicing_get_contact',
      'invoicing_get_invoice',
    ]);
    for (const entry of report.summary)
      expect(entry).toMatchObject({ replayed: entry.calls, agreeing: entry.calls });
  });
});
