import { uuidFrom } from '../lib/ids.js';
import type { VerticalTaxTotal } from '../store/world.js';
import { type Faker, fakerFor } from './fakers.js';

export { type Faker, fakerFor };

/**
 * Helpers of the seeded POS, eCommerce and PMS datasets (pos.seed.ts, commerce.seed.ts and
 * pms.seed.ts in the verticals' folders): a faker seeded from a hash of the ids a dataset depends on,
 * the ids of the records, amounts kept exact to the cent, and the calendar the data lives in.
 */

/** The sandbox's manual clock starts here: seeded activity stops just before it. */
export const DATA_END = '2026-01-15T09:00:00.000Z';
export const DATA_END_DAY = DATA_END.slice(0, 10);

/** Ids of a connection's records, named by their kind and place ((kind, index...)), not by order of making. */
export const connectionIds =
  (vertical: string, connectionid: string) =>
  (kind: string, ...parts: (string | number)[]): string =>
    uuidFrom(vertical, connectionid, kind, ...parts);

/**
 * The software's own ids of the records (their source_ref), numbered from a random start above
 * `from` (at most `spread` above it) in random steps of 1 to `maxStep`.
 */
export function nativeRefs(
  faker: Faker,
  from: number,
  spread: number,
  maxStep: number,
): (model: string) => { id: string; model: string } {
  let native = from + faker.number.int({ min: 0, max: spread });
  return (model) => {
    native += faker.number.int({ min: 1, max: maxStep });
    return { id: String(native), model };
  };
}

/** A number in `width` digits, zero-padded. */
export const pad = (n: number, width: number): string => String(n).padStart(width, '0');

export const pick = <T>(faker: Faker, items: readonly T[]): T => faker.helpers.arrayElement(items as T[]);

/** Rounds to the cent (half away from zero). */
export const round2 = (amount: number): number => {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-9);
  return (Math.sign(amount) * cents) / 100 || 0;
};

/** Sum of amounts, exact to the cent. */
export const sum2 = (amounts: readonly number[]): number =>
  round2(amounts.reduce((total, amount) => total + Math.round(amount * 100), 0) / 100);

/** Tax of an untaxed amount at a rate in percent, rounded to the cent. */
export const taxOf = (untaxed: number, rate: number | null): number => round2((untaxed * (rate ?? 0)) / 100);

export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The ISO days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) out.push(day);
  return out;
}

/** An instant `minutes` after midnight (UTC) of a day. */
export const atMinute = (day: string, minutes: number): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + minutes * 60_000).toISOString();

export const plusMinutes = (instant: string, minutes: number): string =>
  new Date(Date.parse(instant) + minutes * 60_000).toISOString();

/** Lines' taxes summed per (tax id, rate), in order of rate: what an order or a closure reports. */
export function taxTotals(
  lines: readonly { tax_id: string | null; tax_rate: number | null; tax_amount: number; total: number }[],
): VerticalTaxTotal[] {
  const groups = new Map<
    string,
    { tax_id: string | null; tax_rate: number; tax: number[]; total: number[] }
  >();
  for (const line of lines) {
    const rate = line.tax_rate ?? 0;
    const key = `${line.tax_id ?? ''}:${rate}`;
    let group = groups.get(key);
    if (!group) {
      group = { tax_id: line.tax_id, tax_rate: rate, tax: [], total: [] };
      groups.set(key, group);
    }
    group.tax.push(line.tax_amount);
    group.total.push(line.total);
  }
  return [...groups.values()]
    .sort((a, b) => a.tax_rate - b.tax_rate || String(a.tax_id).localeCompare(String(b.tax_id)))
    .map((g) => ({ tax_id: g.tax_id, tax_rate: g.tax_rate, tax_amount: sum2(g.tax), total: sum2(g.total) }));
}

/** Merges tax totals of several documents (same tax id and rate added up). */
export function mergeTaxTotals(totals: readonly VerticalTaxTotal[]): VerticalTaxTotal[] {
  return taxTotals(totals.map((t) => ({ ...t })));
}

/** A Belgian-looking phone number. */
export const phoneOf = (faker: Faker): string => `+324${faker.string.numeric(8)}`;

/** An e-mail address from a name, ascii only. */
export function emailOf(faker: Faker, first: string, last: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[^a-zA-Z]/g, '')
      .toLowerCase();
  const domain = pick(faker, ['gmail.com', 'outlook.com', 'proximus.be', 'telenet.be', 'yahoo.fr']);
  return `${clean(first) || 'client'}.${clean(last) || 'sandbox'}${faker.number.int({ min: 1, max: 99 })}@${domain}`;
}
