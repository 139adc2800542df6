import { beforeAll, describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { type AccountingSandbox, all, forConsumer } from './helpers.js';

/**
 * Each accounting connector keeps its folders as its software does in its country: Odoo a Belgian
 * PCMN ledger, Pennylane a French PCG one, Snelstart a Dutch RGS-style one, Exact Online DE the
 * German SKR03, Contasol the Spanish PGC; each with its country's VAT codes and rates, identifiers,
 * journals and numbers, and the API's writes book on the accounts of the ledger they reach.
 */

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Json = any;

const COUNTRIES = ['BE', 'FR', 'NL', 'DE', 'ES'] as const;
type Country = (typeof COUNTRIES)[number];

/** The connector of each country: Pennylane, Snelstart, Exact Online DE, Contasol (Odoo for Belgium). */
const CONNECTORS: Record<Exclude<Country, 'BE'>, number> = { FR: 8008, NL: 8024, DE: 8030, ES: 8049 };

let s: TestSandbox;
const books = {} as Record<Country, AccountingSandbox>;

beforeAll(async () => {
  s = sandbox();
  const token = await sandboxToken(s);
  books.BE = forConsumer(s, token, s.ids.verticalConsumers.ACCOUNTING as string);
  for (const [country, integrationid] of Object.entries(CONNECTORS)) {
    const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: `Books ${country}` } });
    expect(consumer.status, consumer.text).toBe(200);
    const consumerid = consumer.body.consumerid as string;
    const connection = await call(s.app, 'POST', `/consumers/${consumerid}/connections`, {
      token,
      body: { integrationid, credentials: [{ key: 'api_key', value: `key-${country}` }] },
    });
    expect(connection.status, connection.text).toBe(200);
    books[country as Country] = forConsumer(s, token, consumerid);
  }
});

const cents = (n: number) => Math.round(n * 100);

/** The accounts a ledger's postings need, by what they are for, with their names. */
const CHARTS: Record<
  Country,
  {
    scheme: string;
    receivable: [string, string];
    payable: [string, string];
    bank: [string, string];
    deductible: [string, string];
    collected: [string, string];
    revenue: [string, string];
  }
> = {
  BE: {
    scheme: 'PCMN',
    receivable: ['400000', 'Trade debtors'],
    payable: ['440000', 'Trade creditors'],
    bank: ['550000', 'Bank current account'],
    deductible: ['411000', 'VAT recoverable'],
    collected: ['451000', 'VAT payable'],
    revenue: ['700000', 'Sales of goods'],
  },
  FR: {
    scheme: 'PCG',
    receivable: ['411000', 'Clients'],
    payable: ['401000', 'Fournisseurs'],
    bank: ['512000', 'Banque'],
    deductible: ['445660', 'TVA déductible sur autres biens et services'],
    collected: ['445710', 'TVA collectée'],
    revenue: ['707000', 'Ventes de marchandises'],
  },
  NL: {
    scheme: 'RGS',
    receivable: ['1300', 'Debiteuren'],
    payable: ['1600', 'Crediteuren'],
    bank: ['1100', 'Bank'],
    deductible: ['1800', 'Te vorderen BTW'],
    collected: ['1500', 'Af te dragen BTW'],
    revenue: ['8000', 'Omzet'],
  },
  DE: {
    scheme: 'SKR03',
    receivable: ['1400', 'Forderungen aus Lieferungen und Leistungen'],
    payable: ['1600', 'Verbindlichkeiten aus Lieferungen und Leistungen'],
    bank: ['1200', 'Bank'],
    deductible: ['1576', 'Abziehbare Vorsteuer 19 %'],
    collected: ['1776', 'Umsatzsteuer 19 %'],
    revenue: ['8400', 'Erlöse 19 % USt'],
  },
  ES: {
    scheme: 'PGC',
    receivable: ['430000', 'Clientes'],
    payable: ['400000', 'Proveedores'],
    bank: ['572000', 'Bancos e instituciones de crédito c/c vista, euros'],
    deductible: ['472000', 'Hacienda Pública, IVA soportado'],
    collected: ['477000', 'Hacienda Pública, IVA repercutido'],
    revenue: ['700000', 'Ventas de mercaderías'],
  },
};

describe('accounting: each connector in its country', () => {
  it("keeps the chart of accounts of its country, the partners' accounts receivable and payable", async () => {
    for (const country of COUNTRIES) {
      const a = books[country];
      const chart = CHARTS[country];
      const accounts = await all(a, '/chart-of-accounts');
      const named = (type: string) => accounts.filter((x) => x.type === type).map((x) => [x.number, x.name]);
      expect(named('receivable'), country).toEqual([chart.receivable]);
      expect(named('payable'), country).toEqual([chart.payable]);
      expect(named('bank'), country).toContainEqual(chart.bank);
      expect(named('vat'), country).toContainEqual(chart.deductible);
      expect(named('vat'), country).toContainEqual(chart.collected);
      expect(named('income'), country).toContainEqual(chart.revenue);
      expect((await all(a, '/schemes')).map((x) => x.code)[0], country).toBe(chart.scheme);
      if (country !== 'BE') {
        const names = accounts.map((x) => x.name);
        for (const belgian of ['Trade debtors', 'Trade creditors', 'VAT payable', 'Bank current account'])
          expect(names, country).not.toContain(belgian);
      }
      // Every client is booked on the receivable account, every supplier on the payable one.
      for (const client of await all(a, '/clients'))
        expect(client.account_number, country).toBe(chart.receivable[0]);
      for (const supplier of await all(a, '/suppliers'))
        expect(supplier.account_number, country).toBe(chart.payable[0]);
    }
  });

  it('has the VAT codes and rates of its country, on its VAT accounts', async () => {
    const RATES: Record<Country, number[]> = {
      BE: [0, 6, 12, 21],
      FR: [0, 2.1, 5.5, 10, 20],
      NL: [0, 9, 21],
      DE: [0, 7, 19],
      ES: [0, 4, 10, 21],
    };
    for (const country of COUNTRIES) {
      const codes = await all(books[country], '/vat-codes');
      const accounts = new Map(
        (await all(books[country], '/chart-of-accounts')).map((x) => [x.number, x.type as string]),
      );
      for (const type of ['sale', 'purchase']) {
        const rates = codes
          .filter((v) => v.active && v.type === type && v.scope === 'nat')
          .map((v) => v.rate);
        expect(
          [...new Set(rates)].sort((x, y) => x - y),
          `${country} ${type}`,
        ).toEqual(RATES[country]);
      }
      for (const code of codes) {
        expect(code.country, code.code).toBe(country);
        const account = code.type === 'sale' ? code.payable_account : code.deductible_account;
        expect(accounts.get(account), `${country} ${code.code}`).toBe('vat');
      }
      const standard = Math.max(...RATES[country]);
      const sale = codes.find((v) => v.active && v.type === 'sale' && v.rate === standard);
      const purchase = codes.find(
        (v) => v.active && v.type === 'purchase' && v.rate === standard && !v.reversed,
      );
      expect([sale.payable_account, purchase.deductible_account], country).toEqual([
        CHARTS[country].collected[0],
        CHARTS[country].deductible[0],
      ]);
      // A reverse-charge purchase code books the VAT as deductible and as payable.
      expect(
        codes.some((v) => v.reversed && v.deductible_account && v.payable_account),
        country,
      ).toBe(true);
    }
  });

  it("gives the folder its country's VAT number, company number and address", async () => {
    const FORMATS: Record<Country, [vat: RegExp, company: RegExp]> = {
      BE: [/^BE0\d{9}$/, /^0\d{9}$/],
      FR: [/^FR\d{11}$/, /^\d{9}$/],
      NL: [/^NL\d{9}B01$/, /^\d{8}$/],
      DE: [/^DE\d{9}$/, /^HRB \d{5}$/],
      ES: [/^ESB\d{8}$/, /^B\d{8}$/],
    };
    for (const country of COUNTRIES) {
      const [folder] = (await books[country].get('/folders')).body;
      const [vat, company] = FORMATS[country];
      expect(folder.vat, country).toMatch(vat);
      expect(folder.company_number, country).toMatch(company);
      expect(folder.main_currency).toBe('EUR');
      expect(folder.addresses[0].country, country).toBe(country);
      if (country === 'BE') expect(folder.vat).toBe(`BE${folder.company_number}`);
      if (country === 'FR') {
        // FR, the key of the SIREN (12 + 3 x SIREN mod 97, mod 97), the SIREN.
        const siren = Number(folder.company_number);
        expect(folder.vat).toBe(`FR${String((12 + 3 * (siren % 97)) % 97).padStart(2, '0')}${siren}`);
      }
      if (country === 'ES') expect(folder.vat).toBe(`ES${folder.company_number}`);
    }
  });

  it("numbers invoices in its software's style, with journals of its language, and its partners are mostly of its country", async () => {
    const STYLES: Record<Country, { sales: RegExp; purchases: RegExp; journals: string[] }> = {
      BE: {
        sales: /^VEN\/20\d\d\/\d{4}$/,
        purchases: /^ACH\/20\d\d\/\d{4}$/,
        journals: ['VEN', 'ACH', 'BNK', 'OD'],
      },
      FR: { sales: /^FA20\d\d-\d{4}$/, purchases: /^AC20\d\d-\d{4}$/, journals: ['VT', 'AC', 'BQ', 'OD'] },
      NL: { sales: /^20\d\d-\d{4}$/, purchases: /^IK20\d\d-\d{4}$/, journals: ['VK', 'IK', 'BNK', 'MEM'] },
      DE: { sales: /^RE-20\d\d-\d{4}$/, purchases: /^ER-20\d\d-\d{4}$/, journals: ['AR', 'ER', 'BK', 'UB'] },
      ES: {
        sales: /^A\/20\d\d\/\d{4}$/,
        purchases: /^C\/20\d\d\/\d{4}$/,
        journals: ['VEN', 'COM', 'BAN', 'DIV'],
      },
    };
    const VAT: Record<string, RegExp> = {
      BE: /^BE0\d{9}$/,
      FR: /^FR\d{11}$/,
      NL: /^NL\d{9}(B01)?$/,
      DE: /^DE\d{9}$/,
      ES: /^ESB\d{8}$/,
      PT: /^PT\d{9}$/,
    };
    for (const country of COUNTRIES) {
      const a = books[country];
      const style = STYLES[country];
      const sales = await all(a, '/invoices/type/customer_invoice');
      const purchases = await all(a, '/invoices/type/supplier_invoice');
      expect(sales.length, country).toBeGreaterThan(50);
      for (const invoice of sales) expect(invoice.invoice_number, country).toMatch(style.sales);
      for (const invoice of purchases) expect(invoice.invoice_number, country).toMatch(style.purchases);
      const journals = (await all(a, '/journals')).map((j) => j.code);
      for (const code of style.journals) expect(journals, country).toContain(code);
      const sales2026 = (await all(a, '/journals')).find((j) => j.code === style.journals[0]);
      const next = sales2026.next_document_numbers.find((n: Json) => n.bookyear_name === '2026');
      expect(next.next_document_number, country).toMatch(style.sales);

      const partners = [...(await all(a, '/clients')), ...(await all(a, '/suppliers'))];
      const home = partners.filter((p) => p.addresses[0]?.country === country);
      expect(home.length / partners.length, country).toBeGreaterThan(0.5);
      for (const partner of partners) {
        const where = partner.addresses[0]?.country as string;
        if (partner.vat) expect(partner.vat, `${country} ${partner.name}`).toMatch(VAT[where] as RegExp);
      }
      const homeVat = home.filter((p) => p.vat);
      expect(homeVat.length, country).toBeGreaterThan(0);
      for (const partner of homeVat) expect(partner.vat.slice(0, 2), country).toBe(country);
    }
  });

  it('gives customer invoices a Belgian structured reference in Belgium only', async () => {
    const STRUCTURED = /^\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+$/;
    for (const country of COUNTRIES) {
      const a = books[country];
      const sales = await all(a, '/invoices/type/customer_invoice');
      const structured = sales.filter((i) => STRUCTURED.test(i.payment_communication ?? ''));
      if (country === 'BE') expect(structured.length).toBe(sales.length);
      else {
        expect(structured, country).toEqual([]);
        const text = JSON.stringify([sales, await all(a, '/journal/entries?unposted_allowed=true')]);
        expect(text.includes('+++'), country).toBe(false);
      }
    }
  });

  it('posts an invoice through the API on the French ledger: its entry balances on the French accounts, and a payment settles it', async () => {
    const a = books.FR;
    const balanceOf = async (account: string) =>
      (await a.post('/chart-of-accounts/balance', { accounts: [account], end: '202612' })).body.items[0] ?? {
        debit: 0,
        credit: 0,
      };
    const vat = Object.fromEntries((await all(a, '/vat-codes')).map((v) => [v.code, v]));
    const client = (await all(a, '/clients')).find((c) => c.active);
    const journal = (await all(a, '/journals')).find((j) => j.code === 'VT');
    const expected = journal.next_document_numbers.find((n: Json) => n.bookyear_name === '2026');
    const before = {
      receivable: await balanceOf('411000'),
      collected: await balanceOf('445710'),
      goods: await balanceOf('707000'),
      services: await balanceOf('706000'),
    };
    const lines = [
      { quantity: 3, unit_price: 120.5, code: vat.C20, account_number: '707000' },
      { quantity: 2, unit_price: 40, code: vat['C5.5'], account_number: '706000' },
    ].map(({ quantity, unit_price, code, account_number }) => {
      const untaxed = Math.round(quantity * unit_price * 100) / 100;
      const tax = Math.round(untaxed * code.rate) / 100;
      return {
        quantity,
        unit_price,
        untaxed_amount: untaxed,
        tax_rate: code.rate,
        tax_amount: tax,
        total: Math.round((untaxed + tax) * 100) / 100,
        account_number,
        tax_code: code.id,
        description: 'Prestation',
      };
    });
    const untaxed = lines.reduce((t, l) => t + cents(l.untaxed_amount), 0) / 100;
    const tax = lines.reduce((t, l) => t + cents(l.tax_amount), 0) / 100;
    const created = await a.post('/invoices', {
      invoice_type: 'customer_invoice',
      currency: 'EUR',
      untaxed_amount: untaxed,
      tax_amount: tax,
      total: (cents(untaxed) + cents(tax)) / 100,
      invoice_date: '2026-01-15',
      due_date: '2026-02-14',
      partner_id: client.id,
      lines,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      invoice_number: expected.next_document_number,
      status: 'posted',
      total: 518.2,
      accounting_info: { account_number: '411000' },
    });
    expect(created.body.invoice_number).toMatch(/^FA2026-\d{4}$/);

    const [entry] = await all(
      a,
      `/journal/entries?unposted_allowed=false&journal_id=${journal.id}&date_from=2026-01-15&date_to=2026-01-15`,
    );
    expect(entry.name).toBe(created.body.invoice_number);
    expect(entry.items.map((l: Json) => [l.account_number, l.debit, l.credit])).toEqual([
      ['411000', 518.2, 0],
      ['707000', 0, 361.5],
      ['706000', 0, 80],
      ['445710', 0, 72.3],
      ['445710', 0, 4.4],
    ]);
    const after = {
      receivable: await balanceOf('411000'),
      collected: await balanceOf('445710'),
      goods: await balanceOf('707000'),
      services: await balanceOf('706000'),
    };
    expect(cents(after.receivable.debit) - cents(before.receivable.debit)).toBe(51820);
    expect(cents(after.collected.credit) - cents(before.collected.credit)).toBe(7670);
    expect(cents(after.goods.credit) - cents(before.goods.credit)).toBe(36150);
    expect(cents(after.services.credit) - cents(before.services.credit)).toBe(8000);
    const trial = (await a.post('/chart-of-accounts/balance?size=100', { accounts: [], end: '209912' })).body;
    expect(trial.items.reduce((t: number, b: Json) => t + cents(b.balance), 0)).toBe(0);

    // Paid by transfer: the bank (512000) against the client's account, the invoice no longer open.
    const methods = await all(a, '/payment-methods');
    const transfer = methods.find((m) => m.name === 'Virement');
    const bankBefore = await balanceOf('512000');
    const paid = await a.post('/invoices/payments', {
      date: '2026-01-15',
      payment_method_id: transfer.id,
      currency: 'EUR',
      items: [{ invoice_id: created.body.id, amount: 518.2 }],
    });
    expect(paid.status, paid.text).toBe(204);
    expect(cents((await balanceOf('512000')).debit) - cents(bankBefore.debit)).toBe(51820);
    expect((await a.get(`/invoices/${created.body.id}`)).body.status).toBe('paid');
    const open = await all(a, '/outstandings?type=client&unposted_allowed=false');
    expect(open.map((item) => item.original_document?.id)).not.toContain(created.body.id);
    const sum = open.reduce((t: number, item: Json) => t + cents(item.open_amount), 0);
    expect(sum).toBe(cents((await balanceOf('411000')).balance));
  });

  it('books the bank fees, new bank accounts and new accounts on the charts of their ledgers', async () => {
    const CASES: Record<
      Exclude<Country, 'BE'>,
      { bank: string; fees: string; vat: string; created: string }
    > = {
      FR: { bank: '512200', fees: '627000', vat: '445660', created: '628100' },
      NL: { bank: '1120', fees: '4910', vat: '1800', created: '4560' },
      DE: { bank: '1220', fees: '4970', vat: '1576', created: '4980' },
      ES: { bank: '572200', fees: '626000', vat: '472000', created: '629900' },
    };
    for (const [country, expected] of Object.entries(CASES)) {
      const a = books[country as Country];
      const account = await a.post('/bank-accounts', {
        code: 'NEW',
        currency: 'EUR',
        account_number: `${country}-0001`,
        bank_name: 'Bank',
      });
      expect(account.status, account.text).toBe(200);
      expect(account.body.ledger_account, country).toBe(expected.bank);

      const statement = await a.post('/bank-transactions', {
        bank_statement_date: '2026-01-15',
        bank_account_id: account.body.id,
        currency: 'EUR',
        external_bank_statement_id: `${country}-1`,
        items: [{ amount: -12.1, fee_amount: 10, tax_amount: 2.1, description: 'Fees' }],
      });
      expect(statement.status, statement.text).toBe(200);
      const entry = (await a.get(`/journal/entries/${statement.body.items[0].id}`)).body;
      expect(
        entry.items.map((l: Json) => [l.account_number, l.debit, l.credit]),
        country,
      ).toEqual([
        [expected.bank, 0, 12.1],
        [expected.fees, 10, 0],
        [expected.vat, 2.1, 0],
      ]);

      // An account an entry opens takes the type of its class in the country's chart (an expense).
      const misc = (await all(a, '/journals')).find((j) => j.journal_type === 'miscellaneous_operation');
      const opened = await a.post('/journal-entries', {
        journal_id: misc.id,
        number: `${country}-OPEN-1`,
        date: '2026-01-15',
        currency: 'EUR',
        items: [
          {
            account_type: 'general_account',
            account: expected.created,
            debit: 50,
            credit: 0,
            account_info: { account_number: expected.created, account_name: 'New expense' },
          },
          { account_type: 'general_account', account: expected.bank, debit: 0, credit: 50 },
        ],
      });
      expect(opened.status, opened.text).toBe(200);
      const created = (await all(a, '/chart-of-accounts')).find((x) => x.number === expected.created);
      expect(created?.type, country).toBe('expense');
    }
  });

  it('goes on with the clock in every country: numbered by the day in its style, and the books add up', async () => {
    const DAY_STYLES: Record<Exclude<Country, 'BE'>, RegExp> = {
      FR: /^FA2026-\d{4}-\d{2}$/,
      NL: /^2026-\d{4}-\d{2}$/,
      DE: /^RE-2026-\d{4}-\d{2}$/,
      ES: /^A\/2026\/\d{4}-\d{2}$/,
    };
    const live = sandbox();
    let token = await sandboxToken(live);
    const consumers: [Exclude<Country, 'BE'>, string][] = [];
    for (const [country, integrationid] of Object.entries(CONNECTORS)) {
      const consumer = await call(live.app, 'POST', '/consumers', { token, body: { name: country } });
      const consumerid = consumer.body.consumerid as string;
      await call(live.app, 'POST', `/consumers/${consumerid}/connections`, {
        token,
        body: { integrationid, credentials: [{ key: 'api_key', value: 'k' }] },
      });
      // The first read builds the ledger: its history runs up to the clock's day.
      expect((await forConsumer(live, token, consumerid).get('/vat-codes')).status).toBe(200);
      consumers.push([country as Exclude<Country, 'BE'>, consumerid]);
    }
    const moved = await call(live.app, 'POST', '/__sandbox/clock', {
      body: { advance_seconds: 20 * 86_400 },
    });
    expect(moved.status, moved.text).toBe(200);
    token = await sandboxToken(live);
    for (const [country, consumerid] of consumers) {
      const a = forConsumer(live, token, consumerid);
      const chart = CHARTS[country];
      const sales = await all(a, '/invoices/type/customer_invoice?date_from=2026-01-16');
      expect(sales.length, country).toBeGreaterThan(3);
      for (const invoice of sales) expect(invoice.invoice_number, country).toMatch(DAY_STYLES[country]);

      // Every entry balances; the trial balance is the sum of the entries, and nets to zero.
      const entries = (await all(a, '/journal/entries?unposted_allowed=false')).filter((e) => e.posted);
      const sums = new Map<string, number>();
      for (const entry of entries) {
        let net = 0;
        for (const item of entry.items) {
          net += cents(item.debit) - cents(item.credit);
          sums.set(
            item.account_number,
            (sums.get(item.account_number) ?? 0) + cents(item.debit) - cents(item.credit),
          );
        }
        expect(net, `${country} ${entry.name}`).toBe(0);
      }
      const balances = (await a.post('/chart-of-accounts/balance?size=100', { accounts: [], end: '209912' }))
        .body;
      expect(balances.items.length, country).toBe(balances.total);
      let total = 0;
      for (const balance of balances.items) {
        expect(cents(balance.balance), `${country} ${balance.account_number}`).toBe(
          sums.get(balance.account_number) ?? 0,
        );
        total += cents(balance.balance);
      }
      expect(total, country).toBe(0);

      // The outstanding items add up to the receivable and payable balances.
      for (const [type, account, sign] of [
        ['client', chart.receivable[0], 1],
        ['supplier', chart.payable[0], -1],
      ] as const) {
        const open = await all(a, `/outstandings?type=${type}&unposted_allowed=false`);
        const sum = open.reduce((t: number, item: Json) => t + cents(item.open_amount), 0);
        expect(sum, `${country} ${type}`).toBe(sign * (sums.get(account) ?? 0));
      }

      // The FEC of the days: one row per line, balanced, on the accounts of the chart.
      const fec = await a.get('/export-fec?date_from=2026-01-15&date_to=2026-02-03');
      expect(fec.status, fec.text).toBe(200);
      const inPeriod = entries.filter((e) => e.date >= '2026-01-15' && e.date <= '2026-02-03');
      expect(fec.body.length, country).toBe(inPeriod.reduce((t, e) => t + e.items.length, 0));
      const debit = fec.body.reduce((t: number, r: Json) => t + cents(r.Debit), 0);
      expect(debit, country).toBe(fec.body.reduce((t: number, r: Json) => t + cents(r.Credit), 0));
      expect(
        fec.body.map((r: Json) => r.CompteNum),
        country,
      ).toContain(chart.receivable[0]);
    }
  }, 120_000);

  it('takes the VAT numbers of its country on partners, as its software does', async () => {
    const CASES: [Country, string, boolean][] = [
      ['NL', 'NL123456789B01', true],
      ['ES', 'ESB12345678', true],
      ['FR', 'FR12345678901', true],
      ['BE', 'NL123456789B01', false],
      ['FR', 'ESB12345678', false],
    ];
    for (const [country, vat, taken] of CASES) {
      const res = await books[country].post('/clients', { name: `Client ${vat}`, vat, addresses: [] });
      expect(res.status, `${country} ${vat}: ${res.text}`).toBe(taken ? 200 : 400);
      if (taken) expect(res.body.account_number).toBe(CHARTS[country].receivable[0]);
    }
  });
});
