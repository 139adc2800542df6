import { z } from '@hono/zod-openapi';
import { own } from '../../../lib/own.js';
import { RefTable } from '../../../platform/fixtures/context.js';
import { type PathPart, ruleError } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { at, belgianIban, fakerFor } from '../../../platform/seeding/finance-fakes.js';
import { round2 } from '../../../platform/seeding/vertical-data.js';
import { verticalFailure } from '../../../platform/vertical-connection.js';
import type { BankingAccount, BankingDataset, BankingTransaction } from '../model/banking.records.js';
import { BankingTransactionStatus, OperationType } from '../model/banking.values.js';
import { bankingDatasetOf } from './banking.domain.js';

/**
 * The Banking block of a connection in the fixture document (`connections[].banking`): accounts of
 * the connection and their transactions, as the bank books them (the API creates none). Balances are
 * not stored: the API computes them from the opening balance and the completed transactions, as for
 * seeded accounts.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

export const BankingTransactionFixture = z
  .object({
    id: kit.id(),
    amount: z.number().describe('Signed, in the currency of the account: positive in, negative out (not 0)'),
    execution_date: kit.instant().describe('When the bank executed it (not after the sandbox clock)'),
    value_date: kit
      .day()
      .optional()
      .describe('The day it is valued (default: the day of execution_date), not before it'),
    operation_type: OperationType.optional().describe(
      'Default: incoming_transfer for an amount in, outgoing_transfer for an amount out',
    ),
    status: BankingTransactionStatus.default('completed').describe(
      'completed moves the balance; pending outgoing holds the available balance',
    ),
    currency: kit.Currency.optional().describe("The account's currency (the only one it takes)"),
    description: z.string().nullable().optional(),
    additional_information: z.string().nullable().optional(),
    counterpart_name: z.string().nullable().optional(),
    counterpart_reference: z.string().nullable().optional(),
    remittance_information: z.string().nullable().optional(),
    tax_amount: z.number().nullable().optional(),
    internal_transaction: z.boolean().default(false),
  })
  .strict();

export const BankingAccountFixture = z
  .object({
    id: kit.id(),
    ref: kit.ref(),
    description: z.string().min(1).describe('e.g. Current account'),
    currency: kit.Currency.default('EUR'),
    institution: z
      .string()
      .optional()
      .describe('A financial institution of the connection: its id or name (default: the first)'),
    reference: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The account's IBAN, unique among the connection's accounts (default: one derived from the id)",
      ),
    reference_type: z.string().min(1).default('IBAN'),
    holder_name: z.string().nullable().optional(),
    active: z.boolean().default(true),
    opening_balance: z
      .number()
      .default(0)
      .describe('The balance before its first transaction: the balances add the completed transactions'),
    transactions: z.array(BankingTransactionFixture).optional(),
  })
  .strict();

export const BankingFixture = z
  .object({
    accounts: kit.list(BankingAccountFixture, 'Bank accounts of the connection'),
    transactions: kit.list(
      BankingTransactionFixture.extend({
        account: z.string().min(1).describe('The account: a ref of this block or an id of the connection'),
      }).strict(),
      'Transactions on an account of the connection (a seeded one, or one of this block)',
    ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** What the block's records are made in: the connection's dataset, and the refs of the accounts. */
type Banking = kit.Maker<BankingDataset> & { readonly accounts: RefTable };
type TransactionIn = z.output<typeof BankingTransactionFixture>;

function bankingTransaction(
  banking: Banking,
  account: BankingAccount,
  record: TransactionIn,
  path: PathPart[],
) {
  const { context, data, failAt } = banking;
  const id = banking.freshId(record.id, path, data.transactions, 'transaction');
  if (record.amount === 0) failAt([...path, 'amount'], 'A transaction moves an amount: 0 is refused');
  if (record.currency !== undefined && record.currency !== account.currency) {
    failAt(
      [...path, 'currency'],
      `The account ${account.id} holds ${account.currency}: a transaction on it is in ${account.currency}, not ${record.currency}`,
    );
  }
  const execution = new Date(record.execution_date).toISOString();
  const now = context.now();
  if (execution > now) {
    failAt([...path, 'execution_date'], `${execution} is after the sandbox clock (${now})`);
  }
  const valueDay = record.value_date ?? execution.slice(0, 10);
  if (valueDay < execution.slice(0, 10)) {
    failAt([...path, 'value_date'], `${valueDay} is before the day of execution_date ${execution}`);
  }
  const transaction: BankingTransaction = {
    id,
    bank_account_id: account.id,
    amount: round2(record.amount),
    tax_amount: record.tax_amount ?? null,
    currency: account.currency,
    description: record.description ?? null,
    additional_information: record.additional_information ?? null,
    counterpart_name: record.counterpart_name ?? null,
    counterpart_reference: record.counterpart_reference ?? null,
    remittance_information: record.remittance_information ?? null,
    creation_date: execution,
    value_date: at(valueDay, 0),
    execution_date: execution,
    internal_transaction: record.internal_transaction,
    operation_type: record.operation_type ?? (record.amount > 0 ? 'incoming_transfer' : 'outgoing_transfer'),
    last_update_on: execution,
    status: record.status,
    attachments: [],
  };
  data.transactions[id] = transaction;
  return id;
}

function bankingAccount(banking: Banking, record: z.output<typeof BankingAccountFixture>, path: PathPart[]) {
  const { context, data } = banking;
  const id = banking.freshId(record.id, path, data.accounts, 'account');
  banking.accounts.declare(record.ref, id, path);
  const institution = banking.namedIn(
    Object.values(data.institutions),
    record.institution,
    [...path, 'institution'],
    'a financial institution of the connection',
  );
  const reference = record.reference ?? belgianIban(fakerFor('fixture-iban', id));
  const key = reference.replace(/\s/g, '').toUpperCase();
  const owner = Object.values(data.accounts).find(
    (a) => a.reference.replace(/\s/g, '').toUpperCase() === key,
  );
  if (owner) {
    ruleError(
      verticalFailure(`The reference '${reference}' is the reference of the account ${owner.id}`),
      null,
      [...path, 'reference'],
      context.file,
    );
  }
  const account: BankingAccount = {
    id,
    institution_id: institution.id,
    currency: record.currency,
    description: record.description,
    reference,
    reference_type: record.reference_type,
    holder_name: record.holder_name ?? null,
    active: record.active,
    opening_balance: round2(record.opening_balance),
  };
  data.accounts[id] = account;
  return id;
}

/** The Banking block of a connection in the fixture document. */
export const bankingFixtures = kit.verticalFixtures(BankingFixture, (scope, _block, out) => {
  const banking: Banking = {
    ...kit.makerOf(scope, kit.datasetOf(scope, bankingDatasetOf)),
    accounts: new RefTable(scope.context),
  };
  const { data, accounts } = banking;
  return {
    accounts: [
      null,
      (record, path) => {
        const id = bankingAccount(banking, record, path);
        const account = own(data.accounts, id) as BankingAccount;
        (record.transactions ?? []).forEach((transaction, index) => {
          out.transactions?.push(
            bankingTransaction(banking, account, transaction, [...path, 'transactions', index]),
          );
        });
        return id;
      },
    ],
    // After an account's own: transactions on an account of the connection, seeded or of the block.
    transactions: [
      null,
      (record, path) => {
        const { account: named, ...transaction } = record;
        const account = own(data.accounts, accounts.resolve(named));
        if (!account) {
          return banking.unknown(
            [...path, 'account'],
            `The account '${named}' does not exist (GET .../banking/accounts lists them)`,
          );
        }
        return bankingTransaction(banking, account, transaction, path);
      },
    ],
  };
});
