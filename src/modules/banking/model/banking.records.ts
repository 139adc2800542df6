import type { z } from '@hono/zod-openapi';
import type { BankingTransactionStatus, OperationType } from './banking.values.js';

/**
 * The stored records of the Banking vertical: one dataset per (consumer, connection), built from
 * (seed, consumerid, connectionid) the first time the connection is used, and the business the
 * clock has reached since, to the minute (banking.seed.ts). Records hold what the bank stores;
 * balances are computed from the transactions when answering, never stored. Enumerations are the
 * wire's (banking.values.ts, which api/banking.schemas.ts uses too).
 */

export interface BankingInstitution {
  id: string;
  bic: string | null;
  country: string | null;
  name: string;
}

export interface BankingAccount {
  id: string;
  institution_id: string;
  currency: string;
  description: string;
  reference: string;
  reference_type: string;
  holder_name: string | null;
  active: boolean;
  /** Balance before the first transaction; the wire's balances add the transactions. */
  opening_balance: number;
}

export interface BankingTransaction {
  id: string;
  bank_account_id: string;
  amount: number;
  tax_amount: number | null;
  currency: string;
  description: string | null;
  additional_information: string | null;
  counterpart_name: string | null;
  counterpart_reference: string | null;
  remittance_information: string | null;
  creation_date: string;
  value_date: string;
  execution_date: string;
  internal_transaction: boolean;
  operation_type: z.infer<typeof OperationType>;
  last_update_on: string;
  /** Completed transactions move the balance; pending outgoing ones hold the available balance. */
  status: z.infer<typeof BankingTransactionStatus>;
  /** Documents attached (their PDF is drawn from the id and file name when read). */
  attachments: { id: string; filename: string }[];
}

export interface BankingDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  institutions: Record<string, BankingInstitution>;
  accounts: Record<string, BankingAccount>;
  transactions: Record<string, BankingTransaction>;
}

declare module '../../../store/world.js' {
  interface World {
    /** Banking datasets, keyed by datasetKey(consumerid, connectionid); built on first use. */
    banking_datasets: Record<string, BankingDataset>;
  }
}
