import { type ConsoleSample, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { accountingFolders, accountingLedger } from './accounting.context.js';
import { listPartners, toPartnerItem } from './partners.domain.js';
import * as partnerRoutes from './partners.routes.js';
import * as referenceRoutes from './reference.routes.js';

/**
 * What the console shows of a consumer's accounting data: the connection's folders first (a
 * multi-folder integration needs ?folder_id=, which the links set), then the clients of the folder.
 */
export const accountingSamples: readonly ConsoleSample[] = [
  {
    api: 'Accounting',
    title: 'Folders',
    route: referenceRoutes.getFolders,
    columns: ['id', 'name'],
    rows: async (c, scope) => {
      const { folders } = await accountingFolders.open(c, scope);
      return folders.map((f) => ({ id: f.id, name: f.name }));
    },
    choice: {
      param: 'folder_id',
      note: ({ integration }) =>
        integration.features.multiple_folders
          ? `${integration.name} holds several folders; pick one to see its clients.`
          : undefined,
    },
  },
  {
    api: 'Accounting',
    title: 'Clients',
    route: partnerRoutes.getClients,
    columns: ['id', 'name', 'is_company', 'email', 'vat', 'currency'],
    rows: async (c, scope) => {
      const { ledger } = await accountingLedger.open(c, scope);
      return listPartners(ledger, 'client', {})
        .slice(0, SAMPLE_ROWS)
        .map((p) => toPartnerItem(p, 'client'));
    },
  },
];
