import { addDays, calendarSpan, dayNumber, daysInMonth, isoDay, monthEnd } from '../../lib/calendar.js';
import { uuidFrom } from '../../lib/ids.js';
import type { VerticalTaxTotal } from '../../store/world.js';
import { COUNTRY_TRAITS, type CountryTraits } from '../countries.js';
import { type Faker, fakerFor, reseed } from './fakers.js';

export { addDays, type Faker, fakerFor, monthEnd, reseed };

/**
 * Helpers of the seeded POS, eCommerce and PMS datasets (pos.seed.ts, commerce.seed.ts and
 * pms.seed.ts in the verticals' folders): a faker seeded from a hash of the ids a dataset depends on,
 * the ids of the records, amounts kept exact to the cent, and the calendar the data lives in: its days
 * counted in lib/calendar.ts, its loops over days and months bounded by the sandbox's calendar.
 */

/**
 * The history of a seeded dataset runs from January of this year (or of its `until` day's year when
 * that is earlier) up to its `until` day.
 */
export const HISTORY_START_YEAR = 2021;

/** At most this many calendar years of history: a clock far in the future keeps the last ones. */
export const MAX_HISTORY_YEARS = 10;

/** The instant of its `until` day at which a dataset's seeded activity stops (the manual clock's start time). */
export const activityEnd = (until: string): string => `${until}T09:00:00.000Z`;

/** The first day of the older history of a dataset seeded up to `until`. */
export function historyStart(until: string): string {
  const year = Number(until.slice(0, 4));
  const first = year < HISTORY_START_YEAR ? year : Math.max(HISTORY_START_YEAR, year - MAX_HISTORY_YEARS + 1);
  return `${pad(first, 4)}-01-01`;
}

/** The first day of the month of `day`. */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** The same day `months` months later (or earlier), kept within the month (31 March - 1 month: 28 February). */
export function addMonths(day: string, months: number): string {
  const year = Number(day.slice(0, 4));
  const index = year * 12 + Number(day.slice(5, 7)) - 1 + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(Math.min(Number(day.slice(8, 10)), last), 2)}`;
}

/** The `day`-th day (at most the last) of the month `months` months after the month of `from`. */
export function dayOfMonth(from: string, months: number, day: number): string {
  const first = addMonths(monthStart(from), months);
  return `${first.slice(0, 8)}${pad(Math.min(day, Number(monthEnd(first).slice(8, 10))), 2)}`;
}

/** A month of the older history: its days from `first` to `last`, both included. */
export interface HistoryMonth {
  month: string;
  first: string;
  last: string;
}

/**
 * The months from the month of `from` up to the day before `before`, each clipped to that span and to
 * the sandbox's calendar. The loop counts months (year * 12 + month) and compares epoch days.
 */
export function monthsBetween(from: string, before: string): HistoryMonth[] {
  const out: HistoryMonth[] = [];
  const { first, last } = calendarSpan(from, addDays(before, -1));
  if (first > last) return out;
  const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  const lastMonth = monthIndex(isoDay(last));
  for (let index = monthIndex(isoDay(first)); index <= lastMonth; index++) {
    const month = `${pad(Math.floor(index / 12), 4)}-${pad((index % 12) + 1, 2)}`;
    const start = Math.max(dayNumber(`${month}-01`), first);
    const end = Math.min(dayNumber(monthEnd(`${month}-01`)), last);
    out.push({ month, first: isoDay(start), last: isoDay(end) });
  }
  return out;
}

/** A day picked uniformly between two days (both included). */
export function dayIn(faker: Faker, from: string, to: string): string {
  const span = dayNumber(to) - dayNumber(from);
  return addDays(from, faker.number.int({ min: 0, max: Math.max(0, span) }));
}

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

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));
/** Whether the characters of `text` from `at` are two digits. */
const digitsAt = (text: string, at: number): boolean => {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9;
};
const twoAt = (text: string, at: number): number =>
  (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
/** Whether `day` is a day of the calendar written YYYY-MM-DD. */
function dayShaped(day: string): boolean {
  if (day.length !== 10 || day[4] !== '-' || day[7] !== '-') return false;
  if (!digitsAt(day, 0) || !digitsAt(day, 2) || !digitsAt(day, 5) || !digitsAt(day, 8)) return false;
  const [month, date] = [twoAt(day, 5), twoAt(day, 8)];
  if (month < 1 || month > 12 || date < 1) return false;
  return date <= 28 || date <= daysInMonth(twoAt(day, 0) * 100 + twoAt(day, 2), month);
}

/** The ISO days from `from` to `to`, both included, within the sandbox's calendar. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  const { first, last } = calendarSpan(from, to);
  for (let day = first; day <= last; day++) out.push(isoDay(day));
  return out;
}

/** An instant `minutes` after midnight (UTC) of a day. */
export function atMinute(day: string, minutes: number): string {
  // Within the day, written out directly: datasets place thousands of instants.
  if (Number.isInteger(minutes) && minutes >= 0 && minutes < 1440 && dayShaped(day)) {
    return `${day}T${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}:00.000Z`;
  }
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + minutes * 60_000).toISOString();
}

export function plusMinutes(instant: string, minutes: number): string {
  // An instant as toISOString writes it, moved within its day: written out directly.
  if (
    Number.isInteger(minutes) &&
    instant.length === 24 &&
    instant[10] === 'T' &&
    instant[13] === ':' &&
    instant[16] === ':' &&
    instant[23] === 'Z' &&
    digitsAt(instant, 11) &&
    digitsAt(instant, 14)
  ) {
    const hours = twoAt(instant, 11);
    const minute = twoAt(instant, 14);
    const at = hours * 60 + minute + minutes;
    if (hours < 24 && minute < 60 && at >= 0 && at < 1440 && dayShaped(instant.slice(0, 10))) {
      return `${instant.slice(0, 11)}${twoDigits(Math.floor(at / 60))}:${twoDigits(at % 60)}${instant.slice(16)}`;
    }
  }
  return new Date(Date.parse(instant) + minutes * 60_000).toISOString();
}

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

/** A mobile number of a country (Belgian by default): the same draw everywhere. */
export const phoneOf = (
  faker: Faker,
  traits: Pick<CountryTraits, 'mobilePrefix'> = COUNTRY_TRAITS.BE,
): string => `${traits.mobilePrefix}${faker.string.numeric(8)}`;

/** An e-mail address from a name, ascii only. */
export function emailOf(
  faker: Faker,
  first: string,
  last: string,
  traits: Pick<CountryTraits, 'mailDomains'> = COUNTRY_TRAITS.BE,
): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[^a-zA-Z]/g, '')
      .toLowerCase();
  const domain = pick(faker, traits.mailDomains);
  return `${clean(first) || 'client'}.${clean(last) || 'sandbox'}${faker.number.int({ min: 1, max: 99 })}@${domain}`;
}
