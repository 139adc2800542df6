import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/errors.js';
import { tinyPdf } from '../../../src/lib/pdf.js';
import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import {
  accountBalances,
  invoiceOpenCents,
  invoiceStatus,
  matchedCentsByLine,
  monthBounds,
  openCents,
  signedCents,
} from '../../../src/modules/accounting/model/ledger/derived.js';
import {
  round2,
  sameToTheCent,
  sumCents,
  toCents,
} from '../../../src/modules/accounting/model/ledger/money.js';
import {
  applyChange,
  buildInvoice,
  buildMatching,
  type InvoiceDraft,
  type PostingContext,
} from '../../../src/modules/accounting/model/ledger/posting.js';
import { assertPdf, assertVatNumber } from '../../../src/modules/accounting/model/ledger/rules.js';
import { seedFolders, seedLedger } from '../../../src/modules/accounting/world/accounting.seed.js';
import { LEGACY_UNTIL } from '../../../src/platform/datasets.js';

/** The ledger model on its own: the seed, the derived figures and the posting functions. */

const folder = seedFolders(3, 'consumer-a', 1000, 1)[0];
if (!folder) throw new Error('no folder');
const build = (unifiedPartners = false) =>
  seedLedger({ seed: 3, consumerid: 'consumer-a', integrationid: 1000, unifiedPartners, folder });

/** A posting context of its own for each test, so that the ids it mints do not depend on other tests. */
function postingContext(): PostingContext {
  let minted = 0;
  return { mint: (kind) => `${kind}-${++minted}`, now: '2026-01-15T09:00:00.000Z' };
}

describe('money', () => {
  it('adds in cents', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sameToTheCent(0.1 + 0.2, 0.3)).toBe(true);
    expect(sumCents([0.1, 0.2, 19.99])).toBe(2029);
    expect(toCents(-1.005)).toBe(-100);
  });

  it.each([
    [1.005, 1.01],
    [2.675, 2.68],
    [-1.005, -1.01],
    [0, 0],
    [10.1, 10.1],
  ])('rounds %d half away from zero to %d', (value, expected) => {
    expect(round2(value)).toBe(expected);
  });
});

describe('the seeded ledger', () => {
  it('is the same for the same seed, consumer and folder, and differs otherwise', () => {
    expect(JSON.stringify(build())).toBe(JSON.stringify(build()));
    const other = seedLedger({
      seed: 4,
      consumerid: 'consumer-a',
      integrationid: 1000,
      unifiedPartners: false,
      folder,
    });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(build()));
    expect(seedFolders(3, 'consumer-a', 1000, 1)).toEqual(seedFolders(3, 'consumer-a', 1000, 1));
    expect(seedFolders(3, 'consumer-a', 90101, 3)).toHaveLength(3);
  });

  it('balances every entry, and the whole ledger', () => {
    const ledger = build();
    for (const entry of Object.values(ledger.entries)) {
      expect(
        entry.lines.reduce((t, l) => t + signedCents(l), 0),
        entry.number,
      ).toBe(0);
    }
    const all = accountBalances(ledger, [], '2024-01-01', '2026-12-31');
    expect(all.reduce((t, b) => t + toCents(b.balance), 0)).toBe(0);
  });

  it('has invoices whose totals agree with their lines and their entries', () => {
    const ledger = build();
    for (const invoice of Object.values(ledger.invoices)) {
      expect(sumCents(invoice.lines.map((l) => l.untaxed_amount))).toBe(toCents(invoice.untaxed_amount));
      expect(sumCents(invoice.lines.map((l) => l.tax_amount))).toBe(toCents(invoice.tax_amount));
      const entry = ledger.entries[invoice.entry_id];
      const partnerLine = entry?.lines.find((l) => l.id === invoice.partner_line_id);
      expect(Math.abs(signedCents(partnerLine ?? { debit: 0, credit: 0 }))).toBe(toCents(invoice.total));
      expect(entry?.number).toBe(invoice.invoice_number);
    }
  });

  it('numbers documents in date order within each journal and book year', () => {
    const ledger = build();
    const byJournal = new Map<string, { date: string; number: string }[]>();
    for (const entry of Object.values(ledger.entries)) {
      const list = byJournal.get(entry.journal_id) ?? [];
      list.push({ date: entry.date, number: entry.number });
      byJournal.set(entry.journal_id, list);
    }
    for (const list of byJournal.values()) {
      const byNumber = [...list].sort((a, b) => a.number.localeCompare(b.number));
      const byDate = [...list].sort(
        (a, b) => a.date.localeCompare(b.date) || a.number.localeCompare(b.number),
      );
      expect(byNumber).toEqual(byDate);
    }
  });

  it('never settles more than a line holds, and has paid, partly paid and open invoices', () => {
    const ledger = build();
    const matched = matchedCentsByLine(ledger);
    for (const entry of Object.values(ledger.entries)) {
      for (const line of entry.lines) {
        expect(matched.get(line.id) ?? 0).toBeLessThanOrEqual(Math.abs(signedCents(line)));
      }
    }
    const invoices = Object.values(ledger.invoices);
    const statuses = invoices.map((inv) => invoiceStatus(ledger, inv, matched));
    expect(statuses).toContain('paid');
    expect(statuses).toContain('posted');
    const partly = invoices.filter((inv) => {
      const open = invoiceOpenCents(ledger, inv, matched);
      return open > 0 && open < toCents(inv.total);
    });
    expect(partly.length).toBeGreaterThan(0);
  });

  it('leaves every book year open after booking them, and dates nothing after its day', () => {
    // Built without `until`: seeded up to LEGACY_UNTIL, from 2021.
    const ledger = build();
    const last = Number(LEGACY_UNTIL.slice(0, 4));
    expect(ledger.bookyears.map((y) => [y.name, y.closed])).toEqual(
      Array.from({ length: last - 2021 + 1 }, (_, i) => [String(2021 + i), false]),
    );
    const dates = Object.values(ledger.entries).map((e) => e.date);
    expect(dates.some((d) => d < '2021-02-01')).toBe(true);
    expect(dates.every((d) => d < LEGACY_UNTIL)).toBe(true);
  });

  it('holds partners that are both client and supplier only for unified integrations', () => {
    const both = (ledger: LedgerRecord) =>
      Object.values(ledger.partners).filter((p) => p.is_client && p.is_supplier);
    expect(both(build())).toEqual([]);
    expect(both(build(true)).length).toBe(2);
  });

  it('attaches small valid PDFs', () => {
    const ledger = build();
    const attachments = Object.values(ledger.attachments);
    expect(attachments.length).toBeGreaterThan(0);
    for (const attachment of attachments) expect(() => assertPdf(attachment.base64_string)).not.toThrow();
    expect(Buffer.from(tinyPdf('x'), 'base64').toString('latin1')).toMatch(/^%PDF-1\.4[\s\S]*%%EOF\n$/);
  });
});

describe('postings', () => {
  const draftFor = (ledger: LedgerRecord, overrides: Partial<InvoiceDraft> = {}): InvoiceDraft => {
    const vat = Object.values(ledger.vat_codes).find((v) => v.code === 'V21');
    const client = Object.values(ledger.partners).find((p) => p.is_client && p.active);
    return {
      invoice_type: 'customer_invoice',
      invoice_number: null,
      currency: 'EUR',
      currency_exchange_rate: 1,
      untaxed_amount: 100,
      tax_amount: 21,
      total: 121,
      reference: null,
      payment_communication: null,
      customer_memo: null,
      payment_term_id: null,
      withholding_tax: null,
      invoice_date: '2026-01-15',
      due_date: '2026-02-15',
      partner_id: client?.id ?? null,
      journal_id: null,
      status: 'posted',
      pdf: null,
      pdf_name: null,
      payment_method_id: null,
      start_date: null,
      end_date: null,
      shipping_country: null,
      approval_status: 'unknown',
      force_financial_period: null,
      regroup_lines: true,
      lines: [
        {
          line_number: 1,
          unit_price: 100,
          unit_of_measure: null,
          quantity: 1,
          untaxed_amount: 100,
          tax_rate: 21,
          tax_amount: 21,
          total: 121,
          account_number: '700000',
          tax_code: vat?.id ?? '',
          description: 'x',
          analytic_distribution: [],
        },
      ],
      ...overrides,
    };
  };

  it('checks everything before it changes the ledger', () => {
    const ctx = postingContext();
    const ledger = build();
    const before = JSON.stringify(ledger);
    expect(() => buildInvoice(ledger, draftFor(ledger, { total: 120 }), ctx)).toThrow(ApiError);
    const { change } = buildInvoice(ledger, draftFor(ledger), ctx);
    expect(JSON.stringify(ledger)).toBe(before);
    applyChange(ledger, change, ctx.now);
    expect(Object.keys(ledger.invoices).length).toBe(Object.keys(JSON.parse(before).invoices).length + 1);
  });

  it('matches oldest first and leaves the difference open', () => {
    const ctx = postingContext();
    const ledger = build();
    const first = buildInvoice(ledger, draftFor(ledger), ctx);
    applyChange(ledger, first.change, ctx.now);
    const second = buildInvoice(ledger, draftFor(ledger, { invoice_date: '2026-01-16' }), ctx);
    applyChange(ledger, second.change, ctx.now);
    const refund = buildInvoice(ledger, draftFor(ledger, { invoice_type: 'customer_refund' }), ctx);
    applyChange(ledger, refund.change, ctx.now);
    // 121 + 121 owed against 121 refunded: the older invoice is settled, the newer stays open.
    const partner = first.invoice.partner_id;
    const { balance, change } = buildMatching(
      ledger,
      [second.invoice.partner_line_id, first.invoice.partner_line_id, refund.invoice.partner_line_id],
      partner,
      ctx,
      '2026-01-20',
    );
    expect(balance).toBe(121);
    applyChange(ledger, change, ctx.now);
    const matched = matchedCentsByLine(ledger);
    expect(invoiceStatus(ledger, first.invoice, matched)).toBe('paid');
    expect(invoiceStatus(ledger, second.invoice, matched)).toBe('posted');
    const refundLine = ledger.entries[refund.invoice.entry_id]?.lines[0];
    expect(refundLine && openCents(refundLine, matched)).toBe(0);
  });
});

describe('rules', () => {
  it.each(['BE0123456789', 'NL123456789', 'FR12345678901', null, undefined])(
    'accepts the VAT number %s',
    (vat) => {
      expect(() => assertVatNumber(vat)).not.toThrow();
    },
  );

  it.each(['BE 0123456789', 'BE0123.456.789', 'be0123456789', '0123456789', 'B0123456789', 'BE', ''])(
    'refuses the VAT number %j',
    (vat) => {
      expect(() => assertVatNumber(vat)).toThrow(ApiError);
    },
  );

  it('bounds months', () => {
    expect(monthBounds('202402')).toEqual({ first: '2024-02-01', last: '2024-02-29' });
    expect(monthBounds('202512')).toEqual({ first: '2025-12-01', last: '2025-12-31' });
  });
});
