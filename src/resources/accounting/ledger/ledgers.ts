import type { Integration } from '../../../seed/catalogue.js';
import { folderLedger } from '../../../seed/datasets.js';
import type { WorldStore } from '../../../store/store.js';
import type { LedgerFolder, LedgerRecord } from '../accounting.records.js';
import { seedFolders } from '../accounting.seed.js';

/**
 * Where ledgers come from. The folders a consumer reaches through an integration, and the seeded
 * content of each, are a pure function of (seed, consumer, integration, folder): a ledger is built
 * and stored the first time its folder is used, and a lost one would be rebuilt identically.
 */

/** Integrations with features.multiple_folders reach this many folders; the others one. */
export const FOLDERS_OF_MULTI_FOLDER_INTEGRATIONS = 3;

/** Folder lists an app keeps at most; past it, the cache starts afresh. */
const MAX_CACHED_FOLDER_LISTS = 10_000;

/**
 * The folders of a consumer's accounting integration, memoized in the app's `cache` (they only
 * depend on the ids).
 */
export function foldersOf(
  cache: Map<string, LedgerFolder[]>,
  seed: number,
  consumerid: string,
  integration: Integration,
): LedgerFolder[] {
  const key = `${seed}:${consumerid}:${integration.integrationid}`;
  let folders = cache.get(key);
  if (!folders) {
    const count = integration.features.multiple_folders ? FOLDERS_OF_MULTI_FOLDER_INTEGRATIONS : 1;
    folders = seedFolders(seed, consumerid, integration.integrationid, count);
    if (cache.size > MAX_CACHED_FOLDER_LISTS) cache.clear();
    cache.set(key, folders);
  }
  return folders;
}

/** The ledger of a folder, built from the seed on first access (see seed/datasets.ts). */
export function ledgerOf(
  store: WorldStore,
  consumerid: string,
  integration: Integration,
  folder: LedgerFolder,
): LedgerRecord {
  return folderLedger(store, {
    consumerid,
    integrationid: integration.integrationid,
    unifiedPartners: integration.features.unified_partners,
    folder,
  });
}
