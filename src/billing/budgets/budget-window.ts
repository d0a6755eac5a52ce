import { instantOfWallTime, wallTimeAt } from './zoned-time.js';

/** Budget periods of admin-api section 10. */
export type BudgetPeriod = 'hour' | 'day' | 'week' | 'month' | 'hours' | 'total';

/** Calendar periods, which start on the clock of `budget_time_zone`. */
export type CalendarPeriod = Extract<BudgetPeriod, 'hour' | 'day' | 'week' | 'month'>;

/** A window's bounds in Unix milliseconds: it counts from `startMs` until just before `endMs`. */
export interface WindowBounds {
  startMs: number;
  endMs: number;
}

const HOUR_MS = 3_600_000;

/**
 * The calendar window holding the instant `nowMs` in `timeZone`: the hour from its minute 0, the
 * day from 00:00, the week from Monday 00:00, the month from the 1st, 00:00 (admin-api section
 * 10). Days, weeks and months end where the next one starts on the zone's clock, so a day of a
 * daylight-saving change lasts 23 or 25 hours. An hour is the 60 minutes from the zone's minute 0
 * (in a zone half an hour off UTC, from :30 UTC).
 */
export function calendarWindow(period: CalendarPeriod, nowMs: number, timeZone: string): WindowBounds {
  const now = wallTimeAt(nowMs, timeZone);
  switch (period) {
    case 'hour': {
      const startMs = Math.floor(nowMs / 1000) * 1000 - (now.minute * 60 + now.second) * 1000;
      return { startMs, endMs: startMs + HOUR_MS };
    }
    case 'day':
      return between(timeZone, now, { day: now.day }, { day: now.day + 1 });
    case 'week': {
      const monday = now.day - (now.weekday - 1);
      return between(timeZone, now, { day: monday }, { day: monday + 7 });
    }
    case 'month':
      return between(timeZone, now, { day: 1 }, { month: now.month + 1, day: 1 });
    default: {
      const unknown: never = period;
      throw new Error(`not a calendar period: ${String(unknown)}`);
    }
  }
}

/** From the start of one local date to the start of another, both on the zone's clock. */
function between(
  timeZone: string,
  now: { year: number; month: number },
  from: { month?: number; day: number },
  to: { month?: number; day: number },
): WindowBounds {
  const local = (date: { month?: number; day: number }) =>
    instantOfWallTime({ year: now.year, month: date.month ?? now.month, day: date.day }, timeZone);
  return { startMs: local(from), endMs: local(to) };
}

/**
 * A session window of `hours` (period `hours`): the one `openedAtMs` opened while it lasts, else a
 * new one opening at `nowMs`, the first request counted after the previous one closed.
 */
export function sessionWindow(options: {
  openedAtMs: number | null;
  hours: number;
  nowMs: number;
}): WindowBounds {
  const lengthMs = options.hours * HOUR_MS;
  const { openedAtMs, nowMs } = options;
  if (openedAtMs !== null && openedAtMs <= nowMs && nowMs < openedAtMs + lengthMs)
    return { startMs: openedAtMs, endMs: openedAtMs + lengthMs };
  return { startMs: nowMs, endMs: nowMs + lengthMs };
}

/**
 * The window of a budget that holds `nowMs`: a calendar window on `timeZone`'s clock, the session
 * window that `sessionOpenedAtMs` opened (or one opening now), or none for `total`, which never
 * resets. A window past its end is never returned: a reset happens on the first request after it,
 * with no timer that a restart could miss.
 */
export function currentWindow(
  budget: { period: BudgetPeriod; hours: number | null },
  options: { nowMs: number; timeZone: string; sessionOpenedAtMs: number | null },
): WindowBounds | null {
  switch (budget.period) {
    case 'total':
      return null;
    case 'hours':
      return sessionWindow({
        openedAtMs: options.sessionOpenedAtMs,
        hours: budget.hours ?? 1,
        nowMs: options.nowMs,
      });
    case 'hour':
    case 'day':
    case 'week':
    case 'month':
      return calendarWindow(budget.period, options.nowMs, options.timeZone);
    default: {
      const unknown: never = budget.period;
      throw new Error(`unknown budget period: ${String(unknown)}`);
    }
  }
}
