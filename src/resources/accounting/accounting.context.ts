import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { errors } from '../../lib/errors.js';
import type { LedgerFolder, LedgerRecord } from '../../store/world.js';
import { requireVerticalConnection, type VerticalScope } from '../consumers/vertical-connection.js';
import { foldersOf, ledgerOf } from './ledger/ledgers.js';

/**
 * What every accounting operation starts from: the consumer, its active accounting connection, the
 * integration behind it, and (unless the operation lists folders) the folder and its ledger.
 */
export interface AccountingScope extends VerticalScope {
  folders: LedgerFolder[];
}

export interface FolderScope extends AccountingScope {
  folder: LedgerFolder;
  ledger: LedgerRecord;
}

/**
 * The consumer, its active accounting connection (X-Chift-ConnectionId picks one among several) and
 * the integration, which must implement `operationId` (see consumers/vertical-connection.ts), with
 * its folders.
 */
export function requireAccountingConnection(c: Context<AppEnv>, operationId: string): AccountingScope {
  const scope = requireVerticalConnection(c, 'Accounting', operationId);
  const { store, caches } = c.var;
  const folders = foldersOf(
    caches.ledgerFolders,
    store.world.meta.seed,
    scope.consumer.consumerid,
    scope.integration,
  );
  return { ...scope, folders };
}

/**
 * requireAccountingConnection, then the folder of the request's folder_id: required (and one of the
 * connection's folders) when the integration has features.multiple_folders; otherwise optional, and
 * when given it must be the single folder's id. Returns the folder's ledger, built on first access.
 */
export function requireAccounting(c: Context<AppEnv>, operationId: string): FolderScope {
  const scope = requireAccountingConnection(c, operationId);
  const folderId = c.req.query('folder_id');
  let folder: LedgerFolder | undefined;
  if (folderId === undefined || folderId === '') {
    if (scope.integration.features.multiple_folders) {
      throw errors.accountingFailure(
        `folder_id is required: ${scope.integration.name} holds several folders (GET .../accounting/folders lists them)`,
      );
    }
    folder = scope.folders[0];
  } else {
    folder = scope.folders.find((f) => f.id === folderId);
    if (!folder)
      throw errors.accountingFailure(`The folder '${folderId}' does not exist for this connection`);
  }
  if (!folder) throw errors.accountingFailure('The connection reaches no folder');
  const ledger = ledgerOf(c.var.store, scope.consumer.consumerid, scope.integration, folder);
  return { ...scope, folder, ledger };
}

/** The timestamp and id source of a write, for the posting functions. */
export function postingContext(c: Context<AppEnv>) {
  return { mint: (kind: string) => c.var.ids.next(kind), now: c.var.clock.now().toISOString() };
}
