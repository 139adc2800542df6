import { describe, expect, it } from 'vitest';
import { isValidIban } from '../../../src/platform/seeding/finance-fakes.js';
import { call, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * An invoicing connection is a company of its software's country: a French one (Vosfactures) charges
 * French VAT with its taxes in French, sells mostly to French companies (FR VAT numbers, +33 phones,
 * French places, French), numbers its invoices FA2026-0001, banks in France; a Dutch one (Sandbox
 * Invoicing Basic) charges BTW and numbers 2026-0001; a Belgian one (Billit) keeps the Belgian company
 * the sandbox always had. Through the days after the history too.
 */

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

const DAY = 86_400;

async function invoicingOf(
  integrationid: number,
  credentials: Record<string, string>,
  s: TestSandbox = sandbox(),
) {
  const token = await sandboxToken(s);
  const { consumerId } = await consumerWith(s, token, integrationid, credentials);
  const get = async (path: string): Promise<Item[]> => {
    const items: Item[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const res = await call(
        s.app,
        'GET',
        `/consumers/${consumerId}/invoicing/${path}${sep}page=${page}&size=100`,
        {
          token: await sandboxToken(s),
        },
      );
      expect(res.status, res.text).toBe(200);
      items.push(...res.body.items);
      if (page * 100 >= res.body.total) return items;
    }
  };
  const post = async (path: string, body: unknown) =>
    call(s.app, 'POST', `/consumers/${consumerId}/invoicing/${path}`, { token: await sandboxToken(s), body });
  return { s, get, post };
}

const mainAddress = (contact: Item) => contact.addresses.find((a: Item) => a.address_type === 'main');

/** The share of the EUR contacts whose main address is in `country`. */
const shareIn = (contacts: Item[], country: string) => {
  const eur = contacts.filter((c) => c.currency === 'EUR');
  return eur.filter((c) => mainAddress(c)?.country === country).length / eur.length;
};

const PREFIXES: Record<string, string> = { BE: '+32', FR: '+33', NL: '+31', DE: '+49', US: '+1' };

describe('the invoicing software of a connector is of its country', () => {
  it('a French one: TVA 20, 10, 5,5, 2,1 %, French customers, invoices FA2026-0001, a French bank', async () => {
    const { s, get, post } = await invoicingOf(7006, { api_token: 't' });
    const taxes = await get('taxes');
    expect(taxes.map((t) => [t.code, t.label, t.rate])).toEqual([
      ['TVA20', 'TVA 20%', 20],
      ['TVA10', 'TVA 10%', 10],
      ['TVA5.5', 'TVA 5,5%', 5.5],
      ['TVA2.1', 'TVA 2,1%', 2.1],
      ['TVA0', 'Exonéré de TVA', 0],
      ['LIC', 'Livraison intracommunautaire (autoliquidation)', 0],
      ['EXP', 'Exportation hors UE', 0],
      ['AIC20', 'Acquisition intracommunautaire 20%', 20],
      ['TVA19.6', 'TVA 19,6% (ancien taux)', 19.6],
    ]);
    expect(taxes.filter((t) => !t.active).map((t) => t.code)).toEqual(['TVA19.6']);
    const rateOf = new Map(taxes.map((t) => [t.id, t.rate]));
    const products = new Map((await get('products')).map((p) => [p.code, rateOf.get(p.tax_id)]));
    // Books at 5.5 %, plants and renovation works at 10 %, the rest at 20 %.
    expect([
      products.get('SRV-CONS'),
      products.get('GDS-BOOK'),
      products.get('GDS-PLANT'),
      products.get('SRV-RENO'),
    ]).toEqual([20, 5.5, 10, 10]);

    const contacts = await get('contacts');
    expect(shareIn(contacts, 'FR')).toBeGreaterThanOrEqual(0.6);
    for (const contact of contacts) {
      const address = mainAddress(contact);
      const country = address.country as string;
      if (contact.currency === 'EUR') expect(['FR', 'BE', 'DE']).toContain(country);
      else expect(country).toBe('US');
      // Its VAT number, phones and language are of its country.
      if (contact.vat) expect(contact.vat.slice(0, 2)).toBe(country);
      for (const phone of [contact.phone, contact.mobile].filter(Boolean)) {
        expect(phone.startsWith(`${PREFIXES[country]} `)).toBe(true);
      }
      if (country === 'FR') {
        expect(contact.language).toBe('fr');
        expect(['Paris', 'Lyon', 'Lille', 'Bordeaux', 'Nantes']).toContain(address.city);
        if (contact.vat) {
          expect(contact.vat).toMatch(/^FR\d{11}$/);
          expect(contact.company_number).toBe(contact.vat.slice(4));
        }
      }
      if (contact.customer_account_number) expect(contact.customer_account_number).toMatch(/^411\d{3}$/);
      if (contact.supplier_account_number) expect(contact.supplier_account_number).toMatch(/^401\d{3}$/);
    }

    const invoices = await get('invoices');
    const ofType = (type: string) =>
      invoices.filter((i) => i.invoice_type === type).map((i) => i.invoice_number);
    expect(ofType('customer_invoice').every((n) => /^FA20\d{2}-\d{4}$/.test(n))).toBe(true);
    expect(ofType('customer_refund').every((n) => /^AV20\d{2}-\d{4}$/.test(n))).toBe(true);
    expect(ofType('supplier_invoice').every((n) => /^AC20\d{2}-\d{4}$/.test(n))).toBe(true);
    expect(ofType('supplier_refund').every((n) => /^AF20\d{2}-\d{4}$/.test(n))).toBe(true);
    const french = new Set([20, 10, 5.5, 2.1, 0]);
    for (const invoice of invoices) {
      // No structured communication: that is Belgian.
      expect(invoice.payment_communication).toBeNull();
      expect(invoice.journal_ref.id).toBe(invoice.invoice_type.startsWith('customer') ? 'VT' : 'AC');
      for (const line of invoice.lines) {
        expect(french.has(line.tax_rate)).toBe(true);
        if (invoice.currency === 'USD') {
          expect(line.tax_exemption_reason).toBe('Exonération de TVA, article 262 I du CGI');
        }
      }
    }
    expect(invoices.some((i) => i.currency === 'USD')).toBe(true);
    expect(invoices.some((i) => i.lines.some((l: Item) => l.tax_rate === 5.5 || l.tax_rate === 10))).toBe(
      true,
    );

    const accounts = await get('bank-accounts');
    for (const account of accounts) {
      expect(account.iban.startsWith('FR76')).toBe(true);
      expect(isValidIban(account.iban)).toBe(true);
    }
    const lines = await get(`bank-transactions?bank_account_id=${accounts[0].id}`);
    expect(
      lines.filter((l) => l.description === 'Bank fees').every((l) => l.accounting_code === '627000'),
    ).toBe(true);

    // A client's invoice gets the next number of the year's series.
    const customer = contacts.find((c) => c.is_customer && c.currency === 'EUR');
    const created = await post('invoices', {
      invoice_type: 'customer_invoice',
      status: 'draft',
      currency: 'EUR',
      invoice_date: '2027-03-01',
      untaxed_amount: 100,
      tax_amount: 20,
      total: 120,
      partner_id: customer.id,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.invoice_number).toBe('FA2027-0001');

    // The days after the history go on in France: their numbers, rates and mentions.
    const moved = await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: 30 * DAY } });
    expect(moved.status, moved.text).toBe(200);
    const days = (await get('invoices?date_from=2026-01-15')).filter((i) =>
      /\d{8}-\d{3}$/.test(i.invoice_number),
    );
    expect(days.length).toBeGreaterThan(10);
    for (const invoice of days) {
      expect(invoice.invoice_number).toMatch(/^(FA|AV|AC|AF)2026\d{4}-\d{3}$/);
      for (const line of invoice.lines) expect(french.has(line.tax_rate)).toBe(true);
    }
  });

  it('a Dutch one: BTW 21 and 9 %, Dutch customers, invoices 2026-0001', async () => {
    const { get } = await invoicingOf(90401, { username: 'u', password: 'p' });
    const taxes = await get('taxes');
    expect(taxes.filter((t) => t.scope === 'nat' && t.active).map((t) => [t.code, t.label, t.rate])).toEqual([
      ['BTW21', 'BTW 21%', 21],
      ['BTW9', 'BTW 9%', 9],
      ['BTW0', 'Vrijgesteld van btw', 0],
    ]);
    const contacts = await get('contacts');
    expect(shareIn(contacts, 'NL')).toBeGreaterThanOrEqual(0.6);
    for (const contact of contacts.filter((c) => mainAddress(c).country === 'NL')) {
      expect(contact.language).toBe('nl');
      if (contact.vat) expect(contact.vat).toMatch(/^NL\d{9}B01$/);
      if (contact.phone) expect(contact.phone.startsWith('+31 ')).toBe(true);
    }
    const invoices = await get('invoices');
    const numbers = invoices
      .filter((i) => i.invoice_type === 'customer_invoice')
      .map((i) => i.invoice_number);
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every((n) => /^20\d{2}-\d{4}$/.test(n))).toBe(true);
    const rates = new Set(invoices.flatMap((i) => i.lines.map((l: Item) => l.tax_rate)));
    for (const rate of rates) expect([21, 9, 0]).toContain(rate);
    expect(rates.has(9)).toBe(true);
    const accounts = await get('bank-accounts');
    expect(accounts.every((a) => a.iban.startsWith('NL') && isValidIban(a.iban))).toBe(true);
  });

  it('a Belgian one keeps the Belgian company: VAT 21, 12, 6 %, BE customers, INV-2026-0001', async () => {
    const { get } = await invoicingOf(7023, { username: 'u', password: 'p' });
    const taxes = await get('taxes');
    expect(taxes.map((t) => [t.code, t.label, t.rate])).toEqual([
      ['V21', 'VAT 21%', 21],
      ['V12', 'VAT 12%', 12],
      ['V06', 'VAT 6%', 6],
      ['V00', 'VAT exempt', 0],
      ['ICL', 'Intra-community supply (reverse charge)', 0],
      ['EXP', 'Export outside the EU', 0],
      ['ICA21', 'Intra-community purchase 21%', 21],
      ['V195', 'VAT 19.5% (no longer used)', 19.5],
    ]);
    const contacts = await get('contacts');
    expect(shareIn(contacts, 'BE')).toBeGreaterThanOrEqual(0.6);
    expect(contacts.filter((c) => c.vat).every((c) => /^BE0\d{9}$/.test(c.vat))).toBe(true);
    expect(contacts.filter((c) => c.phone).every((c) => c.phone.startsWith('+32 2 '))).toBe(true);
    const invoices = await get('invoices?include_invoice_lines=true');
    const customer = invoices.filter((i) => i.invoice_type === 'customer_invoice');
    expect(customer.every((i) => /^INV-20\d{2}-\d{4}$/.test(i.invoice_number))).toBe(true);
    expect(
      customer.some((i) => /^\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+$/.test(i.payment_communication ?? '')),
    ).toBe(true);
    const accounts = await get('bank-accounts');
    expect(accounts.every((a) => a.iban.startsWith('BE') && isValidIban(a.iban))).toBe(true);
  });
});
