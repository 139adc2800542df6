import type { WorldStore } from '../store/store.js';
import { datasetKey, type LedgerFolder, ledgerKey } from '../store/world.js';
import { seedBanking } from './banking.js';
import { seedCommerceDataset } from './commerce.js';
import { seedInvoicing } from './invoicing.js';
import { seedLedger } from './ledger.js';
import { seedPayment } from './payment.js';
import { seedPmsDataset } from './pms.js';
import { seedPosDataset } from './pos.js';

/** What a connection's dataset is built from, besides the seed. */
export interface ConnectionDatasetArgs {
  consumerid: string;
  connectionid: string;
  integrationid: number;
}

/** What an accounting folder's ledger is built from, besides the seed. */
export interface LedgerArgs {
  consumerid: string;
  integrationid: number;
  unifiedPartners: boolean;
  folder: LedgerFolder;
}

/**
 * The datasets built from the seed the first time they are used, by collection. Each is a pure
 * function of the seed and its arguments, so the world file's journal records the arguments and a
 * replay builds the same dataset again.
 */
export const DATASET_BUILDERS = {
  invoicing_datasets: (seed: number, args: ConnectionDatasetArgs) => seedInvoicing({ seed, ...args }),
  banking_datasets: (seed: number, args: ConnectionDatasetArgs) => seedBanking({ seed, ...args }),
  payment_datasets: (seed: number, args: ConnectionDatasetArgs) => seedPayment({ seed, ...args }),
  pos_datasets: (seed: number, args: ConnectionDatasetArgs) => seedPosDataset({ seed, ...args }),
  commerce_datasets: (seed: number, args: ConnectionDatasetArgs) => seedCommerceDataset({ seed, ...args }),
  pms_datasets: (seed: number, args: ConnectionDatasetArgs) => seedPmsDataset({ seed, ...args }),
  accounting_ledgers: (seed: number, args: LedgerArgs) => seedLedger({ seed, ...args }),
} as const;

type Builders = typeof DATASET_BUILDERS;
export type ConnectionDatasetCollection = Exclude<keyof Builders, 'accounting_ledgers'>;

/** The dataset of a connection in a vertical's collection, built on first use. */
export function connectionDataset<C extends ConnectionDatasetCollection>(
  store: WorldStore,
  collection: C,
  connection: ConnectionDatasetArgs,
): ReturnType<Builders[C]> {
  const args: ConnectionDatasetArgs = {
    consumerid: connection.consumerid,
    connectionid: connection.connectionid,
    integrationid: connection.integrationid,
  };
  const build = DATASET_BUILDERS[collection] as (
    seed: number,
    a: ConnectionDatasetArgs,
  ) => ReturnType<Builders[C]>;
  return store.materialize(collection, datasetKey(args.consumerid, args.connectionid), args, () =>
    build(store.world.meta.seed, args),
  );
}

/** The ledger of an accounting folder, built on first use. */
export function folderLedger(
  store: WorldStore,
  args: LedgerArgs,
): ReturnType<Builders['accounting_ledgers']> {
  return store.materialize('accounting_ledgers', ledgerKey(args.consumerid, args.folder.id), args, () =>
    DATASET_BUILDERS.accounting_ledgers(store.world.meta.seed, args),
  );
}
