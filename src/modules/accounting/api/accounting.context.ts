import type { Context } from 'hono';
import { errors } from '../../../lib/errors.js';
import type { AppEnv } from '../../../platform/context.js';
import type { Vertical } from '../../../platform/operation.js';
import type { VerticalScope } from '../../../platform/vertical-connection.js';
import type { LedgerFolder, LedgerRecord } from '../model/accounting.records.js';
import { foldersOf, ledgerOf, ledgerRef, missingBookYears, openBookYears } from '../world/ledgers.js';

/** The folders (companies) an accounting connection reaches. */
export interface AccountingFolders {
  folders: LedgerFolder[];
}

/** The folders, and the one the request works on with its ledger. */
export interface AccountingLedger extends AccountingFolders {
  folder: LedgerFolder;
  ledger: LedgerRecord;
}

function foldersOfConnection(
  c: Context<AppEnv>,
  { consumer, integration }: VerticalScope,
): AccountingFolders {
  const store = c.get('store');
  const caches = c.get('caches');
  return {
    folders: foldersOf(caches.ledgerFolders, store.world.meta.seed, consumer.consumerid, integration),
  };
}

/**
 * The folder of the request's folder_id: required (and one of the connection's folders) when the
 * integration has features.multiple_folders; otherwise optional, and when given it must be the
 * single folder's id.
 */
function requireFolder(
  c: Context<AppEnv>,
  scope: VerticalScope,
): AccountingFolders & { folder: LedgerFolder } {
  const { folders } = foldersOfConnection(c, scope);
  const folderId = c.req.query('folder_id');
  let folder: LedgerFolder | undefined;
  if (folderId === undefined || folderId === '') {
    if (scope.integration.features.multiple_folders) {
      throw errors.accountingFailure(
        `folder_id is required: ${scope.integration.name} holds several folders (GET .../accounting/folders lists them)`,
      );
    }
    folder = folders[0];
  } else {
    folder = folders.find((f) => f.id === folderId);
    if (!folder)
      throw errors.accountingFailure(`The folder '${folderId}' does not exist for this connection`);
  }
  if (!folder) throw errors.accountingFailure('The connection reaches no folder');
  return { folders, folder };
}

/**
 * The folder's ledger, with the book years of the sandbox clock's years open (see
 * missingBookYears). The ledger is built with them open; a write that replaced its book years before
 * the clock entered a new year (one that closed a year) left that year out: a read shows it open,
 * derived, writing nothing; a write opens it in the ledger, with what it writes.
 */
function folderLedger(c: Context<AppEnv>, scope: VerticalScope): AccountingLedger {
  const { folders, folder } = requireFolder(c, scope);
  const store = c.get('store');
  const ledger = ledgerOf(store, scope.consumer.consumerid, scope.integration, folder);
  const missing = missingBookYears(ledger, store.today());
  if (missing.length === 0) return { folders, folder, ledger };
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') {
    return { folders, folder, ledger: { ...ledger, bookyears: [...ledger.bookyears, ...missing] } };
  }
  openBookYears(ledger, store.today());
  return { folders, folder, ledger };
}

/**
 * The operations on the connection's folders themselves (listing them, reading one): once the
 * consumer, its active accounting connection (X-Chift-ConnectionId picks one among several) and the
 * integration's coverage are checked (see vertical-operation.ts), they get the folders.
 */
export const accountingFolders: Vertical<AccountingFolders> = {
  api: 'Accounting',
  open: foldersOfConnection,
};

/** Every other accounting operation works in one folder: after the same checks, its ledger. */
export const accountingLedger: Vertical<AccountingLedger> = {
  api: 'Accounting',
  dataset: (c, scope) =>
    ledgerRef(scope.consumer.consumerid, scope.integration, requireFolder(c, scope).folder),
  open: folderLedger,
};
