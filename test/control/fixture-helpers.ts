import type { SandboxApp } from '../../src/app.js';
import { seedCredentials } from '../../src/platform/credentials.js';
import { SEED, tokenFor } from '../helpers.js';

/** What the fixture suites share: a token of the seeded sandbox key, and an accounting invoice. */

export const token = (app: SandboxApp) =>
  tokenFor(app, { accountId: seedCredentials(SEED).accountId, ...seedCredentials(SEED).sandbox });

/** A customer invoice of 100 + 21% VAT on 700000, for a client declared with ref `client`. */
export const invoice = (overrides: Record<string, unknown> = {}, line: Record<string, unknown> = {}) => ({
  invoice_type: 'customer_invoice',
  partner_id: 'client',
  currency: 'EUR',
  invoice_date: '2026-01-05',
  due_date: '2026-02-04',
  untaxed_amount: 100,
  tax_amount: 21,
  total: 121,
  lines: [
    {
      description: 'Consulting',
      unit_price: 100,
      quantity: 1,
      untaxed_amount: 100,
      tax_rate: 21,
      tax_amount: 21,
      total: 121,
      account_number: '700000',
      tax_code: 'V21',
      ...line,
    },
  ],
  ...overrides,
});
