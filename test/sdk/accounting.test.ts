import { API } from '@chift/chift-nodejs';
import { accountingFactory } from '@chift/chift-nodejs/dist/src/modules/accounting.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { messages, serviceError } from '../../src/lib/errors.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';

/**
 * The official Node SDK's accounting methods against a listening sandbox (a fresh one per test), with
 * the seeded accounting consumer. The SDK pages through lists by itself (page and size=100) and sends
 * x-chift-client-requestid when a write is given a clientRequestId.
 */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(12);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let accounting: any;
/** The accounting module of the multi-folder consumer (Sandbox Books Multi-Folder, 90101): every call takes folder_id. */
// biome-ignore lint/suspicious/noExplicitAny: as above
let multi: any;
let folderId: string;

/** Names of the SDK's accounting methods called by this file's tests. */
const called = new Set<string>();
// biome-ignore lint/suspicious/noExplicitAny: the SDK's module object is typed loosely
const tracked = (module: any) =>
  new Proxy(module, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof name === 'string' && typeof value === 'function') called.add(name);
      return value;
    },
  });

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 12, port: 0 });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.ACCOUNTING as string);
  accounting = tracked(consumer.accounting);
  multi = tracked((await client.Consumers.getConsumerById(ids.multiFolderConsumerId)).accounting);
  folderId = (await multi.getFolders())[0].id;
});

afterEach(async () => {
  await sandbox.close();
});

afterAll(() => {
  // Every method of the SDK's accounting module was exercised by the tests of this file, whatever
  // their order.
  expect(Object.keys(accountingFactory).filter((name) => !called.has(name))).toEqual([]);
});

const round2 = (n: number) => Math.round(n * 100) / 100;

describe('official SDK against the sandbox: accounting', () => {
  it('reads the reference data', async () => {
    const folders = await accounting.getFolders();
    expect(folders).toHaveLength(1);
    // Book years from 2021 through the year of the sandbox clock, when the ledger was first used.
    const clockYear = sandbox.app.services.clock.now().getUTCFullYear();
    expect(await accounting.getBookyears()).toHaveLength(clockYear - 2021 + 1);
    expect((await accounting.getAnalyticPlans()).map((p: { name: string }) => p.name)).toEqual([
      'Departments',
      'Projects',
    ]);
    expect((await accounting.getSchemes()).length).toBeGreaterThan(0);
    expect((await accounting.getVatCodes()).some((v: { code: string }) => v.code === 'V21')).toBe(true);
    expect((await accounting.getPaymentMethods()).length).toBe(4);
    expect((await accounting.getPaymentTerms()).length).toBe(5);
    expect((await accounting.getJournals()).map((j: { code: string }) => j.code)).toContain('VEN');
    const chart = await accounting.getChartOfAccounts({ classes: '4' });
    expect(chart.every((x: { number: string }) => x.number.startsWith('4'))).toBe(true);
    const created = await accounting.createLedgerAccount({
      number: '612900',
      name: 'SDK account',
      type: 'expense',
    });
    expect(created).toMatchObject({ number: '612900', type: 'expense' });
    const journal = await accounting.createJournal({
      code: 'SDK',
      name: 'SDK journal',
      journal_type: 'miscellaneous_operation',
    });
    expect(journal).toMatchObject({ code: 'SDK', journal_type: 'miscellaneous_operation' });
    const balances = await accounting.getBalanceOfAccounts({ accounts: ['400000'], end: '202601' });
    expect(balances.items[0]).toMatchObject({ account_number: '400000' });
    // The SDK's own test sends the period as days: they stand for their months.
    const byDays = await accounting.getBalanceOfAccounts({
      accounts: ['7'],
      start: '2025-01-01',
      end: '2025-12-31',
    });
    expect(byDays).toEqual(
      await accounting.getBalanceOfAccounts({ accounts: ['7'], start: '202501', end: '202512' }),
    );
  });

  it('manages clients and suppliers, and reads contacts', async () => {
    const clients = await accounting.getClients();
    expect(clients.length).toBeGreaterThan(5);
    const created = await accounting.createClient(
      { name: 'SDK Client', vat: 'BE0123456789', addresses: [] },
      undefined,
      { clientRequestId: 'sdk-client-1' },
    );
    const again = await accounting.createClient(
      { name: 'SDK Client', vat: 'BE0123456789', addresses: [] },
      undefined,
      {
        clientRequestId: 'sdk-client-1',
      },
    );
    expect(again).toEqual(created);
    expect((await accounting.getClient(created.id)).name).toBe('SDK Client');
    expect((await accounting.updateClient(created.id, { email: 'sdk@client.example' })).email).toBe(
      'sdk@client.example',
    );
    expect((await accounting.getClients({ search: 'sdk client' })).map((c: { id: string }) => c.id)).toEqual([
      created.id,
    ]);
    const supplier = await accounting.createSupplier({ name: 'SDK Supplier', addresses: [] });
    expect((await accounting.getSupplier(supplier.id)).name).toBe('SDK Supplier');
    expect((await accounting.updateSupplier(supplier.id, { active: false })).active).toBe(false);
    expect((await accounting.getSuppliers()).map((s: { id: string }) => s.id)).toContain(supplier.id);
    await expect(
      accounting.createClient({ name: 'Bad VAT', vat: 'BE 0123', addresses: [] }),
    ).rejects.toMatchObject({
      error: { status_code: 400, message: messages.accountingVatNumberInvalid },
    });
  });

  it('books an invoice, finds it everywhere, pays it', async () => {
    const vat = (await accounting.getVatCodes()).find((v: { code: string }) => v.code === 'V21');
    const partner = (await accounting.getClients()).find((c: { active: boolean }) => c.active);
    const method = (await accounting.getPaymentMethods())[0];
    const untaxed = 250;
    const tax = round2((untaxed * vat.rate) / 100);
    const invoice = await accounting.createInvoice({
      invoice_type: 'customer_invoice',
      currency: 'EUR',
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: untaxed + tax,
      invoice_date: '2026-01-15',
      due_date: '2026-02-15',
      partner_id: partner.id,
      lines: [
        {
          quantity: 2,
          unit_price: 125,
          untaxed_amount: untaxed,
          tax_rate: vat.rate,
          tax_amount: tax,
          total: untaxed + tax,
          account_number: '700000',
          tax_code: vat.id,
        },
      ],
    });
    expect(invoice).toMatchObject({ status: 'posted', total: 302.5 });
    const listed = await accounting.getInvoicesByType('customer_invoice', { date_from: '2026-01-15' });
    expect(listed.map((i: { id: string }) => i.id)).toContain(invoice.id);
    const multi = await accounting.getInvoicesByTypeWithMultiplePlans('customer_invoice', {
      date_from: '2026-01-15',
    });
    expect(multi.map((i: { id: string }) => i.id)).toContain(invoice.id);
    expect((await accounting.getInvoice(invoice.id)).id).toBe(invoice.id);
    expect((await accounting.getInvoiceWithMultiplePlans(invoice.id)).id).toBe(invoice.id);
    const entries = await accounting.getJournalEntries({
      unposted_allowed: 'false',
      date_from: '2026-01-15',
    });
    const entry = entries.find((e: { name: string }) => e.name === invoice.invoice_number);
    expect(entry.items[0]).toMatchObject({ account_number: '400000', debit: 302.5 });
    expect(
      (
        await accounting.getJournalEntriesWithMultiplePlans({
          unposted_allowed: 'true',
          date_from: '2026-01-15',
        })
      ).length,
    ).toBe(entries.length);
    expect((await accounting.getJournalEntry(entry.id)).id).toBe(entry.id);
    const open = await accounting.getOutstandings({ type: 'client', unposted_allowed: 'false' });
    expect(
      open.some((o: { original_document: { id: string } }) => o.original_document.id === invoice.id),
    ).toBe(true);
    await accounting.createInvoicePayment({
      date: '2026-01-16',
      payment_method_id: method.id,
      currency: 'EUR',
      items: [{ invoice_id: invoice.id, amount: 302.5 }],
    });
    expect(
      (await accounting.getPaymentsByInvoiceId(invoice.id)).map(
        (p: { dedicated_amount: number }) => p.dedicated_amount,
      ),
    ).toEqual([302.5]);
    expect((await accounting.getInvoice(invoice.id)).status).toBe('paid');
    const after = await accounting.getOutstandings({ type: 'client', unposted_allowed: 'false' });
    expect(
      after.some((o: { original_document: { id: string } }) => o.original_document.id === invoice.id),
    ).toBe(false);
  });

  it('books a journal entry and matches it against an invoice', async () => {
    const partner = (await accounting.getClients()).find((c: { active: boolean }) => c.active);
    const vat = (await accounting.getVatCodes()).find((v: { code: string }) => v.code === 'V0');
    const journals = await accounting.getJournals();
    const bank = journals.find((j: { code: string }) => j.code === 'BNK');
    const invoice = await accounting.createInvoiceWithMultiplePlans({
      invoice_type: 'customer_invoice',
      currency: 'EUR',
      untaxed_amount: 40,
      tax_amount: 0,
      total: 40,
      invoice_date: '2026-01-15',
      due_date: '2026-01-30',
      partner_id: partner.id,
      lines: [
        {
          quantity: 1,
          unit_price: 40,
          untaxed_amount: 40,
          tax_rate: 0,
          tax_amount: 0,
          total: 40,
          account_number: '705000',
          tax_code: vat.id,
        },
      ],
    });
    const receipt = await accounting.createJournalEntry({
      journal_id: bank.id,
      number: 'SDK-BNK-1',
      currency: 'EUR',
      date: '2026-01-17',
      items: [
        { account_type: 'general_account', account: '550000', debit: 40, credit: 0 },
        { account_type: 'customer_account', account: partner.id, debit: 0, credit: 40 },
      ],
    });
    expect(receipt.name).toBe('SDK-BNK-1');
    const matching = await accounting.matchEntries({
      entries: [invoice.id, receipt.id],
      partner_id: partner.id,
    });
    expect(matching).toMatchObject({ balance: 0, matching_number: expect.stringMatching(/^M/) });
    expect((await accounting.getInvoice(invoice.id)).status).toBe('paid');
    const results = await accounting.matchEntriesMultiple({
      matchings: [{ entries: ['x', 'y'], partner_id: partner.id }],
    });
    expect(results).toMatchObject([{ processed: false, matching_number: null }]);
  });

  it('manages analytic accounts, in both shapes', async () => {
    const plans = await accounting.getAnalyticPlans();
    const projects = plans.find((p: { name: string }) => p.name === 'Projects').id;
    const listed = await accounting.getAnalyticAccounts();
    expect(listed.length).toBe(7);
    expect(
      (await accounting.getAnalyticAccountsWithMultiplePlans()).map((x: { id: string }) => x.id),
    ).toEqual(listed.map((x: { id: string }) => x.id));
    const created = await accounting.createAnalyticAccount({
      code: 'SDK',
      name: 'SDK dept',
      currency: 'EUR',
    });
    expect(created).toMatchObject({ code: 'SDK', active: true, balance: 0 });
    expect((await accounting.getAnalyticAccount(created.id)).name).toBe('SDK dept');
    expect((await accounting.updateAnalyticAccount(created.id, { name: 'SDK department' })).name).toBe(
      'SDK department',
    );
    const inPlan = await accounting.createAnalyticAccountWithMultiplePlans(projects, {
      code: 'PRJ-SDK',
      name: 'SDK project',
      currency: 'EUR',
    });
    expect(inPlan).toMatchObject({ analytic_plan: projects, code: 'PRJ-SDK' });
    expect((await accounting.getAnalyticAccountWithMultiplePlans(inPlan.id, projects)).code).toBe('PRJ-SDK');
    const closed = await accounting.updateAnalyticAccountWithMultiplePlans(inPlan.id, projects, {
      active: false,
    });
    expect(closed).toMatchObject({ active: false, analytic_plan: projects });
    await expect(accounting.getAnalyticAccount('unknown')).rejects.toMatchObject({
      error: { status_code: 404, message: serviceError('analyticAccountNotFound').message },
    });
  });

  it('books and reads miscellaneous operations', async () => {
    const before = await accounting.getMiscOperations();
    // A second miscellaneous journal exists: the operation names its journal.
    await accounting.createJournal({
      code: 'SDK',
      name: 'SDK journal',
      journal_type: 'miscellaneous_operation',
    });
    const od = (await accounting.getJournals()).find((j: { code: string }) => j.code === 'OD');
    const op = await accounting.createMiscOperation(
      {
        journal_id: od.id,
        currency: 'EUR',
        operation_date: '2026-01-15',
        lines: [
          { type: 'general_account', account_number: '612000', amount: -25 },
          { type: 'general_account', account_number: '550000', amount: 25 },
        ],
      },
      undefined,
      { clientRequestId: 'sdk-misc-1' },
    );
    expect(op).toMatchObject({ status: 'posted', operation_number: expect.stringMatching(/^OD\/2026\//) });
    expect((await accounting.getMiscOperations()).length).toBe(before.length + 1);
    expect(await accounting.getMiscOperation(op.id)).toEqual(op);
    // The operation of the SDK's own test: one general line of 0 on 400000, as a draft.
    const single = await accounting.createMiscOperation({
      operation_date: '2025-04-29',
      currency: 'EUR',
      currency_exchange_rate: 1,
      lines: [
        {
          line_number: 1,
          description: 'test line',
          amount: 0,
          type: 'general_account',
          account_number: '400000',
        },
      ],
      journal_id: od.id,
      status: 'draft',
    });
    expect(single).toMatchObject({ status: 'draft', lines: [expect.objectContaining({ amount: 0 })] });
  });

  it('attaches a PDF to an invoice and reads it back', async () => {
    const invoices = await accounting.getInvoicesByType('supplier_invoice');
    const bare = invoices.find(
      (i: { attachments_info: { status: string } }) => i.attachments_info.status === 'no',
    );
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
    await accounting.attachPDF(bare.id, { base64_string: pdf, name: 'sdk' });
    const docs = await accounting.getAttachments({ type: 'invoice', document_id: bare.id });
    expect(docs.map((d: { base64_string: string }) => d.base64_string)).toEqual([pdf]);
  });

  it('opens a bank account, imports a statement and books a financial entry', async () => {
    const account = await accounting.createBankAccount({
      code: 'SDKB',
      currency: 'EUR',
      iban: 'BE71096123456769',
      bank_name: 'SDK Bank',
    });
    expect(account).toMatchObject({ code: 'SDKB', ledger_account: '550200' });
    expect((await accounting.getBankAccounts()).map((b: { code: string }) => b.code)).toEqual([
      'BNK',
      'SDKB',
    ]);
    const statement = await accounting.createBankTransactions({
      bank_statement_date: '2026-01-15',
      bank_account_id: account.id,
      currency: 'EUR',
      external_bank_statement_id: '1',
      opening_balance: 0,
      items: [{ amount: 1000, general_ledger_account: '580000', description: 'Transfer in' }],
    });
    expect(statement.items[0].id).toEqual(expect.any(String));
    const entry = await accounting.createFinancialEntry({
      date: '2026-01-16',
      journal_id: account.id,
      currency: 'EUR',
      items: [{ account_type: 'general_account', account: '657000', amount: -12.5 }],
    });
    expect(entry.items[0].counterpart_account).toBe('550200');
    const balances = await accounting.getBalanceOfAccounts({ accounts: ['550200'], end: '202601' });
    expect(balances.items[0].balance).toBe(987.5);
  });

  it('lists employees, books an expense note and exports the FEC of a folder (Sandbox Books Multi-Folder)', async () => {
    const employees = await multi.getEmployees({ folder_id: folderId });
    const employee = employees.find((e: { active: boolean }) => e.active);
    const vat = (await multi.getVatCodes({ folder_id: folderId })).find(
      (v: { code: string }) => v.code === 'A21',
    );
    const expense = await multi.createExpense(
      {
        employee_id: employee.id,
        untaxed_amount: 50,
        tax_amount: 10.5,
        total: 60.5,
        currency: 'EUR',
        date: '2026-01-15',
        lines: [
          {
            untaxed_amount: 50,
            tax_amount: 10.5,
            total: 60.5,
            tax_rate: 21,
            tax_id: vat.id,
            account_number: '613000',
          },
        ],
      },
      { folder_id: folderId },
    );
    expect(expense).toMatchObject({ employee_id: employee.id, total: 60.5 });
    const rows = await multi.exportFec({
      folder_id: folderId,
      date_from: '2026-01-15',
      date_to: '2026-01-15',
    });
    const own = rows.filter((r: { EcritureNum: string }) => r.EcritureNum === expense.number);
    expect(own.map((r: { CompteNum: string }) => r.CompteNum)).toEqual(['613000', '411000', '455000']);
    const limited = (await client.Consumers.getConsumerById(ids.coverageLimitsConsumerId)).accounting;
    await expect(limited.exportFec({ date_from: '2026-01-01', date_to: '2026-01-31' })).rejects.toMatchObject(
      {
        error: { status_code: 400, message: messages.accountingFailure },
      },
    );
  });
});
