import { type ConsoleSample, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { bankingDatasetOf, toAccountItem } from './banking.domain.js';
import * as routes from './banking.routes.js';

/** What the console shows of a consumer's banking data: its first accounts. */
export const bankingSamples: readonly ConsoleSample[] = [
  {
    api: 'Banking',
    title: 'Accounts',
    route: routes.getAccounts,
    columns: ['id', 'description', 'reference', 'holder_name', 'currency', 'current_balance', 'active'],
    rows: (c, { connection }) => {
      const data = bankingDatasetOf(
        c.get('store'),
        connection.consumerid,
        connection.connectionid,
        connection.integrationid,
      );
      return Object.values(data.accounts)
        .slice(0, SAMPLE_ROWS)
        .map((account) => toAccountItem(data, account));
    },
  },
];
