import { describe, expect, it } from 'vitest';
import { addDays, atMinute, daysBetween, plusMinutes } from '../../../src/platform/seeding/vertical-data.js';

/**
 * The calendar helpers every vertical's seeder places its records with write instants out directly
 * when they stay within a day: they must answer what the Date arithmetic answers, for every day,
 * minute and move (across midnight, months, years and leap days too), and throw where it throws.
 */

const viaDate = {
  atMinute: (day: string, minutes: number) =>
    new Date(Date.parse(`${day}T00:00:00.000Z`) + minutes * 60_000).toISOString(),
  plusMinutes: (instant: string, minutes: number) =>
    new Date(Date.parse(instant) + minutes * 60_000).toISOString(),
  addDays: (day: string, days: number) =>
    new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10),
};

const DAYS = [
  '2024-02-28',
  '2024-02-29',
  '2025-12-31',
  '2026-01-15',
  '2026-03-29',
  '1999-12-31',
  '2026-10-25',
];
const MINUTES = [0, 1, 59, 60, 419, 1230, 1439, 1440, 1441, -1, -61, 2 * 1440 + 7, 0.5, 90.25];

describe('the calendar of the seeders', () => {
  it.each(DAYS)('places every minute of %s as Date does, inside and outside the day', (day) => {
    for (const minutes of MINUTES)
      expect(atMinute(day, minutes), `${minutes}`).toBe(viaDate.atMinute(day, minutes));
    for (let minutes = 0; minutes < 1440; minutes += 7)
      expect(atMinute(day, minutes)).toBe(viaDate.atMinute(day, minutes));
  });

  it.each(DAYS)('moves instants of %s by minutes as Date does, across midnight too', (day) => {
    const instants = [
      `${day}T00:00:00.000Z`,
      `${day}T23:59:59.999Z`,
      `${day}T12:34:56.789Z`,
      `${day}T09:00:00Z`,
      `${day}T10:00:00+02:00`,
    ];
    for (const instant of instants)
      for (const minutes of [...MINUTES, -1439, 30, 95])
        expect(plusMinutes(instant, minutes), `${instant} ${minutes}`).toBe(
          viaDate.plusMinutes(instant, minutes),
        );
  });

  it('counts days as Date does, the same answer when asked again', () => {
    for (const day of DAYS)
      for (const days of [-400, -1, 0, 1, 2, 31, 366]) {
        expect(addDays(day, days)).toBe(viaDate.addDays(day, days));
        expect(addDays(day, days)).toBe(viaDate.addDays(day, days));
      }
    expect(daysBetween('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
  });

  it('throws on what is not a day or an instant, as Date does', () => {
    expect(() => atMinute('2026-13-01', 10)).toThrow(RangeError);
    expect(() => atMinute('not a day', 10)).toThrow(RangeError);
    // Days the calendar does not have: Date rolls some over (February 30th is March 2nd), refuses others.
    const outcome = (run: () => string) => {
      try {
        return run();
      } catch (error) {
        return (error as Error).name;
      }
    };
    for (const day of ['2026-02-29', '2026-02-30', '2026-04-31', '2026-02-32', '2026-00-10', '2026-01-00'])
      for (const minutes of [10, 1500])
        expect(
          outcome(() => atMinute(day, minutes)),
          day,
        ).toBe(outcome(() => viaDate.atMinute(day, minutes)));
    expect(() => plusMinutes('2026-01-15T25:00:00.000Z', 10)).toThrow(RangeError);
    expect(() => plusMinutes('2026-01-15T10:61:00.000Z', 10)).toThrow(RangeError);
    expect(() => addDays('2026-02-3x', 1)).toThrow(RangeError);
  });
});
