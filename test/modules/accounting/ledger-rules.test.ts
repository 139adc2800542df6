import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/errors.js';
import { tinyPdf } from '../../../src/lib/pdf.js';
import type { LedgerRecord } from '../../../src/modules/accounting/model/accounting.records.js';
import { analyticFigures, mainAnalyticPlan } from '../../../src/modules/accounting/model/ledger/analytics.js';
import {
  buildInvoiceAttachment,
  expenseJournalOf,
} from '../../../src/modules/accounting/model/ledger/documents.js';
import { fecRows } from '../../../src/modules/accounting/model/ledger/fec.js';
import {
  applyChange,
  checkedBuild,
  mintDocumentNumbers,
  type PostingContext,
} from '../../../src/modules/accounting/model/ledger/posting.js';
import { normalizeIban, requireGeneralAccount } from '../../../src/modules/accounting/model/ledger/rules.js';
import {
  buildBankStatement,
  buildFinancialEntry,
  isBankAccount,
} from '../../../src/modules/accounting/model/ledger/treasury.js';
import { seedFolders, seedLedger } from '../../../src/modules/accounting/world/accounting.seed.js';

/** The treasury, document and analytic postings and their derived figures, over a seeded ledger. */

const folder = seedFolders(5, 'consumer-b', 1000, 1)[0];
if (!folder) throw new Error('no folder');
const build = (): LedgerRecord =>
  seedLedger({ seed: 5, consumerid: 'consumer-b', integrationid: 1000, unifiedPartners: false, folder });

const counting = () => {
  const minted: string[] = [];
  const ctx: PostingContext = {
    mint: (kind) => {
      minted.push(kind);
      return `${kind}-${minted.length}`;
    },
    now: '2026-01-15T09:00:00.000Z',
  };
  return { ctx, minted };
};

const journal = (ledger: LedgerRecord, code: string) => {
  const found = Object.values(ledger.journals).find((j) => j.code === code);
  if (!found) throw new Error(`no journal ${code}`);
  return found;
};

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.detail;
    throw error;
  }
  throw new Error('not refused');
};

describe('rules', () => {
  it.each([
    ['BE68 5390 0754 7034', 'BE68539007547034'],
    ['nl91abna0417164300', 'NL91ABNA0417164300'],
    ['DE89370400440532013000', 'DE89370400440532013000'],
  ])('accepts the IBAN %s as %s', (input, clean) => {
    expect(normalizeIban(input)).toBe(clean);
  });

  it.each([
    ['BE68539007547035', /fails its check digits/],
    ['BE6853', /not well formed/],
    ['68539007547034BE', /not well formed/],
  ])('refuses the IBAN %s', (input, detail) => {
    expect(refusal(() => normalizeIban(input))).toMatch(detail);
  });

  it('takes general accounts only where a general line is expected', () => {
    const ledger = build();
    expect(requireGeneralAccount(ledger, '612000', 'x').number).toBe('612000');
    expect(refusal(() => requireGeneralAccount(ledger, '440000', 'lines[0]'))).toMatch(
      /lines\[0\]: the account '440000' cannot be used for this type of line/,
    );
  });
});

describe('postings', () => {
  it('checkedBuild mints nothing when the build is refused after minting', () => {
    const { ctx, minted } = counting();
    expect(() =>
      checkedBuild(ctx, (c) => {
        c.mint('entry');
        throw new ApiError(400, 'refused');
      }),
    ).toThrow(ApiError);
    expect(minted).toEqual([]);
    expect(checkedBuild(ctx, (c) => c.mint('entry'))).toBe('entry-1');
  });

  it('mints consecutive document numbers without storing them', () => {
    const ledger = build();
    const bank = journal(ledger, 'BNK');
    const { numbers, counters } = mintDocumentNumbers(ledger, bank, '2026', 3);
    const first = Number(numbers[0]?.split('/')[2]);
    expect(numbers).toEqual([0, 1, 2].map((i) => `BNK/2026/${String(first + i).padStart(4, '0')}`));
    expect(Object.values(counters)).toEqual([first + 2]);
    expect(Object.values(ledger.entries).some((e) => e.number === numbers[0])).toBe(false);
  });

  it('a refused statement or financial entry leaves the ledger and the id source untouched', () => {
    const ledger = build();
    const before = JSON.stringify(ledger);
    const { ctx, minted } = counting();
    const bank = journal(ledger, 'BNK');
    const statement = {
      date: '2026-01-15',
      bank_account_id: bank.id,
      currency: 'EUR',
      external_bank_statement_id: 'S1',
      opening_balance: null,
      pdf: null,
      pdf_name: null,
      items: [
        {
          general_ledger_account: null,
          description: null,
          external_transaction_id: null,
          amount: 5,
          fee_amount: 0,
          tax_amount: 0,
          currency_exchange_rate: 1,
          counterpart: null,
        },
        {
          general_ledger_account: '999999',
          description: null,
          external_transaction_id: null,
          amount: 5,
          fee_amount: 0,
          tax_amount: 0,
          currency_exchange_rate: 1,
          counterpart: null,
        },
      ],
    };
    expect(refusal(() => buildBankStatement(ledger, statement, ctx))).toMatch(/'999999' does not exist/);
    expect(
      refusal(() =>
        buildFinancialEntry(
          ledger,
          {
            date: '2026-01-15',
            journal_id: bank.id,
            currency: 'EUR',
            currency_exchange_rate: 1,
            reference: null,
            number: null,
            pdf: null,
            pdf_name: null,
            counterpart_account: null,
            items: [
              {
                account_type: 'customer_account',
                account: 'nobody',
                force_general_account: null,
                amount: 5,
                description: null,
                tax: null,
                automated_matching_number: 'NOTHING',
              },
            ],
          },
          ctx,
        ),
      ),
    ).toMatch(/partner 'nobody' does not exist/);
    expect(minted).toEqual([]);
    expect(JSON.stringify(ledger)).toBe(before);
  });

  it('replaces an invoice attachment only when asked, and moves the invoice', () => {
    const ledger = build();
    const attached = Object.values(ledger.attachments)[0];
    const invoice = attached && ledger.invoices[attached.document_id];
    if (!invoice) throw new Error('no attached invoice');
    const { ctx } = counting();
    expect(refusal(() => buildInvoiceAttachment(ledger, invoice, tinyPdf('x'), null, false, ctx))).toMatch(
      /already has an attachment/,
    );
    const change = buildInvoiceAttachment(ledger, invoice, tinyPdf('new'), 'new', true, ctx);
    expect(change.removed_attachments).toEqual([attached.id]);
    applyChange(ledger, change, ctx.now);
    const left = Object.values(ledger.attachments).filter((a) => a.document_id === invoice.id);
    expect(left.map((a) => a.filename)).toEqual(['new.pdf']);
    expect(ledger.invoices[invoice.id]?.last_updated_on).toBe(ctx.now);
  });
});

describe('derived figures', () => {
  it('splits each distributed line over its analytic accounts, to the cent, posted entries only', () => {
    const ledger = build();
    const plan = mainAnalyticPlan(ledger);
    const [x, y] = Object.values(ledger.analytic_accounts).filter((acc) => acc.plan_id === plan.id);
    if (!x || !y) throw new Error('no analytic accounts');
    const base = analyticFigures(ledger);
    const entry = Object.values(ledger.entries).find((e) => e.posted && e.lines.length >= 2);
    if (!entry) throw new Error('no entry');
    const copy = structuredClone(entry);
    copy.id = 'analytic-test';
    copy.lines = [
      {
        ...copy.lines[0],
        id: 'l1',
        debit: 10.01,
        credit: 0,
        analytic_distribution: [
          {
            analytic_plan: plan.id,
            analytic_accounts: [
              { analytic_account: x.id, percentage: 50 },
              { analytic_account: y.id, percentage: 50 },
            ],
          },
        ],
      },
      { ...copy.lines[0], id: 'l2', debit: 0, credit: 10.01, analytic_distribution: [] },
    ] as typeof copy.lines;
    ledger.entries[copy.id] = copy;
    const after = analyticFigures(ledger);
    expect(Math.round(((after.get(x.id)?.debit ?? 0) - (base.get(x.id)?.debit ?? 0)) * 100)).toBe(501);
    expect(Math.round(((after.get(y.id)?.debit ?? 0) - (base.get(y.id)?.debit ?? 0)) * 100)).toBe(501);
    copy.posted = false;
    expect(analyticFigures(ledger).get(x.id)?.debit).toBe(base.get(x.id)?.debit);
  });

  it('exports balanced FEC rows, and none for a reversed period', () => {
    const ledger = build();
    const rows = fecRows(ledger, '2025-01-01', '2025-06-30');
    expect(rows.reduce((t, r) => t + Math.round(r.Debit * 100), 0)).toBe(
      rows.reduce((t, r) => t + Math.round(r.Credit * 100), 0),
    );
    expect(rows.every((r) => r.Idevise === '' && r.Montantdevise === 0)).toBe(true);
    expect(fecRows(ledger, '2025-06-30', '2025-01-01')).toEqual([]);
  });

  it('knows the bank accounts and the journal of expense notes', () => {
    const ledger = build();
    expect(
      Object.values(ledger.journals)
        .filter((j) => isBankAccount(ledger, j))
        .map((j) => j.code),
    ).toEqual(['BNK']);
    expect(expenseJournalOf(ledger).code).toBe('OD');
  });
});
