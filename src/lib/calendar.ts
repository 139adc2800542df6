/**
 * The sandbox's calendar: the one range of instants it runs in, and the arithmetic of its days.
 *
 * Every instant the sandbox accepts (the clock, `--now`, a world's clock, a timeline event, a
 * fixture's date) and every day it generates or walks lies between EARLIEST_INSTANT and
 * LATEST_INSTANT. Before 1970 the tokens' `exp` and the journal's times would be negative; the end
 * stops a day short of 9999-12-31 so that the day after the clock's (which a day's business, a
 * closure or a loop's last step reaches) is still written with four digits: the day after
 * 9999-12-31 is +010000-01-01, which sorts before every other date as text.
 *
 * Days are counted as numbers, days since 1970-01-01 (epoch days): loops over days run on them and
 * compare them, never the ISO texts; `isoDay` writes one out where a record needs it.
 */

export const DAY_MS = 86_400_000;

/** The first instant of the calendar. */
export const EARLIEST_INSTANT = new Date('1970-01-01T00:00:00.000Z');
/** The last instant of the calendar: the last millisecond of 9999-12-30. */
export const LATEST_INSTANT = new Date('9999-12-30T23:59:59.999Z');

const EARLIEST_MS = EARLIEST_INSTANT.getTime();
const LATEST_MS = LATEST_INSTANT.getTime();

/** The first day of the calendar (1970-01-01), as an epoch day. */
export const FIRST_DAY = Math.floor(EARLIEST_MS / DAY_MS);
/** The last day of the calendar (9999-12-30), as an epoch day. */
export const LAST_DAY = Math.floor(LATEST_MS / DAY_MS);

/** Whether an instant (milliseconds since the epoch) lies in the calendar. */
export const inCalendar = (ms: number): boolean =>
  Number.isFinite(ms) && ms >= EARLIEST_MS && ms <= LATEST_MS;

/** An epoch day brought within the calendar's days. */
export const clampDay = (day: number): number => Math.min(Math.max(day, FIRST_DAY), LAST_DAY);

/** The epoch day of an instant (milliseconds since the epoch). */
export const dayOfInstant = (ms: number): number => Math.floor(ms / DAY_MS);

// Days from and to the civil calendar (proleptic Gregorian), after H. Hinnant's algorithms: a day is
// counted and written out without a Date, which the seeders do hundreds of thousands of times.

/** The epoch day of a year, month (1-12) and day of the month. */
function civilDay(year: number, month: number, date: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + date - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** The number of days of a month (1-12) of a year. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeap(year) ? 29 : (MONTH_DAYS[month - 1] as number);

const digit = (text: string, at: number): number => {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : Number.NaN;
};

/**
 * The epoch day of an ISO day (YYYY-MM-DD). What is not one is read as Date.parse reads it at
 * midnight UTC (a February 30th rolls over to March), and NaN when Date cannot read it.
 */
export function dayNumber(day: string): number {
  if (day.length === 10 && day[4] === '-' && day[7] === '-') {
    const year = digit(day, 0) * 1000 + digit(day, 1) * 100 + digit(day, 2) * 10 + digit(day, 3);
    const month = digit(day, 5) * 10 + digit(day, 6);
    const date = digit(day, 8) * 10 + digit(day, 9);
    if (month >= 1 && month <= 12 && date >= 1 && date <= daysInMonth(year, month)) {
      return civilDay(year, month, date);
    }
  }
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(ms) ? Number.NaN : dayOfInstant(ms);
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * The ISO day (YYYY-MM-DD) of an epoch day. A day of a year past 9999 (or before 0) is written as
 * Date writes it (+010000-01-01); one that is not a whole number of days throws as Date does.
 */
export function isoDay(day: number): string {
  if (!Number.isInteger(day)) throw new RangeError('Invalid time value');
  const shifted = day + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const date = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(day * DAY_MS).toISOString().split('T')[0] as string;
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(date)}`;
}

/** The ISO day `days` days after `day` (before it when negative; a part of a day counts as Date does). */
export const addDays = (day: string, days: number): string => isoDay(dayNumber(day) + Math.floor(days));

/** Whole days from the ISO day `from` to the ISO day `to` (negative when `to` comes first). */
export const daysFrom = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The day of the week of an ISO day: 0 = Sunday ... 6 = Saturday (1970-01-01 was a Thursday). */
export const weekday = (day: string): number => (((dayNumber(day) + 4) % 7) + 7) % 7;

/** The last day of the month of an ISO day (that of December 9999 too). */
export const monthEnd = (day: string): string =>
  `${day.slice(0, 8)}${two(daysInMonth(Number(day.slice(0, 4)), Number(day.slice(5, 7))))}`;

/**
 * The epoch days from `from` to `to` (ISO days, both included) that lie in the calendar, in order:
 * the bounds of a loop over days. Empty when `to` comes before `from` (or either is not a day).
 */
export function calendarSpan(from: string, to: string): { first: number; last: number } {
  const first = Math.max(dayNumber(from), FIRST_DAY);
  const last = Math.min(dayNumber(to), LAST_DAY);
  return Number.isNaN(first) || Number.isNaN(last) ? { first: 1, last: 0 } : { first, last };
}
