/**
 * Wall-clock time in an IANA time zone, from the platform's own time-zone data (`Intl`): no
 * offsets of our own, so daylight-saving days of 23 or 25 hours and zones off the whole hour come
 * out as the zone says.
 */

/** A wall-clock reading; `weekday` 1 is Monday, 7 Sunday (ISO 8601). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const DAY_MS = 86_400_000;

/** A formatter per zone: building one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the platform knows `timeZone` as an IANA zone name. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `timeZone` at the instant `ms` (Unix milliseconds; the milliseconds are dropped). */
export function wallTimeAt(ms: number, timeZone: string): WallTime {
  const wall: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, weekday: 0 };
  for (const part of formatterOf(timeZone).formatToParts(ms)) {
    if (part.type === 'weekday') wall.weekday = WEEKDAYS[part.value] ?? 0;
    else if (part.type in wall) wall[part.type as Exclude<keyof WallTime, 'weekday'>] = Number(part.value);
  }
  return wall;
}

/** A wall-clock reading as if it were UTC: comparable and subtractable, never an instant itself. */
function wallAsUtc(wall: Omit<WallTime, 'weekday'>): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** How far the zone's wall clock runs ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallAsUtc(wallTimeAt(whole, timeZone)) - whole;
}

/**
 * The first instant whose wall clock in `timeZone` reads `year-month-day hour:00:00` or later.
 * Members past their range roll over (`day` 32 is the next month's first), as `Date.UTC` does.
 * A reading the clocks pass twice (when they go back) is its first instant; one they skip (when they
 * go forward across it) is the instant they jump, the first of the new day or hour.
 */
export function instantOfWallTime(
  wall: { year: number; month: number; day: number; hour?: number },
  timeZone: string,
): number {
  const target = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour ?? 0);
  // No zone changes its offset twice within two days: the offsets a day either side are the only ones.
  const offsets = [offsetAt(target - DAY_MS, timeZone), offsetAt(target + DAY_MS, timeZone)];
  const candidates = offsets.map((offset) => target - offset).sort((a, b) => a - b);
  const exact = candidates.find((instant) => wallAsUtc(wallTimeAt(instant, timeZone)) === target);
  if (exact !== undefined) return exact;
  // Skipped: the later candidate is the instant the clocks jumped past the reading.
  return candidates.find((instant) => wallAsUtc(wallTimeAt(instant, timeZone)) > target) ?? target;
}
