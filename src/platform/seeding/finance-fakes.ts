import { addDays, daysFrom, weekday } from '../../lib/calendar.js';
import { type Faker, fakerFor } from './fakers.js';

export { addDays, type Faker, fakerFor, weekday };

/**
 * Pieces shared by the seeded datasets of the Invoicing, Banking and Payment verticals: a faker
 * seeded from the parts that identify a dataset, days of the seeded year, and Belgian bank details.
 */

/** The first working day (Monday to Friday) on or after `day`. */
export function workingDayFrom(day: string): string {
  const dayOfWeek = weekday(day);
  return dayOfWeek === 6 ? addDays(day, 2) : dayOfWeek === 0 ? addDays(day, 1) : day;
}

/** The last working day (Monday to Friday) on or before `day`. */
export function workingDayUntil(day: string): string {
  const dayOfWeek = weekday(day);
  return dayOfWeek === 6 ? addDays(day, -1) : dayOfWeek === 0 ? addDays(day, -2) : day;
}

/** `day`, or the last working day of `month` before it when it is a weekend or past the month. */
export function workingDayIn(day: string, month: { last: string }): string {
  const from = workingDayFrom(day);
  return workingDayUntil(from > month.last ? month.last : from);
}

/** A timestamp of a day at an hour and minute (UTC). */
export const at = (day: string, hour: number, minute = 0): string =>
  `${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;

/** A day picked uniformly between two days (both included). */
export function dayBetween(faker: Faker, from: string, to: string): string {
  return addDays(from, faker.number.int({ min: 0, max: Math.max(0, daysFrom(from, to)) }));
}

/** Rounds to the cent (half away from zero). */
export const round2 = (amount: number): number => {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-9);
  return (Math.sign(amount) * cents) / 100 || 0;
};

/** A money amount between two bounds, to the cent. */
export const amountBetween = (faker: Faker, min: number, max: number): number =>
  round2(faker.number.float({ min, max, fractionDigits: 2 }));

/** A Belgian IBAN with valid national and international check digits. */
export function belgianIban(faker: Faker): string {
  const bank = faker.string.numeric({ length: 3, allowLeadingZeros: true });
  const account = faker.string.numeric({ length: 7, allowLeadingZeros: true });
  const national = Number(BigInt(`${bank}${account}`) % 97n) || 97;
  const bban = `${bank}${account}${String(national).padStart(2, '0')}`;
  // B = 11, E = 14; the check digits make the whole number 1 modulo 97.
  const check = 98 - Number(BigInt(`${bban}111400`) % 97n);
  return `BE${String(check).padStart(2, '0')}${bban}`;
}

/** Whether an IBAN's check digits are right (ISO 13616: the rearranged number is 1 modulo 97). */
export function isValidIban(iban: string): boolean {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return false;
  const rearranged = `${compact.slice(4)}${compact.slice(0, 4)}`;
  const digits = rearranged.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return BigInt(digits) % 97n === 1n;
}

/** A Belgian structured communication (+++123/4567/89012+++): ten digits and their check modulo 97. */
export function structuredCommunication(faker: Faker): string {
  const base = faker.string.numeric({ length: 10, allowLeadingZeros: true });
  const check = Number(BigInt(base) % 97n) || 97;
  const digits = `${base}${String(check).padStart(2, '0')}`;
  return `+++${digits.slice(0, 3)}/${digits.slice(3, 7)}/${digits.slice(7)}+++`;
}

/** A Belgian enterprise number (0 followed by nine digits, the last two a check modulo 97). */
export function belgianCompanyNumber(faker: Faker): string {
  const base = Number(`1${faker.string.numeric({ length: 6, allowLeadingZeros: true })}`);
  const check = 97 - (base % 97);
  return `0${base}${String(check).padStart(2, '0')}`;
}
