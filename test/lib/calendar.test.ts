import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarSpan,
  clampDay,
  DAY_MS,
  dayNumber,
  daysFrom,
  EARLIEST_INSTANT,
  FIRST_DAY,
  inCalendar,
  isoDay,
  LAST_DAY,
  LATEST_INSTANT,
  monthEnd,
  weekday,
} from '../../src/lib/calendar.js';
import { messages } from '../../src/lib/errors.js';

/**
 * The sandbox's calendar: its one range, and the day arithmetic every loop over days runs on (epoch
 * days), which must answer what Date answers wherever Date writes a four-digit year.
 */

const viaDate = (day: number) => new Date(day * DAY_MS).toISOString().split('T')[0] as string;

describe('the range of the calendar', () => {
  it('runs from 1970-01-01T00:00:00.000Z to the last millisecond of 9999-12-30, in its message too', () => {
    expect(EARLIEST_INSTANT.toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(LATEST_INSTANT.toISOString()).toBe('9999-12-30T23:59:59.999Z');
    expect([isoDay(FIRST_DAY), isoDay(LAST_DAY)]).toEqual(['1970-01-01', '9999-12-30']);
    expect(messages.outsideCalendar).toContain(EARLIEST_INSTANT.toISOString());
    expect(messages.outsideCalendar).toContain(LATEST_INSTANT.toISOString());
  });

  it('keeps the day after its last day a four-digit date, and the one after that is not', () => {
    expect(isoDay(LAST_DAY + 1)).toBe('9999-12-31');
    expect(isoDay(LAST_DAY + 2)).toBe('+010000-01-01');
    // As text, the expanded year sorts before every day: what a loop comparing texts never passed.
    expect(isoDay(LAST_DAY + 2) < isoDay(LAST_DAY + 1)).toBe(true);
  });

  it.each([
    [EARLIEST_INSTANT.getTime(), true],
    [LATEST_INSTANT.getTime(), true],
    [EARLIEST_INSTANT.getTime() - 1, false],
    [LATEST_INSTANT.getTime() + 1, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('inCalendar(%s) is %s', (ms, inside) => {
    expect(inCalendar(ms)).toBe(inside);
  });

  it('bounds a span of days to the calendar; an empty span for days in the wrong order or not days', () => {
    expect(calendarSpan('0001-01-01', '9999-12-31')).toEqual({ first: FIRST_DAY, last: LAST_DAY });
    expect(calendarSpan('2026-01-15', '2026-01-17')).toEqual({
      first: dayNumber('2026-01-15'),
      last: dayNumber('2026-01-17'),
    });
    for (const [from, to] of [
      ['2026-01-17', '2026-01-15'],
      ['someday', '2026-01-15'],
      ['2026-01-15', ''],
    ] as const) {
      const { first, last } = calendarSpan(from, to);
      expect(first > last, `${from}..${to}`).toBe(true);
    }
    expect([clampDay(-5), clampDay(LAST_DAY + 5), clampDay(20_000)]).toEqual([FIRST_DAY, LAST_DAY, 20_000]);
  });
});

describe('the days of the calendar', () => {
  it('writes and reads every day as Date does, from year 0 to past 9999', () => {
    const wrong: string[] = [];
    for (let day = dayNumber('0000-01-01'); day <= LAST_DAY + 400; day += 13) {
      if (isoDay(day) !== viaDate(day)) wrong.push(`${day}: ${isoDay(day)}`);
      if (day <= LAST_DAY + 1 && dayNumber(viaDate(day)) !== day) wrong.push(viaDate(day));
    }
    expect(wrong).toEqual([]);
  });

  it('reads what is not a day as Date does: a day the month lacks rolls over or is refused', () => {
    for (const day of [
      '2026-02-29',
      '2026-02-30',
      '2026-04-31',
      '2026-02-32',
      '2026-00-10',
      '2026-13-01',
      'x',
    ])
      expect(dayNumber(day), day).toBe(Date.parse(`${day}T00:00:00.000Z`) / DAY_MS);
    expect(() => isoDay(Number.NaN)).toThrow(RangeError);
    expect(() => addDays('2026-02-3x', 1)).toThrow(RangeError);
  });

  it('counts days, weekdays and month ends', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    // A part of a day counts as Date counts it: toward the earlier midnight.
    expect([addDays('2026-01-01', 0.5), addDays('2026-01-01', -0.5)]).toEqual(['2026-01-01', '2025-12-31']);
    expect(daysFrom('2026-01-15', '2026-03-01')).toBe(45);
    for (const day of ['1970-01-01', '2026-01-15', '2026-01-18', '9999-12-30'])
      expect(weekday(day), day).toBe(new Date(`${day}T00:00:00Z`).getUTCDay());
    expect(['2024-02-10', '2025-02-10', '9999-12-05'].map(monthEnd)).toEqual([
      '2024-02-29',
      '2025-02-28',
      '9999-12-31',
    ]);
  });
});
