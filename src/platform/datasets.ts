import { type LedgerFolder, ledgerKey } from '../modules/accounting/accounting.records.js';
import { seedLedger } from '../modules/accounting/accounting.seed.js';
import { seedBanking } from '../modules/banking/banking.seed.js';
import { seedCommerceDataset } from '../modules/commerce/commerce.seed.js';
import { seedInvoicing } from '../modules/invoicing/invoicing.seed.js';
import { seedPayment } from '../modules/payment/payment.seed.js';
import { seedPmsDataset } from '../modules/pms/pms.seed.js';
import { seedPosDataset } from '../modules/pos/pos.seed.js';
import type { WorldStore } from '../store/store.js';
import { datasetKey } from '../store/world.js';

/** What a connection's dataset is built from, besides the seed. */
export interface ConnectionDatasetArgs {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /**
   * The sandbox clock's day when the dataset was first used (YYYY-MM-DD): its history runs from
   * January 2021 up to it. World files written before it existed replay with the default start's day.
   */
  until?: string;
}

// The day of the default manual clock, what datasets were seeded up to before `until` existed: defined
// with the seeders' base (which this module's builders import), so that they need not import it back.
export { LEGACY_UNTIL } from './seeding/dataset-seeder.js';

/** What an accounting folder's ledger is built from, besides the seed. */
export interface LedgerArgs {
  consumerid: string;
  integrationid: number;
  unifiedPartners: boolean;
  folder: LedgerFolder;
  /** As ConnectionDatasetArgs.until. */
  until?: string;
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
    until: store.today(),
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
  const dated: LedgerArgs = { ...args, until: args.until ?? store.today() };
  return store.materialize('accounting_ledgers', ledgerKey(args.consumerid, args.folder.id), dated, () =>
    DATASET_BUILDERS.accounting_ledgers(store.world.meta.seed, dated),
  );
}
