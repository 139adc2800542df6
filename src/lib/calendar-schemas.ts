import { z } from '@hono/zod-openapi';
import { dayNumber, FIRST_DAY, inCalendar, LAST_DAY } from './calendar.js';
import { messages } from './errors.js';

/**
 * The schemas of the dates the sandbox takes on its own surfaces (a world's clock, a timeline event,
 * a fixture's dates, a change of pace): valid ISO texts within the calendar (lib/calendar.ts), each
 * refused past it with the calendar's one message. The query dates of the API take any date, as the
 * service does: they use z.iso.date() as the reference has it, and are brought within the calendar
 * where the sandbox would walk days from them.
 */

/** An instant with its offset (2026-01-15T09:00:00Z), within the calendar. */
export const calendarInstant = () =>
  z.iso.datetime({ offset: true }).refine((value) => inCalendar(Date.parse(value)), messages.outsideCalendar);

/** A day (YYYY-MM-DD), within the calendar. */
export const calendarDay = () =>
  z.iso.date().refine((value) => {
    const day = dayNumber(value);
    return day >= FIRST_DAY && day <= LAST_DAY;
  }, messages.outsideCalendar);
