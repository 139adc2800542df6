import { verticalFailure } from '../../platform/vertical-connection.js';

/** The time of the query engine: time zones, date ranges and the granularities of time buckets. */

const fail = (detail: string) => verticalFailure(detail);

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/**
 * Reads an instant (ISO, UTC) as the wall-clock time of the query's time zone, written the same way
 * (so that instants, days and buckets compare as text, as in UTC).
 */
export type LocalClock = (instant: string) => string;
export const utc: LocalClock = (instant) => instant;

/** Names of UTC that need no conversion. */
const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'Z', 'GMT', 'ETC/GMT', 'UCT', 'ETC/UCT', 'UNIVERSAL', 'ZULU']);

/** The clock of a query's time zone (an IANA name; absent: UTC). An unknown zone is refused. */
export function localClockOf(timezone: string | null | undefined): LocalClock {
  if (!timezone || UTC_NAMES.has(timezone.toUpperCase())) return utc;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    throw fail(`Unknown time zone '${timezone}': give an IANA time zone, e.g. Europe/Brussels`);
  }
  return (instant) => {
    const date = new Date(instant);
    if (Number.isNaN(date.getTime())) return instant;
    const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
    const ms = String(date.getUTCMilliseconds()).padStart(3, '0');
    const year = String(part.year).padStart(4, '0');
    return `${year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}.${ms}Z`;
  };
}

/**
 * The time range of a date range, as [first instant, last instant] (both included), in the local
 * time of `local` (`now` read in it too). Days and instants without a zone are local times; an
 * instant with one is converted. A range that ends before it starts matches nothing, as in Cube.
 */
export function dateRangeOf(range: string | string[], now: Date, local: LocalClock = utc): [string, string] {
  const startOfDay = (day: string) => `${day}T00:00:00.000Z`;
  const endOfDay = (day: string) => `${day}T23:59:59.999Z`;
  const asInstant = (value: string, end: boolean) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return end ? endOfDay(value) : startOfDay(value);
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
    let parsed = zoned ? Date.parse(value) : Date.parse(`${value}Z`);
    if (Number.isNaN(parsed) && !zoned) parsed = Date.parse(value);
    if (Number.isNaN(parsed)) throw fail(`'${value}' is not a date`);
    const instant = new Date(parsed).toISOString();
    return zoned ? local(instant) : instant;
  };
  if (Array.isArray(range)) {
    if (range.length !== 2 && range.length !== 1) throw fail('A date range is [from, to]');
    const from = asInstant(range[0] as string, false);
    const to = asInstant((range[1] ?? range[0]) as string, true);
    return [from, to];
  }
  const text = range.trim().toLowerCase();
  const today = now.toISOString().slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(startOfDay(today)) + offset * 86_400_000).toISOString().slice(0, 10);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const q = Math.floor(m / 3);
  const monthStart = (year: number, month: number) =>
    new Date(Date.UTC(year, month, 1)).toISOString().slice(0, 10);
  const monthEnd = (year: number, month: number) =>
    new Date(Date.UTC(year, month + 1, 0)).toISOString().slice(0, 10);
  const weekday = (now.getUTCDay() + 6) % 7; // Monday 0
  const relative: Record<string, [string, string]> = {
    today: [today, today],
    yesterday: [day(-1), day(-1)],
    'this week': [day(-weekday), day(6 - weekday)],
    'last week': [day(-weekday - 7), day(-weekday - 1)],
    'this month': [monthStart(y, m), monthEnd(y, m)],
    'last month': [monthStart(y, m - 1), monthEnd(y, m - 1)],
    'this quarter': [monthStart(y, q * 3), monthEnd(y, q * 3 + 2)],
    'last quarter': [monthStart(y, q * 3 - 3), monthEnd(y, q * 3 - 1)],
    'this year': [`${y}-01-01`, `${y}-12-31`],
    'last year': [`${y - 1}-01-01`, `${y - 1}-12-31`],
  };
  const known = relative[text];
  if (known) return [startOfDay(known[0]), endOfDay(known[1])];
  const lastN = /^last (\d{1,4}) (day|week|month)s?$/.exec(text);
  if (lastN) {
    const n = Number(lastN[1]);
    const unit = lastN[2];
    if (unit === 'day') return [startOfDay(day(-n)), endOfDay(day(-1))];
    if (unit === 'week') return [startOfDay(day(-7 * n)), endOfDay(day(-1))];
    return [startOfDay(monthStart(y, m - n)), endOfDay(monthEnd(y, m - 1))];
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return [startOfDay(text), endOfDay(text)];
  throw fail(
    `Unknown date range '${range}': give [from, to], one date, today, yesterday, this/last week, month, quarter or year, or 'last N days/weeks/months'`,
  );
}

/** The start of the bucket of an instant, as Cube writes it (local time without a zone: UTC here). */
export function truncate(instant: string, granularity: Granularity): string {
  const d = new Date(instant);
  let out: Date;
  switch (granularity) {
    case 'second':
      out = new Date(Math.floor(d.getTime() / 1000) * 1000);
      break;
    case 'minute':
      out = new Date(Math.floor(d.getTime() / 60_000) * 60_000);
      break;
    case 'hour':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()));
      break;
    case 'day':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      break;
    case 'week': {
      const monday = (d.getUTCDay() + 6) % 7;
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - monday));
      break;
    }
    case 'month':
      out = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
      break;
    case 'quarter':
      out = new Date(Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1));
      break;
    default:
      out = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  }
  return out.toISOString().slice(0, 23);
}
