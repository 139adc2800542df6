import { describe, expect, it } from 'vitest';
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../../src/lib/calendar.js';
import { checkedInstant, manualClock, systemClock } from '../../src/lib/clock.js';
import { errors } from '../../src/lib/errors.js';
import { call, expectError, sandbox, sandboxToken, type TestSandbox } from '../helpers.js';

/**
 * The sandbox clock stays within the calendar, 1970-01-01T00:00:00Z to 9999-12-30T23:59:59.999Z.
 * Past the end, repeated advances used to carry it to expanded years and then to an invalid date,
 * where /token answered 500 and expired tokens passed.
 */

const START = '2026-01-15T09:00:00.000Z';
// A world made in the calendar's last year (its clock moves at most the span of living days after
// its origin), and a step of a month, enough of them to pass its end.
const LAST_YEAR = new Date('9999-01-01T00:00:00Z');
const MONTH = 30 * 86_400;

const moveClock = (s: TestSandbox, body: Record<string, unknown>) =>
  call(s.app, 'POST', '/__sandbox/clock', { body });

const now = async (s: TestSandbox) => (await call(s.app, 'GET', '/__sandbox/clock')).body.now as string;

describe('POST /__sandbox/clock keeps the clock within its range', () => {
  it('refuses the advance that would pass the end, leaves the clock as it was, and /token still works', async () => {
    const s = sandbox({ clock: LAST_YEAR });
    let last = LAST_YEAR.toISOString();
    let refused = null;
    for (let i = 0; i < 100 && refused === null; i++) {
      const res = await moveClock(s, { advance_seconds: MONTH });
      if (res.status === 200) last = res.body.now;
      else refused = res;
    }
    expect(refused).not.toBeNull();
    if (!refused) return;
    expectError(refused, errors.outsideCalendar('The clock', null));
    expect(await now(s)).toBe(last);
    expect(last.startsWith('99')).toBe(true);
    // Repeating the refused move changes nothing either.
    expect((await moveClock(s, { advance_seconds: MONTH })).status).toBe(422);
    expect(await now(s)).toBe(last);
    const token = await sandboxToken(s);
    expect((await call(s.app, 'GET', '/consumers', { token })).status).toBe(200);
  });

  it.each([
    ['+010000-01-01T00:00:00Z'],
    ['9999-12-31T00:00:00Z'],
    ['1969-12-31T23:59:59Z'],
    ['1969-01-01T00:00:00Z'],
    ['9999-12-30T23:59:59-01:00'],
  ])('refuses to set it to %s with 422', async (instant) => {
    const s = sandbox();
    const res = await moveClock(s, { now: instant });
    expect(res.status).toBe(422);
    expect(res.body.status).toBe('error');
    expect(await now(s)).toBe(START);
  });

  it('refuses to go back before 1970 by advancing', async () => {
    const s = sandbox();
    await moveClock(s, { now: '1970-01-01T00:00:10Z' });
    expectError(await moveClock(s, { advance_seconds: -11 }), errors.outsideCalendar('The clock', null));
    expect(await now(s)).toBe('1970-01-01T00:00:10.000Z');
    expect((await moveClock(s, { advance_seconds: -10 })).body.now).toBe('1970-01-01T00:00:00.000Z');
  });

  it('accepts exactly 9999-12-30T23:59:59Z, where tokens are issued and expire as anywhere else', async () => {
    const s = sandbox({ clock: LAST_YEAR });
    const res = await moveClock(s, { now: '9999-12-30T23:59:59Z' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.now).toBe('9999-12-30T23:59:59.000Z');
    const token = await sandboxToken(s);
    expect((await call(s.app, 'GET', '/consumers', { token })).status).toBe(200);
    // Half a second is all that is left: the clock cannot move a token past its expiry here, and
    // what it refuses is not taken for an expiry either.
    expect((await moveClock(s, { advance_seconds: 1800 })).status).toBe(422);
    expect((await call(s.app, 'GET', '/consumers', { token })).status).toBe(200);
  });

  it('an expired token is refused up to the end of the range', async () => {
    const s = sandbox({ clock: LAST_YEAR });
    expect((await moveClock(s, { now: '9999-12-30T23:00:00Z' })).status).toBe(200);
    const token = await sandboxToken(s);
    expect((await moveClock(s, { advance_seconds: 1800 })).status).toBe(200);
    expectError(await call(s.app, 'GET', '/consumers', { token }), errors.invalidToken());
  });
});

describe('the clock itself refuses to leave its range', () => {
  it('checkedInstant passes the range and refuses what lies outside, NaN and infinities', () => {
    expect(checkedInstant(EARLIEST_INSTANT.getTime())).toBe(0);
    expect(checkedInstant(LATEST_INSTANT.getTime())).toBe(LATEST_INSTANT.getTime());
    for (const ms of [-1, LATEST_INSTANT.getTime() + 1, Number.NaN, Number.POSITIVE_INFINITY, 1e300]) {
      expect(() => checkedInstant(ms)).toThrow(errors.outsideCalendar('The clock', null).message);
    }
  });

  it.each([
    ['manual', () => manualClock(new Date(START))],
    ['system', () => systemClock()],
  ])('a %s clock refuses advance() and set() beyond the range and stays where it was', (_mode, make) => {
    const clock = make();
    clock.set(new Date('9999-12-30T00:00:00Z'));
    const before = clock.now().getTime();
    expect(() => clock.advance(86_400 * 2)).toThrow(errors.outsideCalendar('The clock', null).message);
    expect(() => clock.advance(Number.MAX_VALUE)).toThrow(errors.outsideCalendar('The clock', null).message);
    expect(() => clock.set(new Date(Number.NaN))).toThrow(errors.outsideCalendar('The clock', null).message);
    expect(() => clock.set(new Date(-1))).toThrow(errors.outsideCalendar('The clock', null).message);
    // A system clock follows the machine's time between the two readings.
    expect(clock.now().getTime() - before).toBeLessThan(1000);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(before);
  });

  it('a manual clock cannot start outside the range', () => {
    expect(() => manualClock(new Date('+010000-01-01T00:00:00Z'))).toThrow(
      errors.outsideCalendar('The clock', null).message,
    );
  });
});
