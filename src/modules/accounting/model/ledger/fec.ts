import { own } from '../../../../lib/own.js';
import type { LedgerRecord } from '../accounting.records.js';
import { inMainCurrency } from './money.js';

/**
 * The French FEC (fichier des écritures comptables): one row per line of the posted entries dated in
 * the period, in date, journal and number order. Amounts are in the folder's currency; a line booked
 * in another currency also gives its amount and currency (Montantdevise, Idevise). Matched lines carry
 * their matching numbers (EcritureLet) and the date of the last matching (DateLet).
 */

export interface FecRow {
  JournalCode: string;
  JournalLib: string;
  EcritureNum: string;
  EcritureDate: string;
  CompteNum: string;
  CompteLib: string;
  CompAuxNum: string;
  CompAuxLib: string;
  PieceRef: string;
  PieceDate: string;
  Debit: number;
  Credit: number;
  EcritureLet: string;
  DateLet: string | null;
  ValidDate: string | null;
  Montantdevise: number;
  Idevise: string;
}

/** The rows of the period; a date_to before date_from gives none. */
export function fecRows(ledger: LedgerRecord, from: string, to: string): FecRow[] {
  const matchings = new Map<string, { numbers: string[]; date: string }>();
  for (const matching of Object.values(ledger.matchings)) {
    for (const allocation of matching.allocations) {
      const known = matchings.get(allocation.line_id) ?? { numbers: [], date: matching.date };
      if (!known.numbers.includes(matching.number)) known.numbers.push(matching.number);
      if (matching.date > known.date) known.date = matching.date;
      matchings.set(allocation.line_id, known);
    }
  }
  const entries = Object.values(ledger.entries)
    .filter((e) => e.posted && e.date >= from && e.date <= to)
    .sort((a, b) => {
      const ja = own(ledger.journals, a.journal_id)?.code ?? '';
      const jb = own(ledger.journals, b.journal_id)?.code ?? '';
      return a.date.localeCompare(b.date) || ja.localeCompare(jb) || a.number.localeCompare(b.number);
    });
  const main = ledger.folder.main_currency;
  return entries.flatMap((entry) => {
    const journal = own(ledger.journals, entry.journal_id);
    const invoice = entry.invoice_id ? own(ledger.invoices, entry.invoice_id) : undefined;
    const foreign = entry.currency !== main;
    return entry.lines.map((line): FecRow => {
      const partner = line.partner_id ? own(ledger.partners, line.partner_id) : undefined;
      const employee = line.employee_id ? own(ledger.employees, line.employee_id) : undefined;
      const matched = matchings.get(line.id);
      return {
        JournalCode: journal?.code ?? '',
        JournalLib: journal?.name ?? '',
        EcritureNum: entry.number,
        EcritureDate: entry.date,
        CompteNum: line.account_number,
        CompteLib: own(ledger.accounts, line.account_number)?.name ?? '',
        CompAuxNum: partner?.code ?? employee?.reference ?? employee?.id ?? '',
        CompAuxLib: partner?.name ?? employee?.name ?? '',
        PieceRef: invoice?.invoice_number ?? entry.reference ?? entry.number,
        PieceDate: invoice?.invoice_date ?? entry.date,
        Debit: inMainCurrency(line.debit, entry.currency_exchange_rate),
        Credit: inMainCurrency(line.credit, entry.currency_exchange_rate),
        EcritureLet: matched ? matched.numbers.join(',') : '',
        DateLet: matched ? matched.date : null,
        ValidDate: entry.created_on.slice(0, 10),
        Montantdevise: foreign ? line.debit || line.credit : 0,
        Idevise: foreign ? entry.currency : '',
      };
    });
  });
}
