import { own } from '../../../lib/own.js';
/**
 * A small parser for the 5-field cron form (minute hour day-of-month month day-of-week), in UTC:
 * `*`, values, ranges `a-b`, steps `* /n` and `a-b/n` (and `a/n`: from a to the end), lists `a,b`,
 * month names (JAN..DEC), weekday names (SUN..SAT, 0 and 7 both Sunday) and the macros @hourly,
 * @daily (@midnight), @weekly, @monthly, @yearly (@annually). As in the classic cron, when both the
 * day of the month and the day of the week are restricted, a day matching either runs.
 */

export interface CronSchedule {
  readonly source: string;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
  readonly daysRestricted: boolean;
  readonly weekdaysRestricted: boolean;
}

export class CronError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronError';
  }
}

const MACROS: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
  label: string;
  min: number;
  max: number;
  names?: string[];
  /** Offset of names[0]: months start at 1, weekdays at 0. */
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { label: 'minute', min: 0, max: 59 },
  { label: 'hour', min: 0, max: 23 },
  { label: 'day of month', min: 1, max: 31 },
  { label: 'month', min: 1, max: 12, names: MONTH_NAMES, nameBase: 1 },
  { label: 'day of week', min: 0, max: 7, names: DAY_NAMES, nameBase: 0 },
];

function parseValue(text: string, spec: FieldSpec): number {
  const upper = text.toUpperCase();
  const named = spec.names?.indexOf(upper) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d+$/.test(text)) throw new CronError(`'${text}' is not a valid ${spec.label}`);
  const value = Number(text);
  if (value < spec.min || value > spec.max) {
    throw new CronError(`${spec.label} ${value} is outside ${spec.min}-${spec.max}`);
  }
  return value;
}

function parseField(text: string, spec: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range = '', stepText, extra] = part.split('/');
    if (extra !== undefined || range === '') throw new CronError(`'${part}' is not a valid ${spec.label}`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) < 1) {
        throw new CronError(`'${stepText}' is not a valid step for the ${spec.label}`);
      }
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      from = spec.min;
      to = spec.max;
    } else if (range.includes('-')) {
      const [a = '', b = '', more] = range.split('-');
      if (more !== undefined) throw new CronError(`'${range}' is not a valid ${spec.label} range`);
      from = parseValue(a, spec);
      to = parseValue(b, spec);
      if (from > to) throw new CronError(`The ${spec.label} range ${range} runs backwards`);
    } else {
      from = parseValue(range, spec);
      to = stepText !== undefined ? spec.max : from;
    }
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

export function parseCron(expression: string): CronSchedule {
  const trimmed = expression.trim();
  const source = own(MACROS, trimmed.toLowerCase()) ?? trimmed;
  const parts = source.split(/\s+/);
  if (parts.length !== 5) {
    throw new CronError(`A cron schedule has 5 fields (minute hour day month weekday), not ${parts.length}`);
  }
  const [minutes, hours, days, months, weekdays] = parts.map((part, i) =>
    parseField(part, FIELDS[i] as FieldSpec),
  ) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.delete(7)) weekdays.add(0);
  const schedule: CronSchedule = {
    source: trimmed,
    minutes,
    hours,
    days,
    months,
    weekdays,
    daysRestricted: parts[2] !== '*',
    weekdaysRestricted: parts[4] !== '*',
  };
  if (nextRun(schedule, new Date(Date.UTC(2000, 0, 1))) === null) {
    throw new CronError(`The schedule '${trimmed}' never runs`);
  }
  return schedule;
}

export function isValidCron(expression: string): boolean {
  try {
    parseCron(expression);
    return true;
  } catch {
    return false;
  }
}

/** Why an expression is refused, or null when it is a valid schedule. */
export function cronProblem(expression: string): string | null {
  try {
    parseCron(expression);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function dayMatches(schedule: CronSchedule, date: Date): boolean {
  const dom = schedule.days.has(date.getUTCDate());
  const dow = schedule.weekdays.has(date.getUTCDay());
  if (schedule.daysRestricted && schedule.weekdaysRestricted) return dom || dow;
  return dom && dow;
}

const MINUTE = 60_000;
/** Every valid schedule runs at least once in 8 years (a 29 February on a given weekday included). */
const HORIZON_MS = 8 * 366 * 86_400_000;

/** The first run strictly after `after` (minute resolution), or null if none within the horizon. */
export function nextRun(schedule: CronSchedule, after: Date): Date | null {
  const t = new Date(Math.floor(after.getTime() / MINUTE) * MINUTE + MINUTE);
  const limit = after.getTime() + HORIZON_MS;
  while (t.getTime() <= limit) {
    if (!schedule.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(schedule, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
    } else if (!schedule.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
    } else if (!schedule.minutes.has(t.getUTCMinutes())) {
      t.setTime(t.getTime() + MINUTE);
    } else {
      return t;
    }
  }
  return null;
}

/** The last run at or before `atOrBefore` (minute resolution), or null if none within the horizon. */
export function previousRun(schedule: CronSchedule, atOrBefore: Date): Date | null {
  const t = new Date(Math.floor(atOrBefore.getTime() / MINUTE) * MINUTE);
  const limit = atOrBefore.getTime() - HORIZON_MS;
  while (t.getTime() >= limit) {
    if (!schedule.months.has(t.getUTCMonth() + 1)) {
      // The last minute of the previous month.
      t.setUTCDate(1);
      t.setUTCHours(0, 0, 0, 0);
      t.setTime(t.getTime() - MINUTE);
    } else if (!dayMatches(schedule, t)) {
      t.setUTCHours(0, 0, 0, 0);
      t.setTime(t.getTime() - MINUTE);
    } else if (!schedule.hours.has(t.getUTCHours())) {
      t.setUTCMinutes(0, 0, 0);
      t.setTime(t.getTime() - MINUTE);
    } else if (!schedule.minutes.has(t.getUTCMinutes())) {
      t.setTime(t.getTime() - MINUTE);
    } else {
      return t;
    }
  }
  return null;
}

/**
 * The runs due in (since, until], the most recent `limit` of them, oldest first: after a long jump
 * of the clock only the last few missed runs are made up (as a scheduler that was down would do),
 * the older ones are skipped.
 */
export function dueRuns(schedule: CronSchedule, since: Date, until: Date, limit: number): Date[] {
  const out: Date[] = [];
  let cursor: Date | null = until;
  while (out.length < limit && cursor) {
    const run = previousRun(schedule, cursor);
    if (!run || run.getTime() <= since.getTime()) break;
    out.push(run);
    cursor = new Date(run.getTime() - MINUTE);
  }
  return out.reverse();
}
