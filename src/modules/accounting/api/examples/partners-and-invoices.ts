import { type ExampleSpec, need } from '../../../../platform/examples.js';
import {
  accountingInvoice,
  accountingOf,
  activeClients,
  activeSuppliers,
  belgianIban,
  clientBody,
  freeAnalyticCode,
} from './ledger-reads.js';

/** The examples of the partners, invoices and analytic accounts operations. */
export const partnerAndInvoiceExamples: Record<string, ExampleSpec> = {
  accounting_create_client: {
    path: '/consumers/{consumer_id}/accounting/clients',
    build: (w) => ({ body: clientBody(w, 'client') }),
  },
  accounting_update_client: {
    path: '/consumers/{consumer_id}/accounting/clients/{client_id}',
    build: (w) => {
      const client = need(activeClients(accountingOf(w).ledger)[0], 'an active client');
      return {
        body: { email: 'invoices@client.example', phone: '+32 2 640 11 22', language: 'nl' },
        params: { client_id: client.id },
      };
    },
  },
  accounting_create_supplier: {
    path: '/consumers/{consumer_id}/accounting/suppliers',
    build: (w) => ({ body: clientBody(w, 'supplier') }),
  },
  accounting_update_supplier: {
    path: '/consumers/{consumer_id}/accounting/suppliers/{supplier_id}',
    build: (w) => {
      const supplier = need(activeSuppliers(accountingOf(w).ledger)[0], 'an active supplier');
      return {
        body: { email: 'billing@supplier.example', iban: belgianIban('0016387459') },
        params: { supplier_id: supplier.id },
      };
    },
  },
  accounting_create_invoice: {
    path: '/consumers/{consumer_id}/accounting/invoices',
    build: (w) => ({ body: accountingInvoice(w, 'single') }),
  },
  accounting_create_invoice_multiple_plans: {
    path: '/consumers/{consumer_id}/accounting/invoices/multi-analytic-plans',
    build: (w) => ({ body: accountingInvoice(w, 'multi') }),
  },
  accounting_create_invoices_batch: {
    path: '/consumers/{consumer_id}/accounting/batch/invoices',
    build: (w) => ({ body: { invoices: [accountingInvoice(w, 'single')] } }),
  },
  accounting_create_analytic_account: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts',
    build: (w) => {
      const { ledger, folder } = accountingOf(w);
      const plan = need(
        Object.values(ledger.analytic_plans).find((p) => p.active),
        'an active analytic plan',
      );
      const code = freeAnalyticCode(ledger, plan.id, 'MKT');
      return { body: { code, name: 'Marketing', currency: folder.main_currency, active: true } };
    },
  },
  accounting_create_analytic_account_multi_plans: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/multi-analytic-plans/{analytic_plan}',
    build: (w) => {
      const { ledger, folder } = accountingOf(w);
      const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
      const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
      const code = freeAnalyticCode(ledger, plan.id, 'PRJ-200');
      return {
        body: { code, name: 'Website redesign', currency: folder.main_currency, active: true },
        params: { analytic_plan: plan.id },
      };
    },
  },
  accounting_update_analytic_account: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const plan = Object.values(ledger.analytic_plans).find((p) => p.active);
      const account = need(
        Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan?.id),
        'an analytic account',
      );
      return {
        body: { name: `${account.name} (Belgium)` },
        params: { analytic_account_id: account.id },
      };
    },
  },
  accounting_update_analytic_account_multi_plans: {
    path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}/multi-analytic-plans/{analytic_plan}',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
      const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
      const account = need(
        Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan.id),
        'an analytic account',
      );
      return {
        body: { name: `${account.name} (phase 2)`, active: true },
        params: { analytic_account_id: account.id, analytic_plan: plan.id },
      };
    },
  },
};
