import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { FixtureError, loadFixtures } from '../../src/control/fixtures.control.js';
import { AnalyticAccountItemOut } from '../../src/modules/accounting/api/analytic-accounts.schemas.js';
import { ServicePage_BankAccountItemOut_ } from '../../src/modules/accounting/api/bank.schemas.js';
import {
  JournalEntryMultiAnalyticPlan,
  OutstandingItem,
} from '../../src/modules/accounting/api/entries.schemas.js';
import { InvoicingPaymentItem, OpportunityItem } from '../../src/modules/invoicing/api/invoicing.schemas.js';
import { PayoutItemOut, TransactionItemOut } from '../../src/modules/payment/api/payment.schemas.js';
import { POSOrderItem } from '../../src/modules/pos/api/pos.schemas.js';
import { SyncConsumerItem } from '../../src/modules/syncs/syncs.schemas.js';
import { call, SEED } from '../helpers.js';
import { invoice, token } from './fixture-helpers.js';

/**
 * The record kinds a fixture declares beyond the first ones (docs/fixtures.md): accounting analytic
 * accounts, invoice payments, expenses, matchings, bank accounts and statements, invoicing payments
 * and opportunities, PMS guests, POS order discounts and modifiers, payment payouts, and consumers set
 * up for a sync. Each is loaded, then read back through the API, and refused once
 * with the JSON path and the API's rule.
 */

/** An expense note of 100 + 21% VAT on 612000. */
const expense = (employee: string) => ({
  employee_id: employee,
  total: 121,
  untaxed_amount: 100,
  tax_amount: 21,
  reference: 'Train to Gent',
  currency: 'EUR',
  date: '2026-01-08',
  lines: [
    {
      total: 121,
      untaxed_amount: 100,
      tax_amount: 21,
      description: 'Train tickets',
      account_number: '610000',
      tax_rate: 21,
      tax_id: 'A21',
    },
  ],
});

/** A consumer on Odoo with a client `client` and the accounting records given. */
const accountingDoc = (accounting: Record<string, unknown>) => ({
  consumers: [
    {
      name: 'Books & Co',
      connections: [
        {
          integration: 1000,
          accounting: { clients: [{ ref: 'client', name: 'Client One', addresses: [] }], ...accounting },
        },
      ],
    },
  ],
});

function refusal(load: () => unknown): FixtureError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return error as FixtureError;
  }
  throw new Error('the fixture was not refused');
}

const refusedAccounting = (accounting: Record<string, unknown>) =>
  refusal(() => createApp({ seed: SEED, fixtures: accountingDoc(accounting) }));

const AT = 'consumers[0].connections[0].accounting';

describe('accounting records', () => {
  it('analytic accounts, invoice payments, expenses and matchings, as the API then answers them', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(
      app,
      accountingDoc({
        analytic_accounts: [
          { ref: 'bakery', code: 'BAKERY', name: 'Bakery', currency: 'EUR' },
          { ref: 'p200', code: 'PRJ-200', name: 'Project 200', currency: 'EUR', analytic_plan: 'projects' },
        ],
        invoices: [
          invoice({ ref: 'paid-in-part' }, { analytic_account: 'bakery' }),
          invoice({ ref: 'settled' }, { analytic_account: 'PRJ-200' }),
        ],
        journal_entries: [
          {
            ref: 'transfer',
            journal_id: 'OD',
            number: 'OD/2026/9100',
            currency: 'EUR',
            date: '2026-01-09',
            items: [
              { account_type: 'general_account', account: '550000', debit: 121, credit: 0 },
              { account_type: 'customer_account', account: 'client', debit: 0, credit: 121 },
            ],
          },
        ],
        invoice_payments: [
          {
            date: '2026-01-10',
            payment_method_id: 'Bank transfer',
            currency: 'EUR',
            items: [{ invoice_id: 'paid-in-part', amount: 21 }],
          },
        ],
        expenses: [expense('EMP-001')],
        matchings: [{ entries: ['settled', 'transfer'], partner_id: 'client' }],
      }),
    );
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.accounting ?? {};
    expect(records.analytic_accounts).toHaveLength(2);
    expect(records.invoice_payments).toHaveLength(1);
    expect(records.matchings).toEqual([expect.stringMatching(/^M\d{6}$/)]);
    const base = `/consumers/${consumer}/accounting`;
    const bearer = await token(app);
    const get = async (path: string) => {
      const res = await call(app, 'GET', `${base}${path}`, { token: bearer });
      expect(res.status, path).toBe(200);
      return res.body;
    };

    // The analytic accounts: in their plans, with the figures of the invoice lines they carry.
    const [bakeryId, projectId] = records.analytic_accounts as string[];
    const bakery = AnalyticAccountItemOut.parse(await get(`/analytic-accounts/${bakeryId}`));
    expect(bakery).toMatchObject({ code: 'BAKERY', debit: 0, credit: 100, balance: -100 });
    const plans = (await get('/analytic-plans')) as { items: { id: string; name: string }[] };
    const projects = plans.items.find((p) => p.name === 'Projects');
    const project = await get(`/analytic-accounts/${projectId}/multi-analytic-plans/${projects?.id}`);
    expect(project).toMatchObject({ code: 'PRJ-200', analytic_plan: projects?.id, credit: 100 });

    // The payment leaves 100 of 121 open; the matching settles the other invoice in full.
    const [partly, settled] = records.invoices as string[];
    const outstandings = (await get('/outstandings?type=client&unposted_allowed=false&size=100')) as {
      items: unknown[];
    };
    const open = outstandings.items.map((item) => OutstandingItem.parse(item));
    const ofInvoice = (id: string | undefined) =>
      open.filter((item) => item.original_document?.id === id || item.id === id);
    const paidInPart = (await get(`/invoices/${partly}?include_payments=true`)) as {
      status: string;
      payments: { amount: number; dedicated_amount: number }[];
    };
    expect(paidInPart.status).toBe('posted');
    expect(paidInPart.payments).toMatchObject([{ dedicated_amount: 21 }]);
    expect(ofInvoice(partly).map((item) => item.open_amount)).toEqual([100]);
    expect((await get(`/invoices/${settled}`)).status).toBe('paid');
    expect(ofInvoice(settled)).toEqual([]);

    // The expense: a posted entry, the expense and its VAT debited, the employee credited the total.
    const [expenseId] = records.expenses as string[];
    const entry = JournalEntryMultiAnalyticPlan.parse(await get(`/journal/entries/${expenseId}`));
    expect(entry).toMatchObject({ reference: 'Train to Gent', posted: true, date: '2026-01-08' });
    const lines = (entry.items ?? []).map((i) => [i.account_number, i.debit, i.credit]);
    expect(lines).toContainEqual(['610000', 100, 0]);
    expect(lines.filter(([, , credit]) => credit === 121)).toHaveLength(1);
  });

  it('refusals: each new kind at its JSON path, with the API rule', () => {
    const duplicate = refusedAccounting({
      analytic_accounts: [{ code: 'sales', name: 'Sales again', currency: 'EUR' }],
    });
    expect(duplicate.path).toBe(`${AT}.analytic_accounts[0].code`);
    expect(duplicate.detail).toBe(
      "An analytic account already exists with the code 'sales' in the plan 'Departments'",
    );

    const noPlan = refusedAccounting({
      analytic_accounts: [{ code: 'X', name: 'X', currency: 'EUR', analytic_plan: 'Regions' }],
    });
    expect(noPlan.path).toBe(`${AT}.analytic_accounts[0].analytic_plan`);
    expect(noPlan.detail).toBe("The analytic plan 'Regions' does not exist");

    const overpaid = refusedAccounting({
      invoices: [invoice({ ref: 'one' })],
      invoice_payments: [
        {
          date: '2026-01-10',
          payment_method_id: 'Bank transfer',
          currency: 'EUR',
          items: [{ invoice_id: 'one', amount: 200 }],
        },
      ],
    });
    expect(overpaid.path).toBe(`${AT}.invoice_payments[0].items[0]`);
    expect(overpaid.detail).toMatch(/^items\[0\]: 200 is more than the open amount 121 of /);

    const inactive = refusedAccounting({ expenses: [expense('EMP-003')] });
    expect(inactive.path).toBe(`${AT}.expenses[0]`);
    expect(inactive.detail).toMatch(/^The employee '.+' is not active$/);

    const sameSide = refusedAccounting({
      invoices: [invoice({ ref: 'a' }), invoice({ ref: 'b' })],
      matchings: [{ entries: ['a', 'b'], partner_id: 'client' }],
    });
    expect(sameSide.path).toBe(`${AT}.matchings[0]`);
    expect(sameSide.errorCode).toBe('ERROR_AMOUNTS_NOT_BALANCED');
  });
});

describe('accounting bank accounts and statements', () => {
  /** A statement of the KBC account: the client pays its invoice, the bank takes a fee and its VAT. */
  const statement = (items: Record<string, unknown>[] = []) => ({
    bank_account_id: 'kbc',
    bank_statement_date: '2026-01-12',
    currency: 'EUR',
    external_bank_statement_id: 'KBC-2026-01',
    items: [
      {
        description: 'Client One pays',
        amount: 121,
        external_transaction_id: 'T1',
        counterpart: { counterpart_type: 'customer', id: 'client' },
      },
      {
        description: 'Account fee',
        amount: -2.42,
        fee_amount: 2,
        tax_amount: 0.42,
        external_transaction_id: 'T2',
      },
      ...items,
    ],
  });
  const kbc = {
    ref: 'kbc',
    code: 'KBC2',
    currency: 'EUR',
    account_name: 'KBC savings',
    iban: 'be68 5390 0754 7034',
    bank_name: 'KBC',
  };

  it('a bank account is listed, and its statement books one posted entry per transaction', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(
      app,
      accountingDoc({ bank_accounts: [kbc], invoices: [invoice()], bank_statements: [statement()] }),
    );
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.accounting ?? {};
    expect(records.bank_statements).toHaveLength(1);
    const [accountId] = records.bank_accounts ?? [];
    const base = `/consumers/${consumer}/accounting`;
    const bearer = await token(app);
    const accounts = await call(app, 'GET', `${base}/bank-accounts`, { token: bearer });
    expect(accounts.status).toBe(200);
    const account = ServicePage_BankAccountItemOut_.parse(accounts.body).items.find(
      (a) => a.id === accountId,
    );
    // A bank journal on the next free 55xx00 account.
    expect(account).toMatchObject({ code: 'KBC2', iban: 'BE68539007547034', ledger_account: '550200' });

    const entries = await call(
      app,
      'GET',
      `${base}/journal/entries?journal_id=${accountId}&unposted_allowed=false&size=100`,
      { token: bearer },
    );
    expect(entries.status).toBe(200);
    const booked = (entries.body.items as unknown[]).map((item) => JournalEntryMultiAnalyticPlan.parse(item));
    expect(booked.map((e) => [e.reference, e.posted, e.date])).toEqual(
      expect.arrayContaining([
        ['T1', true, '2026-01-12'],
        ['T2', true, '2026-01-12'],
      ]),
    );
    const lines = booked.flatMap((e) => (e.items ?? []).map((i) => [i.account_number, i.debit, i.credit]));
    expect(lines).toEqual(
      expect.arrayContaining([
        ['550200', 121, 0],
        ['550200', 0, 2.42],
        ['657000', 2, 0],
        ['411000', 0.42, 0],
      ]),
    );
    // The bank account's ledger account holds the statement's net: 121 - 2.42.
    const balance = await call(app, 'POST', `${base}/chart-of-accounts/balance`, {
      token: bearer,
      body: { accounts: ['550200'], end: '202612' },
    });
    expect(balance.body.items[0].balance).toBeCloseTo(118.58, 2);
  });

  it('refusals: a bank code already used, a transaction imported twice', () => {
    const taken = refusedAccounting({ bank_accounts: [{ ...kbc, code: 'BNK' }] });
    expect(taken.path).toBe(`${AT}.bank_accounts[0].code`);
    expect(taken.errorCode).toBe('ERROR_BANK_CODE_ALREADY_USED');

    const twice = refusedAccounting({
      bank_accounts: [kbc],
      bank_statements: [statement([{ description: 'Again', amount: 5, external_transaction_id: 'T1' }])],
    });
    expect(twice.path).toBe(`${AT}.bank_statements[0].items[2].external_transaction_id`);
    expect(twice.detail).toBe("items[2]: the transaction 'T1' was already imported on 'KBC2'");
  });
});

/** A consumer on Evoliz with a contact `acme`, a posted invoice `inv` of 1936 and the records given. */
const invoicingDoc = (invoicing: Record<string, unknown>) => ({
  consumers: [
    {
      name: 'Studio',
      connections: [
        {
          integration: 7010,
          invoicing: {
            contacts: [{ ref: 'acme', company_name: 'Acme SA', is_customer: true }],
            invoices: [
              {
                ref: 'inv',
                invoice_type: 'customer_invoice',
                status: 'posted',
                currency: 'EUR',
                invoice_date: '2026-01-07',
                partner_id: 'acme',
                untaxed_amount: 1600,
                tax_amount: 336,
                total: 1936,
                lines: [
                  {
                    description: 'Consulting day',
                    unit_price: 800,
                    quantity: 2,
                    untaxed_amount: 1600,
                    tax_rate: 21,
                    tax_amount: 336,
                    total: 1936,
                  },
                ],
              },
            ],
            ...invoicing,
          },
        },
      ],
    },
  ],
});

describe('invoicing records', () => {
  it('payments lower the open amount; opportunities are listed as the software keeps them', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(
      app,
      invoicingDoc({
        payments: [
          { invoice_id: 'inv', amount: 1000, date: '2026-01-09', currency: 'EUR', payment_method_id: 'cash' },
        ],
        opportunities: [
          { name: 'Website redesign', total: 12000, partner_id: 'acme', created_date: '2026-01-02' },
          { name: 'Support contract', total: 4800, status: 'won', created_date: '2025-12-01' },
        ],
      }),
    );
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.invoicing ?? {};
    const bearer = await token(app);
    const base = `/consumers/${consumer}/invoicing`;
    const got = await call(app, 'GET', `${base}/invoices/${records.invoices?.[0]}`, { token: bearer });
    expect(got.body).toMatchObject({ status: 'posted', outstanding_amount: 936 });
    const payments = await call(app, 'GET', `${base}/payments?size=100`, { token: bearer });
    const payment = (payments.body.items as unknown[])
      .map((item) => InvoicingPaymentItem.parse(item))
      .find((p) => p.id === records.payments?.[0]);
    expect(payment).toMatchObject({
      amount: 1000,
      invoice_id: records.invoices?.[0],
      // Named as the Belgian software names it, the French one's 'Espèces'.
      payment_method_name: 'Espèces',
    });

    const [redesign, support] = records.opportunities ?? [];
    const first = await call(app, 'GET', `${base}/opportunities/${redesign}`, { token: bearer });
    expect(OpportunityItem.parse(first.body)).toMatchObject({
      name: 'Website redesign',
      status: 'open',
      // Open at the first stage of the pipeline, with that stage's chance, as seeded ones are.
      pipe_status: 'Qualification',
      probability: 20,
      partner_id: records.contacts?.[0],
      created_date: '2026-01-02',
      due_date: '2026-02-16',
      end_date: null,
      is_won: null,
    });
    const won = await call(app, 'GET', `${base}/opportunities/${support}`, { token: bearer });
    expect(won.body).toMatchObject({ status: 'won', probability: 100, is_won: true, pipe_status: 'Won' });
    const list = await call(app, 'GET', `${base}/opportunities?size=100`, { token: bearer });
    expect((list.body.items as { id: string }[]).map((o) => o.id)).toEqual(
      expect.arrayContaining([redesign, support]),
    );
  });

  it('refusals: a payment of a draft invoice, an open opportunity with an end date', () => {
    const draft = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: invoicingDoc({
          invoices: [
            {
              ref: 'draft',
              invoice_type: 'customer_invoice',
              status: 'draft',
              currency: 'EUR',
              invoice_date: '2026-01-07',
              partner_id: 'acme',
              untaxed_amount: 0,
              tax_amount: 0,
              total: 0,
            },
          ],
          payments: [{ invoice_id: 'draft', amount: 10, date: '2026-01-09', currency: 'EUR' }],
        }),
      }),
    );
    expect(draft.path).toBe('consumers[0].connections[0].invoicing.payments[0]');
    expect(draft.detail).toMatch(/is draft: only a posted invoice can be paid$/);

    const open = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: invoicingDoc({ opportunities: [{ name: 'Open', total: 10, end_date: '2026-01-02' }] }),
      }),
    );
    expect(open.path).toBe('consumers[0].connections[0].invoicing.opportunities[0].end_date');
    expect(open.detail).toBe('An open opportunity has no end_date: it is not closed');
  });
});

const SYNC = {
  name: 'Orders to invoices',
  connections: [
    { one_api: 3, connection_type: 1 },
    { one_api: 4, connection_type: 2, display_order: 1 },
  ],
  flows: [
    {
      name: 'Create invoices',
      execution: { type: 'code', data: { code: 'return 1;' } },
      config: { definitionFields: [{ name: 'prefix', type: 'string' }] },
      triggers: [{ id: 'trigger-1', type: 'event' }],
    },
    {
      name: 'Hourly check',
      execution: { type: 'module', data: { name: 'check' } },
      triggers: [{ id: 'trigger-1', type: 'timer', cronschedules: ['0 * * * *'] }],
    },
  ],
};

describe('consumers set up for a sync', () => {
  it('the consumer is set up and its flows enabled, as GET /consumers/{id}/syncs/{syncid} shows', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, {
      consumers: [{ ref: 'shop', name: 'Shop One' }],
      syncs: [
        {
          ...SYNC,
          consumers: [
            {
              consumer: 'shop',
              link_metadata: { plan: 'pro' },
              flows: [{ flow: 'create invoices', data: { prefix: 'WEB-' } }, { flow: 'Hourly check' }],
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const [sync] = result.syncs;
    expect(sync?.consumers).toEqual([consumer]);
    const bearer = await token(app);
    const res = await call(app, 'GET', `/consumers/${consumer}/syncs/${sync?.syncid}`, { token: bearer });
    expect(res.status).toBe(200);
    const setup = SyncConsumerItem.parse(res.body);
    expect(setup.link_metadata).toEqual({ plan: 'pro' });
    expect(setup.enabled_flows?.map((f) => [f.id, f.name, f.values, f.trigger.cronschedule ?? null])).toEqual(
      [
        [sync?.flows[0], 'Create invoices', { prefix: 'WEB-' }, null],
        [sync?.flows[1], 'Hourly check', {}, '0 * * * *'],
      ],
    );
    const listed = await call(app, 'GET', `/syncs/${sync?.syncid}`, { token: bearer });
    expect(listed.body.consumers).toEqual([consumer]);
  });

  it('refusals: an unknown flow, a value of the wrong type', () => {
    const load = (flows: unknown[]) =>
      refusal(() =>
        createApp({
          seed: SEED,
          fixtures: {
            consumers: [{ ref: 'shop', name: 'Shop One' }],
            syncs: [{ ...SYNC, consumers: [{ consumer: 'shop', flows }] }],
          },
        }),
      );
    const unknown = load([{ flow: 'Nightly export' }]);
    expect(unknown.path).toBe('syncs[0].consumers[0].flows[0]');
    expect(unknown.apiStatus).toBe(404);
    expect(unknown.status).toBe(400);

    const wrongType = load([{ flow: 'Create invoices', data: { prefix: 12 } }]);
    expect(wrongType.path).toMatch(/^syncs\[0\]\.consumers\[0\]\.flows\[0\]/);
    expect(wrongType.status).toBe(422);
  });
});

/** A consumer of the hotel software with the pms block given. */
const pmsDoc = (pms: Record<string, unknown>) => ({
  consumers: [{ name: 'Hotelier', connections: [{ integration: 9503, pms }] }],
});

const stay = (customer: string) => ({
  customer,
  check_in: '2026-01-12T15:00:00Z',
  check_out: '2026-01-14T10:00:00Z',
  lines: [{ description: 'Single room, night', quantity: 2, unit_price: 90, tax: 10, category: 'ROOM' }],
});

describe('pms guests', () => {
  it('a guest is listed with its derived account number, and a stay names it by ref', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(
      app,
      pmsDoc({
        customers: [
          {
            ref: 'marie',
            first_name: 'Marie',
            last_name: 'Dubois',
            email: 'marie.dubois@example.com',
            country: 'fr',
            city: 'Lille',
          },
          { company_name: 'Acme Travel', account_number: 'C-9001' },
        ],
        orders: [stay('marie'), stay('C-9001')],
      }),
    );
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.pms ?? {};
    const bearer = await token(app);
    const [marie, acme] = records.customers ?? [];
    const got = await call(app, 'GET', `/consumers/${consumer}/pms/customers/${marie}`, { token: bearer });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      first_name: 'Marie',
      last_name: 'Dubois',
      account_number: '411061',
      is_company: false,
      addresses: [{ address_type: 'home', city: 'Lille', country: 'FR' }],
    });
    const company = await call(app, 'GET', `/consumers/${consumer}/pms/customers/${acme}`, { token: bearer });
    expect(company.body).toMatchObject({ company_name: 'Acme Travel', first_name: null, is_company: true });
    const orders = await call(
      app,
      'GET',
      `/consumers/${consumer}/pms/orders?date_from=2026-01-12&date_to=2026-01-12&size=100`,
      { token: bearer },
    );
    const ours = (orders.body.items as { id: string; customer_id?: string; customer?: { id: string } }[])
      .filter((o) => records.orders?.includes(o.id))
      .map((o) => o.customer_id ?? o.customer?.id);
    expect(ours.sort()).toEqual([marie, acme].sort());
  });

  it('refusals: an e-mail another guest has, a guest without a name', () => {
    const load = (pms: Record<string, unknown>) =>
      refusal(() => createApp({ seed: SEED, fixtures: pmsDoc(pms) }));
    const twice = load({
      customers: [
        { last_name: 'One', email: 'same@example.com' },
        { last_name: 'Two', email: 'SAME@example.com' },
      ],
    });
    expect(twice.path).toBe('consumers[0].connections[0].pms.customers[1].email');
    expect(twice.detail).toMatch(/^The e-mail 'SAME@example.com' is the e-mail of the guest /);
    const nameless = load({ customers: [{ first_name: 'Only' }] });
    expect(nameless.path).toBe('consumers[0].connections[0].pms.customers[0].last_name');
    expect(nameless.status).toBe(400);
  });
});

/** A consumer of Zelty (a restaurant's till) with the pos block given. */
const posDoc = (pos: Record<string, unknown>) => ({
  consumers: [{ name: 'Brasserie', connections: [{ integration: 'Zelty', pos }] }],
});

describe('pos order discounts and modifiers', () => {
  it("an order's lines carry their options and discounts, and its totals count them", async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(
      app,
      posDoc({
        orders: [
          {
            creation_date: '2026-01-14T12:00:00Z',
            items: [
              {
                product: 'Steak frites',
                quantity: 2,
                modifiers: [
                  { modifier_id: 'béarnaise' },
                  { modifier_id: 'Medium', modifier_group_id: 'Cooking' },
                ],
                discounts: [{ name: 'Regular guest', total: 5 }],
              },
              {
                product: 'Tomato soup',
                discounts: [{ name: 'Offered by the house', total: 6.5, type: 'OFFERED' }],
              },
            ],
          },
        ],
      }),
    );
    const consumer = result.consumers[0]?.consumerid as string;
    const [orderId] = result.consumers[0]?.connections[0]?.records.pos?.orders ?? [];
    const bearer = await token(app);
    const res = await call(app, 'GET', `/consumers/${consumer}/pos/orders/${orderId}`, { token: bearer });
    expect(res.status).toBe(200);
    const order = POSOrderItem.parse(res.body);
    // 2 x 24.50 + 2 x 1.80 (Béarnaise) + 2 x 0 (Medium) - 5 = 47.60 before 10% VAT; the soup is free.
    expect(order).toMatchObject({ total: 52.36, tax_amount: 4.76, total_discount: 11.5 });
    expect(order.payments).toMatchObject([{ total: 52.36, status: 'Completed' }]);
    const [steak, soup] = order.items ?? [];
    expect(steak).toMatchObject({ quantity: 2, unit_price: 24.5, total: 52.36 });
    expect(steak?.modifiers).toMatchObject([
      { name: 'Béarnaise', quantity: 2, unit_price: 1.8, total: 3.6 },
      { name: 'À point', quantity: 2, unit_price: 0, total: 0 },
    ]);
    expect(steak?.discounts).toEqual([{ name: 'Regular guest', total: 5, type: 'UNKNOWN' }]);
    expect(soup).toMatchObject({ total: 0, tax_amount: 0, discounts: [{ type: 'OFFERED', total: 6.5 }] });
    const groups = await call(app, 'GET', `/consumers/${consumer}/pos/modifiers`, { token: bearer });
    const sauces = (groups.body.items as { id: string; name: string }[]).find((g) => g.name === 'Sauces');
    expect(steak?.modifiers?.[0]?.modifier_group_id).toBe(sauces?.id);
  });

  it('refusals: an option the product does not take, discounts beyond the line', () => {
    const load = (item: Record<string, unknown>) =>
      refusal(() =>
        createApp({
          seed: SEED,
          fixtures: posDoc({ orders: [{ creation_date: '2026-01-14T12:00:00Z', items: [item] }] }),
        }),
      );
    const avocado = load({ product: 'Steak frites', modifiers: [{ modifier_id: 'Avocado' }] });
    expect(avocado.path).toBe('consumers[0].connections[0].pos.orders[0].items[0].modifiers[0].modifier_id');
    expect(avocado.detail).toMatch(
      /^'Avocado' is not an option of the modifier groups of 'Steak frites' \(Cuisson: /,
    );

    const beyond = load({ product: 'Tomato soup', modifiers: [], discounts: [{ total: 7 }] });
    expect(beyond.path).toBe('consumers[0].connections[0].pos.orders[0].items[0].discounts');
    expect(beyond.detail).toBe("The discounts (7) are more than the line's 6.5");
    expect(beyond.status).toBe(400);
  });
});

/** A consumer of the payment provider with a sale of 100 on 2026-01-10 and the payouts given. */
const paymentDoc = (payouts: unknown[]) => ({
  consumers: [
    {
      name: 'Merchant',
      connections: [
        {
          integration: 7106,
          payment: {
            payments: [{ amount: 100, description: 'Fixture sale', payment_date: '2026-01-10T10:00:00Z' }],
            payouts,
          },
        },
      ],
    },
  ],
});

describe('payment payouts', () => {
  it("a payout pays out the balance's unpaid movements, the fixture's sale among them", async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, paymentDoc([{ payment_date: '2026-01-16' }]));
    const consumer = result.consumers[0]?.consumerid as string;
    const records = result.consumers[0]?.connections[0]?.records.payment ?? {};
    const [payoutId] = records.payouts ?? [];
    const bearer = await token(app);
    const base = `/consumers/${consumer}/payment`;
    const payouts = await call(app, 'GET', `${base}/payouts?date_from=2026-01-16`, { token: bearer });
    expect(payouts.status).toBe(200);
    const payout = (payouts.body.items as unknown[])
      .map((item) => PayoutItemOut.parse(item))
      .find((p) => p.id === payoutId);
    // Made on Tuesday 13 (three days before it reaches the bank), still in transit by the clock.
    expect(payout).toMatchObject({ status: 'in_transit', type: 'bank_account', payment_date: '2026-01-16' });

    const paid = await call(app, 'GET', `${base}/transactions?payout_id=${payoutId}&size=100`, {
      token: bearer,
    });
    expect(paid.status).toBe(200);
    const movements = (paid.body.items as unknown[]).map((item) => TransactionItemOut.parse(item));
    const own = movements.filter((t) => t.accounting_category === 'payout');
    const others = movements.filter((t) => t.accounting_category !== 'payout');
    // The sale (100 less the card fee of 1.65) is paid out; the payout's amount is the net of them all.
    expect(others).toContainEqual(
      expect.objectContaining({ payment_id: records.payments?.[0], amount: 100, fee: 1.65 }),
    );
    const net = others.reduce((sum, t) => sum + Math.round((t.amount - t.fee) * 100), 0) / 100;
    expect(payout?.amount).toBe(net);
    expect(own).toMatchObject([{ amount: -net, create_date: '2026-01-13T06:00:00.000Z' }]);
  });

  it('a payout in transit is paid once the clock reaches its arrival, as a generated one is', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, paymentDoc([{ payment_date: '2026-01-16' }]));
    const consumer = result.consumers[0]?.consumerid as string;
    const [payoutId] = result.consumers[0]?.connections[0]?.records.payment?.payouts ?? [];
    const statusAt = async (now: string) => {
      const moved = await call(app, 'POST', '/__sandbox/clock', { body: { now } });
      expect(moved.status, moved.text).toBe(200);
      const res = await call(
        app,
        'GET',
        `/consumers/${consumer}/payment/payouts?date_from=2026-01-16&size=100`,
        {
          token: await token(app),
        },
      );
      expect(res.status, res.text).toBe(200);
      return (res.body.items as { id: string; status: string }[]).find((p) => p.id === payoutId)?.status;
    };
    expect(await statusAt('2026-01-15T12:00:00Z')).toBe('in_transit');
    expect(await statusAt('2026-01-17T12:00:00Z')).toBe('paid');
  });

  it('refusals: a payout with nothing left to pay out, one made after the clock', () => {
    const load = (payout: Record<string, unknown>) =>
      refusal(() => createApp({ seed: SEED, fixtures: paymentDoc([payout]) }));
    // Made on Sunday 11: Monday 12's seeded payout already paid what was two days old by then.
    const nothing = load({ payment_date: '2026-01-14' });
    expect(nothing.path).toBe('consumers[0].connections[0].payment.payouts[0].payment_date');
    expect(nothing.detail).toMatch(/^A payout made on 2026-01-11 has nothing to pay out: .* come to 0$/);

    const later = load({ payment_date: '2026-01-20' });
    expect(later.path).toBe('consumers[0].connections[0].payment.payouts[0].payment_date');
    expect(later.detail).toMatch(/is made on 2026-01-17, after the sandbox clock/);
  });
});
