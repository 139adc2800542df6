import { errors, serviceError } from '../../../../lib/errors.js';
import { own } from '../../../../lib/own.js';
import type { LedgerAnalyticAccount, LedgerAnalyticPlan, LedgerRecord } from '../accounting.records.js';
import { fromCents, inMainCurrency, toCents } from './money.js';
import type { LedgerChange, PostingContext } from './posting.js';
import { assertCurrency, requireAnalyticPlan } from './rules.js';

/**
 * Analytic accounts: their figures are computed from the analytic distributions of the posted entry
 * lines (an invoice line split 60/40 over two departments gives each 60 % and 40 % of the line), and
 * their writes are checked here like every other posting.
 */

const fail = errors.accountingFailure;

export interface AnalyticFigures {
  debit: number;
  credit: number;
  /** debit - credit, as the balances of general accounts. */
  balance: number;
}

/**
 * Debit, credit and balance of every analytic account, in the folder's main currency, from the posted
 * lines: each account takes its percentage of each line it is in, rounded to the cent.
 */
export function analyticFigures(ledger: LedgerRecord): Map<string, AnalyticFigures> {
  const cents = new Map<string, { d: number; c: number }>();
  for (const entry of Object.values(ledger.entries)) {
    if (!entry.posted) continue;
    for (const line of entry.lines) {
      if (line.analytic_distribution.length === 0) continue;
      const debit = toCents(inMainCurrency(line.debit, entry.currency_exchange_rate));
      const credit = toCents(inMainCurrency(line.credit, entry.currency_exchange_rate));
      for (const distribution of line.analytic_distribution) {
        for (const part of distribution.analytic_accounts) {
          const total = cents.get(part.analytic_account) ?? { d: 0, c: 0 };
          total.d += Math.round((debit * part.percentage) / 100);
          total.c += Math.round((credit * part.percentage) / 100);
          cents.set(part.analytic_account, total);
        }
      }
    }
  }
  const out = new Map<string, AnalyticFigures>();
  for (const [id, { d, c }] of cents) {
    out.set(id, { debit: fromCents(d), credit: fromCents(c), balance: fromCents(d - c) });
  }
  return out;
}

/**
 * The plan of the single-plan operations: the folder's first active plan. (Single-plan invoices and
 * lists take accounts of any plan, each standing for 100 % of its own plan; only a new account needs
 * a plan to go to.)
 */
export function mainAnalyticPlan(ledger: LedgerRecord): LedgerAnalyticPlan {
  const plan = Object.values(ledger.analytic_plans).find((p) => p.active);
  if (!plan) throw fail('The folder has no active analytic plan to add an analytic account to');
  return plan;
}

export interface AnalyticAccountDraft {
  code: string;
  name: string;
  currency: string;
  active: boolean;
}

export type AnalyticAccountPatch = Partial<AnalyticAccountDraft>;

/** Codes are unique within a plan (whatever their case). */
function assertCodeFree(
  ledger: LedgerRecord,
  planId: string,
  code: string,
  selfId: string | undefined,
): void {
  const taken = Object.values(ledger.analytic_accounts).some(
    (a) => a.plan_id === planId && a.id !== selfId && a.code.toUpperCase() === code.toUpperCase(),
  );
  if (taken) {
    const plan = own(ledger.analytic_plans, planId);
    throw serviceError(
      'analyticAccountAlreadyExists',
      `An analytic account already exists with the code '${code}' in the plan '${plan?.name ?? planId}'`,
    );
  }
}

function assertFields(fields: AnalyticAccountPatch): void {
  if (fields.currency !== undefined) assertCurrency(fields.currency, null);
}

/** Codes and names are kept trimmed; one of spaces only is kept as given. */
const trimmed = (value: string) => value.trim() || value;

/** A new analytic account in an active plan, with a code not used in that plan. */
export function buildAnalyticAccount(
  ledger: LedgerRecord,
  planId: string,
  draft: AnalyticAccountDraft,
  ctx: PostingContext,
): { account: LedgerAnalyticAccount; change: LedgerChange } {
  const plan = requireAnalyticPlan(ledger, planId);
  if (!plan.active) throw fail(`The analytic plan '${plan.name}' is not active`);
  assertFields(draft);
  const code = trimmed(draft.code);
  assertCodeFree(ledger, plan.id, code, undefined);
  const account: LedgerAnalyticAccount = {
    id: ctx.mint('accounting-analytic-account'),
    plan_id: plan.id,
    code,
    name: trimmed(draft.name),
    active: draft.active,
    currency: draft.currency,
  };
  return { account, change: { analytic_accounts: [account] } };
}

/** The fields given replace the account's; a code stays unique in its plan. */
export function buildAnalyticAccountUpdate(
  ledger: LedgerRecord,
  account: LedgerAnalyticAccount,
  patch: AnalyticAccountPatch,
): { account: LedgerAnalyticAccount; change: LedgerChange } {
  assertFields(patch);
  const code = patch.code === undefined ? undefined : trimmed(patch.code);
  if (code !== undefined) assertCodeFree(ledger, account.plan_id, code, account.id);
  const updated: LedgerAnalyticAccount = {
    ...account,
    code: code ?? account.code,
    name: patch.name === undefined ? account.name : trimmed(patch.name),
    currency: patch.currency ?? account.currency,
    active: patch.active ?? account.active,
  };
  return { account: updated, change: { analytic_accounts: [updated] } };
}
