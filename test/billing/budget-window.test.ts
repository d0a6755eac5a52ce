import { describe, expect, it } from 'vitest';
import { calendarWindow, currentWindow, sessionWindow } from '../../src/billing/budgets/budget-window.js';
import { instantOfWallTime, isKnownTimeZone, wallTimeAt } from '../../src/billing/budgets/zoned-time.js';

// admin-api section 10: calendar windows on the clock of `budget_time_zone`, session windows, at their edges.

const at = (iso: string) => Date.parse(iso);
const iso = (bounds: { startMs: number; endMs: number }) => ({
  start: new Date(bounds.startMs).toISOString(),
  end: new Date(bounds.endMs).toISOString(),
});
const HOUR_MS = 3_600_000;

describe('day windows', () => {
  it('start at midnight in Asia/Tokyo, nine hours before midnight UTC', () => {
    expect(iso(calendarWindow('day', at('2026-03-10T15:30:00Z'), 'Asia/Tokyo'))).toEqual({
      start: '2026-03-10T15:00:00.000Z',
      end: '2026-03-11T15:00:00.000Z',
    });
    // One second before its midnight it is still the day before.
    expect(iso(calendarWindow('day', at('2026-03-10T14:59:59Z'), 'Asia/Tokyo'))).toEqual({
      start: '2026-03-09T15:00:00.000Z',
      end: '2026-03-10T15:00:00.000Z',
    });
  });

  it('last 23 hours in America/New_York on the day the clocks go forward', () => {
    const day = calendarWindow('day', at('2026-03-08T12:00:00Z'), 'America/New_York');
    expect(iso(day)).toEqual({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
    expect(day.endMs - day.startMs).toBe(23 * HOUR_MS);
  });

  it('last 25 hours in America/New_York on the day the clocks go back', () => {
    const day = calendarWindow('day', at('2026-11-01T12:00:00Z'), 'America/New_York');
    expect(iso(day)).toEqual({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
    expect(day.endMs - day.startMs).toBe(25 * HOUR_MS);
  });

  it('start when the clocks jump past a midnight that does not happen (America/Santiago)', () => {
    // Chile's clocks go from Saturday 24:00 to Sunday 01:00 on the first weekend of September.
    const day = calendarWindow('day', at('2026-09-06T12:00:00Z'), 'America/Santiago');
    expect(wallTimeAt(day.startMs, 'America/Santiago')).toMatchObject({ day: 6, hour: 1, minute: 0 });
    expect(wallTimeAt(day.startMs - 1000, 'America/Santiago')).toMatchObject({
      day: 5,
      hour: 23,
      minute: 59,
    });
    expect(day.endMs - day.startMs).toBe(23 * HOUR_MS);
  });

  it('are whole UTC days in UTC', () => {
    expect(iso(calendarWindow('day', at('2026-12-06T23:59:59.999Z'), 'UTC'))).toEqual({
      start: '2026-12-06T00:00:00.000Z',
      end: '2026-12-07T00:00:00.000Z',
    });
  });
});

describe('week windows', () => {
  it('start on Monday at 00:00, from a Sunday and from the Monday itself', () => {
    const week = { start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' };
    expect(iso(calendarWindow('week', at('2026-12-06T10:00:00Z'), 'UTC'))).toEqual(week);
    expect(iso(calendarWindow('week', at('2026-11-30T00:00:00Z'), 'UTC'))).toEqual(week);
  });

  it('cross a month and a year on the zone clock', () => {
    // Thursday 1 January 2026 in Tokyo: the week began on Monday 29 December 2025.
    expect(iso(calendarWindow('week', at('2025-12-31T16:00:00Z'), 'Asia/Tokyo'))).toEqual({
      start: '2025-12-28T15:00:00.000Z',
      end: '2026-01-04T15:00:00.000Z',
    });
  });
});

describe('month windows', () => {
  it('from 31 January: January to 1 February, then a February of 28 days', () => {
    expect(iso(calendarWindow('month', at('2026-01-31T12:00:00Z'), 'UTC'))).toEqual({
      start: '2026-01-01T00:00:00.000Z',
      end: '2026-02-01T00:00:00.000Z',
    });
    const february = calendarWindow('month', at('2026-02-01T00:00:00Z'), 'UTC');
    expect(iso(february)).toEqual({ start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' });
    expect(february.endMs - february.startMs).toBe(28 * 24 * HOUR_MS);
  });

  it('follow the zone: 1 February in Tokyo while it is still 31 January in UTC', () => {
    expect(iso(calendarWindow('month', at('2026-01-31T16:00:00Z'), 'Asia/Tokyo'))).toEqual({
      start: '2026-01-31T15:00:00.000Z',
      end: '2026-02-28T15:00:00.000Z',
    });
  });

  it('end the year in December', () => {
    expect(iso(calendarWindow('month', at('2026-12-15T00:00:00Z'), 'UTC'))).toEqual({
      start: '2026-12-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
    });
  });
});

describe('hour windows', () => {
  it('start at the zone minute 0, half an hour off UTC in Asia/Kolkata', () => {
    expect(iso(calendarWindow('hour', at('2026-12-06T10:10:20.500Z'), 'Asia/Kolkata'))).toEqual({
      start: '2026-12-06T09:30:00.000Z',
      end: '2026-12-06T10:30:00.000Z',
    });
  });

  it('count the repeated hour twice when the clocks go back', () => {
    const first = calendarWindow('hour', at('2026-11-01T05:30:00Z'), 'America/New_York');
    const second = calendarWindow('hour', at('2026-11-01T06:30:00Z'), 'America/New_York');
    expect(iso(first)).toEqual({ start: '2026-11-01T05:00:00.000Z', end: '2026-11-01T06:00:00.000Z' });
    expect(iso(second)).toEqual({ start: '2026-11-01T06:00:00.000Z', end: '2026-11-01T07:00:00.000Z' });
  });
});

describe('session windows', () => {
  const opened = at('2026-12-06T08:00:00Z');

  it('last their hours from the request that opened them', () => {
    const window = sessionWindow({ openedAtMs: opened, hours: 5, nowMs: at('2026-12-06T12:59:59Z') });
    expect(iso(window)).toEqual({ start: '2026-12-06T08:00:00.000Z', end: '2026-12-06T13:00:00.000Z' });
  });

  it('reopen at the first request after they closed, however long after', () => {
    const reopened = sessionWindow({ openedAtMs: opened, hours: 5, nowMs: at('2026-12-06T13:00:00Z') });
    expect(iso(reopened)).toEqual({ start: '2026-12-06T13:00:00.000Z', end: '2026-12-06T18:00:00.000Z' });
    const later = sessionWindow({ openedAtMs: opened, hours: 5, nowMs: at('2026-12-09T07:15:00Z') });
    expect(iso(later)).toEqual({ start: '2026-12-09T07:15:00.000Z', end: '2026-12-09T12:15:00.000Z' });
  });

  it('open at the first request when none was open, and distrust a start in the future', () => {
    const now = at('2026-12-06T09:00:00Z');
    expect(sessionWindow({ openedAtMs: null, hours: 1, nowMs: now })).toEqual({
      startMs: now,
      endMs: now + HOUR_MS,
    });
    expect(sessionWindow({ openedAtMs: now + 1000, hours: 1, nowMs: now }).startMs).toBe(now);
  });
});

describe('zoned time', () => {
  it('knows IANA zones and refuses what is not one', () => {
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('+05:00 or so')).toBe(false);
  });

  it('reads a repeated wall time as its first instant', () => {
    // 01:30 happens twice in New York on 1 November 2026: first at 05:30 UTC (EDT).
    expect(
      new Date(
        instantOfWallTime({ year: 2026, month: 11, day: 1, hour: 1 }, 'America/New_York'),
      ).toISOString(),
    ).toBe('2026-11-01T05:00:00.000Z');
  });
});

describe('the current window of a budget', () => {
  const nowMs = at('2026-12-06T10:00:00Z');
  const options = { nowMs, timeZone: 'Asia/Tokyo', sessionOpenedAtMs: at('2026-12-06T08:00:00Z') };

  it('is none for total, which never resets', () => {
    expect(currentWindow({ period: 'total', hours: null }, options)).toBeNull();
  });

  it('is the open session for hours, and the zone calendar for the others', () => {
    expect(iso(currentWindow({ period: 'hours', hours: 5 }, options)!)).toEqual({
      start: '2026-12-06T08:00:00.000Z',
      end: '2026-12-06T13:00:00.000Z',
    });
    expect(currentWindow({ period: 'day', hours: null }, options)).toEqual(
      calendarWindow('day', nowMs, 'Asia/Tokyo'),
    );
    expect(iso(currentWindow({ period: 'month', hours: null }, options)!)).toEqual({
      start: '2026-11-30T15:00:00.000Z',
      end: '2026-12-31T15:00:00.000Z',
    });
  });
});
