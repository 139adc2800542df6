import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerBankingClientRoutes } from './api/banking.client-routes.js';
import { bankingExamples } from './api/banking.examples.js';
import { bankingFixtures } from './api/banking.fixtures.js';
import * as h from './api/banking.handlers.js';
import { bankingSamples } from './api/banking.samples.js';
import type { BankingDataset } from './model/banking.records.js';
import { bankingDatasetBuild } from './world/banking.living.js';

/**
 * The Banking vertical under /consumers/{consumer_id}/banking: read-only, over the dataset of the
 * consumer's active Banking connection, seeded on first use (banking.seed.ts). Its business goes on
 * with the clock: every business day after the first use adds its transactions as they are made
 * (liveBankingDays).
 */
export function registerBanking(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    h.getFinancialInstitutions,
    h.getAccounts,
    h.getAccountTransactions,
    h.getAccountCounterparts,
    h.getAttachments,
    h.getOpeningBalance,
  ]);
  registerBankingClientRoutes(app);
}

/** The Banking vertical, as the app composes it (src/verticals.ts). */
export const bankingModule: VerticalModule<BankingDataset, ConnectionDatasetArgs> = {
  key: 'banking',
  ...oneApi('Banking'),
  envName: 'BANKING',
  showcase: 10000,
  collection: 'banking_datasets',
  build: bankingDatasetBuild,
  register: registerBanking,
  fixtures: bankingFixtures,
  samples: bankingSamples,
  examples: bankingExamples,
  lives: true,
};
