import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import { seedFolders, seedLedger } from '../../../src/modules/accounting/world/accounting.seed.js';
import { deepFreeze } from '../domain-helpers.js';

/** The ledger the accounting domain tests start from: one folder of consumer-a's Odoo, seed 3. */

const first = seedFolders(3, 'consumer-a', 1000, 1)[0];
if (!first) throw new Error('no folder');
export const folder = first;

const seeded = new Map<boolean, LedgerRecord>();

/** Built once per file and frozen: a test works on a copy of its own (structuredClone). */
export function seededLedger(unifiedPartners = false): LedgerRecord {
  let ledger = seeded.get(unifiedPartners);
  if (!ledger) {
    ledger = deepFreeze(
      seedLedger({ seed: 3, consumerid: 'consumer-a', integrationid: 1000, unifiedPartners, folder }),
    );
    seeded.set(unifiedPartners, ledger);
  }
  return ledger;
}

/** The one record of `list` that passes `test`; fails when the seed holds none. */
export const findIn = <T>(list: Record<string, T>, test: (item: T) => boolean): T => {
  const found = Object.values(list).find(test);
  if (!found) throw new Error('not in the seed');
  return found;
};
