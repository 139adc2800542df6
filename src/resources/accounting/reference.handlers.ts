import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { errors } from '../../lib/errors.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting, requireAccountingConnection } from './accounting.context.js';
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
import type * as routes from './reference.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

const byName = <T extends { name: string; id: string }>(a: T, b: T) =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export const getFolders: Handler<'getFolders'> = (c) => {
  const { folders } = requireAccountingConnection(c, 'accounting_get_folders');
  return c.json(folders.map(toFolderItem), 200);
};

export const getFolder: Handler<'getFolder'> = (c) => {
  const { folders } = requireAccountingConnection(c, 'accounting_get_folder');
  const { folder_id } = c.req.valid('param');
  const folder = folders.find((f) => f.id === folder_id);
  if (!folder) throw errors.accountingFailure(`The folder '${folder_id}' does not exist for this connection`);
  return c.json(toFolderItem(folder), 200);
};

export const getBookyears: Handler<'getBookyears'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_bookyears');
  const { page, size } = c.req.valid('query');
  return c.json(
    paginate(
      ledger.bookyears.map((y) => ({ ...y })),
      page,
      size,
    ),
    200,
  );
};

export const getAnalyticPlans: Handler<'getAnalyticPlans'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_analytic_plans');
  const { page, size } = c.req.valid('query');
  const plans = Object.values(ledger.analytic_plans).map((p) => ({ ...p }));
  return c.json(paginate(plans, page, size), 200);
};

export const getSchemes: Handler<'getSchemes'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_schemes');
  const { page, size } = c.req.valid('query');
  const schemes = Object.values(ledger.schemes).map((s) => ({ ...s }));
  return c.json(paginate(schemes, page, size), 200);
};

export const getVatCodes: Handler<'getVatCodes'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_vat_codes');
  const { page, size } = c.req.valid('query');
  const codes = Object.values(ledger.vat_codes).map(toVatCodeItem);
  return c.json(paginate(codes, page, size), 200);
};

export const getPaymentMethods: Handler<'getPaymentMethods'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_payment_methods');
  const { page, size } = c.req.valid('query');
  const methods = Object.values(ledger.payment_methods)
    .sort(byName)
    .map((m) => ({ id: m.id, name: m.name }));
  return c.json(paginate(methods, page, size), 200);
};

export const getPaymentTerms: Handler<'getPaymentTerms'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_payment_terms');
  const { page, size } = c.req.valid('query');
  const terms = Object.values(ledger.payment_terms)
    .sort((a, b) => a.days - b.days || Number(a.end_of_month) - Number(b.end_of_month))
    .map((t) => ({ id: t.id, name: t.name }));
  return c.json(paginate(terms, page, size), 200);
};

export const getJournals: Handler<'getJournals'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_journals');
  const { page, size } = c.req.valid('query');
  const journals = Object.values(ledger.journals)
    .sort((a, b) => a.code.localeCompare(b.code))
    .map((j) => toJournalItem(ledger, j));
  return c.json(paginate(journals, page, size), 200);
};

export const createJournalHandler: Handler<'createJournal'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_journal');
  const journal = createJournal(ledger, c.req.valid('json'), postingContext(c));
  c.set('createdEntityId', journal.id);
  return c.json(toJournalItem(ledger, journal), 200);
};

export const getChartOfAccounts: Handler<'getChartOfAccounts'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_chart_of_accounts');
  const { page, size, classes, type } = c.req.valid('query');
  return c.json(paginate(chartOfAccounts(ledger, { classes, type }).map(toAccountItem), page, size), 200);
};

export const getAccountsBalances: Handler<'getAccountsBalances'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_accounts_balances');
  const { page, size } = c.req.valid('query');
  return c.json(paginate(balancesFor(ledger, c.req.valid('json')), page, size), 200);
};

export const createLedgerAccountHandler: Handler<'createLedgerAccount'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_ledger_account');
  const account = createLedgerAccount(ledger, c.req.valid('json'));
  c.set('createdEntityId', account.number);
  return c.json(toAccountItem(account), 200);
};
