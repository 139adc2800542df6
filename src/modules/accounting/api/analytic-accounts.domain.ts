import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type { LedgerAnalyticAccount, LedgerRecord } from '../model/accounting.records.js';
import type {
  AnalyticAccountDraft,
  AnalyticAccountPatch,
  AnalyticFigures,
} from '../model/ledger/analytics.js';
import { requireAnalyticPlan } from '../model/ledger/rules.js';
import type {
  AnalyticAccountInInput,
  AnalyticAccountOut,
  AnalyticAccountUpdateInput,
} from './analytic-accounts.schemas.js';

/** Analytic accounts on the wire, with the figures the ledger derives for them. */

const NO_FIGURES: AnalyticFigures = { debit: 0, credit: 0, balance: 0 };

export function toAnalyticAccount(
  account: LedgerAnalyticAccount,
  figures: Map<string, AnalyticFigures>,
): AnalyticAccountOut {
  const { debit, credit, balance } = figures.get(account.id) ?? NO_FIGURES;
  return {
    id: account.id,
    active: account.active,
    code: account.code,
    name: account.name,
    currency: account.currency,
    balance,
    credit,
    debit,
    analytic_plan: account.plan_id,
  };
}

/** The single-plan shape leaves the plan out. */
export function toMonoAnalyticAccount(account: LedgerAnalyticAccount, figures: Map<string, AnalyticFigures>) {
  const { analytic_plan: _plan, ...rest } = toAnalyticAccount(account, figures);
  return rest;
}

/** Every analytic account, plan by plan (in the plans' order), by code. */
export function listAnalyticAccounts(ledger: LedgerRecord): LedgerAnalyticAccount[] {
  const planOrder = new Map(Object.keys(ledger.analytic_plans).map((id, i) => [id, i]));
  return Object.values(ledger.analytic_accounts).sort(
    (a, b) =>
      (planOrder.get(a.plan_id) ?? 0) - (planOrder.get(b.plan_id) ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.id.localeCompare(b.id),
  );
}

/** An analytic account named in the path: 404 when unknown (or not in the plan the path names). */
export function requireAnalyticAccount(
  ledger: LedgerRecord,
  id: string,
  planId?: string,
): LedgerAnalyticAccount {
  if (planId !== undefined) requireAnalyticPlan(ledger, planId);
  const account = own(ledger.analytic_accounts, id);
  if (!account) {
    throw serviceError('analyticAccountNotFound', `No analytic account with the id '${id}' in the folder`);
  }
  if (planId !== undefined && account.plan_id !== planId) {
    throw serviceError(
      'analyticAccountNotFound',
      `The analytic account '${id}' is not in the plan '${planId}'`,
    );
  }
  return account;
}

export const draftOf = (input: AnalyticAccountInInput): AnalyticAccountDraft => ({
  code: input.code,
  name: input.name,
  currency: input.currency,
  active: input.active ?? true,
});

export function patchOf(input: AnalyticAccountUpdateInput): AnalyticAccountPatch {
  const patch: AnalyticAccountPatch = {};
  if (input.code !== undefined && input.code !== null) patch.code = input.code;
  if (input.name !== undefined && input.name !== null) patch.name = input.name;
  if (input.currency !== undefined && input.currency !== null) patch.currency = input.currency;
  if (input.active !== undefined && input.active !== null) patch.active = input.active;
  return patch;
}
