import {
  entryHasNoReceivablePayable,
  entryNotLinkedToPartner,
  errors,
  serviceError,
} from '../../../../lib/errors.js';
import { own } from '../../../../lib/own.js';
import type { LedgerEntry, LedgerEntryLine, LedgerMatching, LedgerRecord } from '../accounting.records.js';
import { matchedCentsByLine, openCents, partnerSideOf } from './derived.js';
import { fromCents } from './money.js';
import { matchingNumber } from './payment-posting.js';
import type { LedgerChange, PostingContext } from './posting-core.js';
import { requirePartner } from './rules.js';

const fail = errors.accountingFailure;

/**
 * Matches open lines of one partner on one receivable or payable account. `ids` are line ids (the
 * ids of outstanding items), or entry or invoice ids (standing for their open lines of the partner). Debit and
 * credit sides settle each other oldest first; when they differ, the larger side stays partly open
 * and `balance` (debit positive) says by how much.
 */
export function buildMatching(
  ledger: LedgerRecord,
  ids: readonly string[],
  partnerId: string,
  ctx: PostingContext,
  date: string,
  counter = ledger.counters.matching ?? 0,
): { matching: LedgerMatching; balance: number; change: LedgerChange } {
  const partner = requirePartner(ledger, partnerId);
  if (ids.length === 0) throw fail('entries: give at least two entries to match');
  const matched = matchedCentsByLine(ledger);
  const picked: { entry: LedgerEntry; line: LedgerEntryLine; open: number }[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const entry = own(ledger.entries, id) ?? own(ledger.entries, own(ledger.invoices, id)?.entry_id ?? '');
    const found: { entry: LedgerEntry; line: LedgerEntryLine }[] = [];
    if (entry) {
      const receivable = entry.lines.filter((l) => partnerSideOf(ledger, l.account_number));
      if (receivable.length === 0) throw entryHasNoReceivablePayable(id, partnerId);
      const lines = receivable.filter((l) => l.partner_id === partner.id);
      if (lines.length === 0) throw entryNotLinkedToPartner(id, partnerId);
      const open = lines.filter((l) => openCents(l, matched) !== 0);
      if (open.length === 0) throw serviceError('entryHasInvalidStatus', `Entry '${id}' is already matched`);
      for (const line of open) found.push({ entry, line });
    } else {
      const owner = Object.values(ledger.entries).find((e) => e.lines.some((l) => l.id === id));
      const line = owner?.lines.find((l) => l.id === id);
      if (!owner || !line) throw serviceError('entryNotFound', `Entry '${id}' does not exist`);
      if (!partnerSideOf(ledger, line.account_number)) throw entryHasNoReceivablePayable(id, partnerId);
      if (line.partner_id !== partner.id) throw entryNotLinkedToPartner(id, partnerId);
      if (openCents(line, matched) === 0) {
        throw serviceError('entryHasInvalidStatus', `Entry '${id}' is already matched`);
      }
      found.push({ entry: owner, line });
    }
    for (const { entry: e, line } of found) {
      if (!e.posted) throw serviceError('entryHasInvalidStatus', `Entry '${e.id}' is not posted`);
      if (seen.has(line.id)) continue;
      seen.add(line.id);
      picked.push({ entry: e, line, open: openCents(line, matched) });
    }
  }
  if (picked.length < 2) throw fail('entries: give at least two entries to match');
  const accounts = new Set(picked.map((p) => p.line.account_number));
  if (accounts.size > 1) {
    throw serviceError('multipleGlAccounts', `The entries are on the accounts ${[...accounts].join(', ')}`);
  }
  const currencies = new Set(picked.map((p) => p.entry.currency));
  if (currencies.size > 1) throw fail('The entries are in different currencies');
  const byAge = (a: (typeof picked)[number], b: (typeof picked)[number]) =>
    a.entry.date.localeCompare(b.entry.date) || a.entry.number.localeCompare(b.entry.number);
  const debits = picked.filter((p) => p.open > 0).sort(byAge);
  const credits = picked.filter((p) => p.open < 0).sort(byAge);
  if (debits.length === 0 || credits.length === 0) {
    throw serviceError('amountsNotBalanced', 'The open amounts of the entries are all on the same side');
  }
  const debitTotal = debits.reduce((t, p) => t + p.open, 0);
  const creditTotal = -credits.reduce((t, p) => t + p.open, 0);
  const settled = Math.min(debitTotal, creditTotal);
  const allocations: LedgerMatching['allocations'] = [];
  for (const group of [debits, credits]) {
    let left = settled;
    for (const p of group) {
      if (left === 0) break;
      const take = Math.min(left, Math.abs(p.open));
      allocations.push({ entry_id: p.entry.id, line_id: p.line.id, amount: fromCents(take) });
      left -= take;
    }
  }
  const number = matchingNumber(counter + 1);
  const matching: LedgerMatching = { number, partner_id: partner.id, date, allocations, created_on: ctx.now };
  return {
    matching,
    balance: fromCents(debitTotal - creditTotal),
    change: { matchings: [matching], counters: { matching: counter + 1 } },
  };
}
