import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { applyChange } from '../model/ledger/posting.js';
import { buildBankAccount, buildBankStatement } from '../model/ledger/treasury.js';
import { accountingLedger } from './accounting.context.js';
import {
  bankAccountDraftOf,
  listBankAccounts,
  statementDraftOf,
  toBankAccountItem,
  toStatementOut,
} from './bank.domain.js';
import * as routes from './bank.routes.js';

export const getBankAccounts = operation(
  accountingLedger,
  routes.getBankAccounts,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const accounts = listBankAccounts(ledger).map((j) => toBankAccountItem(ledger, j));
    return c.json(paginate(accounts, page, size), 200);
  },
);

export const createBankAccount = operation(
  accountingLedger,
  routes.createBankAccount,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { journal, change } = buildBankAccount(ledger, bankAccountDraftOf(c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', journal.id);
    return c.json(toBankAccountItem(ledger, journal), 200);
  },
);

export const createBankTransactions = operation(
  accountingLedger,
  routes.createBankTransactions,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const input = c.req.valid('json');
    const { statement, entries, change } = buildBankStatement(ledger, statementDraftOf(input), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', statement.id);
    return c.json(toStatementOut(input, statement.id, entries), 200);
  },
);
