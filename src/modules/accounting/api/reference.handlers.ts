import { errors } from '../../../lib/errors.js';
import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { accountingFolders, accountingLedger } from './accounting.context.js';
import {
  balancesFor,
  chartOfAccounts,
  createJournal,
  createLedgerAccount,
  toAccountItem,
  toFolderItem,
  toJournalItem,
  toVatCodeItem,
} from './reference.domain.js';
import * as routes from './reference.routes.js';

const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export const getFolders = operation(accountingFolders, routes.getFolders, (c, { data: { folders } }) =>
  c.json(folders.map(toFolderItem), 200),
);

export const getFolder = operation(accountingFolders, routes.getFolder, (c, { data: { folders } }) => {
  const { folder_id } = c.req.valid('param');
  const folder = folders.find((f) => f.id === folder_id);
  if (!folder) throw errors.accountingFailure(`The folder '${folder_id}' does not exist for this connection`);
  return c.json(toFolderItem(folder), 200);
});

export const getBookyears = operation(accountingLedger, routes.getBookyears, (c, { data: { ledger } }) => {
  const { page, size } = c.req.valid('query');
  return c.json(
    paginate(
      ledger.bookyears.map((y) => ({ ...y })),
      page,
      size,
    ),
    200,
  );
});

export const getAnalyticPlans = operation(
  accountingLedger,
  routes.getAnalyticPlans,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const plans = Object.values(ledger.analytic_plans).map((p) => ({ ...p }));
    return c.json(paginate(plans, page, size), 200);
  },
);

export const getSchemes = operation(accountingLedger, routes.getSchemes, (c, { data: { ledger } }) => {
  const { page, size } = c.req.valid('query');
  const schemes = Object.values(ledger.schemes).map((s) => ({ ...s }));
  return c.json(paginate(schemes, page, size), 200);
});

export const getVatCodes = operation(accountingLedger, routes.getVatCodes, (c, { data: { ledger } }) => {
  const { page, size } = c.req.valid('query');
  const codes = Object.values(ledger.vat_codes).map(toVatCodeItem);
  return c.json(paginate(codes, page, size), 200);
});

export const getPaymentMethods = operation(
  accountingLedger,
  routes.getPaymentMethods,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const methods = Object.values(ledger.payment_methods)
      .sort(byName)
      .map((m) => ({ id: m.id, name: m.name }));
    return c.json(paginate(methods, page, size), 200);
  },
);

export const getPaymentTerms = operation(
  accountingLedger,
  routes.getPaymentTerms,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const terms = Object.values(ledger.payment_terms)
      .sort((a, b) => a.days - b.days || Number(a.end_of_month) - Number(b.end_of_month))
      .map((t) => ({ id: t.id, name: t.name }));
    return c.json(paginate(terms, page, size), 200);
  },
);

export const getJournals = operation(accountingLedger, routes.getJournals, (c, { data: { ledger } }) => {
  const { page, size } = c.req.valid('query');
  const journals = Object.values(ledger.journals)
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((j) => toJournalItem(ledger, j));
  return c.json(paginate(journals, page, size), 200);
});

export const createJournalHandler = operation(
  accountingLedger,
  routes.createJournal,
  (c, { data: { ledger } }) => {
    const journal = createJournal(ledger, c.req.valid('json'), writeContext(c));
    c.set('createdEntityId', journal.id);
    return c.json(toJournalItem(ledger, journal), 200);
  },
);

export const getChartOfAccounts = operation(
  accountingLedger,
  routes.getChartOfAccounts,
  (c, { data: { ledger } }) => {
    const { page, size, classes, type } = c.req.valid('query');
    return c.json(paginate(chartOfAccounts(ledger, { classes, type }).map(toAccountItem), page, size), 200);
  },
);

export const getAccountsBalances = operation(
  accountingLedger,
  routes.getAccountsBalances,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    return c.json(paginate(balancesFor(ledger, c.req.valid('json')), page, size), 200);
  },
);

export const createLedgerAccountHandler = operation(
  accountingLedger,
  routes.createLedgerAccount,
  (c, { data: { ledger } }) => {
    const account = createLedgerAccount(ledger, c.req.valid('json'));
    c.set('createdEntityId', account.number);
    return c.json(toAccountItem(account), 200);
  },
);
