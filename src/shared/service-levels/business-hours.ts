import { type BusinessCalendar, minutesOfTimeOfDay, weekdays } from "./business-calendar.schemas.ts";

// Business-time arithmetic on one calendar (decision 017). Business time is real elapsed time inside the
// calendar's working intervals: an interval across a daylight-saving change counts the hours that actually
// pass. Days are walked one at a time, and whole weeks are skipped in one step when they hold no holiday
// and no change of the zone's offset, so a target of a year costs about 52 steps, never a loop per minute.

const minuteMs = 60_000;
const dayMs = 86_400_000;
const weekMs = 7 * dayMs;
/** A calendar always has working time; this only stops a loop on a calendar that never went through the schema. */
const searchLimitDays = 366 * 1000;

// --- The zone's offset, from the platform's Intl (no time-zone library: decision 017) ---

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCaches = new Map<string, Map<number, number>>();
const offsetCacheLimit = 10_000;

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Milliseconds to add to a UTC instant to read the wall clock of `zone` (+3,600,000 for Berlin in winter). */
function offsetAt(zone: string, utcMs: number): number {
  let cache = offsetCaches.get(zone);
  if (!cache) {
    cache = new Map();
    offsetCaches.set(zone, cache);
  }
  const cached = cache.get(utcMs);
  if (cached !== undefined) return cached;
  const wholeSecond = Math.floor(utcMs / 1000) * 1000;
  const fields: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(wholeSecond)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  const wall = new Date(0);
  wall.setUTCFullYear(fields.year!, fields.month! - 1, fields.day!);
  wall.setUTCHours(fields.hour!, fields.minute!, fields.second!, 0);
  const offset = wall.getTime() - wholeSecond;
  if (cache.size >= offsetCacheLimit) cache.clear();
  cache.set(utcMs, offset);
  return offset;
}

/**
 * The instant at which `zone`'s wall clock shows `wallMs` (a wall-clock time written as if it were UTC).
 * In a gap (02:30 when clocks jump from 02:00 to 03:00) the time moves forward by the gap (03:30); in an
 * overlap (02:30 twice when clocks go back) the earlier instant is taken. As Temporal's "compatible".
 */
function instantOfWallTime(zone: string, wallMs: number): number {
  const before = offsetAt(zone, wallMs - dayMs);
  const after = offsetAt(zone, wallMs + dayMs);
  if (before === after) return wallMs - before;
  const withBefore = wallMs - before;
  const withAfter = wallMs - after;
  const isBeforeValid = offsetAt(zone, withBefore) === before;
  const isAfterValid = offsetAt(zone, withAfter) === after;
  if (isBeforeValid && isAfterValid) return Math.min(withBefore, withAfter);
  if (isAfterValid) return withAfter;
  return withBefore;
}

/** Days since 1970-01-01 of the date the zone's wall clock shows at `utcMs`. */
function localDayOf(zone: string, utcMs: number): number {
  return Math.floor((utcMs + offsetAt(zone, utcMs)) / dayMs);
}

/** 0 = Monday … 6 = Sunday; day 0 (1970-01-01) was a Thursday. */
function weekdayIndexOf(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

// --- The calendar, compiled once per calendar object ---

type CompiledCalendar = {
  zone: string;
  /** Per weekday (Monday first), working intervals as minutes since local midnight. */
  week: Array<Array<readonly [number, number]>>;
  /** Working time of a whole week without holidays or offset changes. */
  nominalWeekMs: number;
  holidayDays: Set<number>;
};

const compiledCalendars = new WeakMap<BusinessCalendar, CompiledCalendar>();

function compile(calendar: BusinessCalendar): CompiledCalendar {
  const existing = compiledCalendars.get(calendar);
  if (existing) return existing;
  const week = weekdays.map((weekday) =>
    calendar.workingHours[weekday].map(
      (interval) => [minutesOfTimeOfDay(interval.open), minutesOfTimeOfDay(interval.close)] as const,
    ),
  );
  const nominalWeekMs = week
    .flat()
    .reduce((sum, [open, close]) => sum + Math.max(0, close - open) * minuteMs, 0);
  if (nominalWeekMs === 0) throw new RangeError("The business calendar has no working hours");
  const holidayDays = new Set(
    calendar.holidays.map((holiday) => {
      const [year, month, day] = holiday.date.split("-").map(Number) as [number, number, number];
      return Math.floor(Date.UTC(year, month - 1, day) / dayMs);
    }),
  );
  const compiled: CompiledCalendar = { zone: calendar.timeZone, week, nominalWeekMs, holidayDays };
  compiledCalendars.set(calendar, compiled);
  return compiled;
}

/** The working intervals of one local date, as UTC instants [open, close), in order; none on a holiday. */
function workingIntervalsOf(compiled: CompiledCalendar, day: number): Array<[number, number]> {
  if (compiled.holidayDays.has(day)) return [];
  const spec = compiled.week[weekdayIndexOf(day)]!;
  if (spec.length === 0) return [];
  const start = instantOfWallTime(compiled.zone, day * dayMs);
  const next = instantOfWallTime(compiled.zone, (day + 1) * dayMs);
  if (next - start === dayMs) {
    // No offset change today: wall-clock minutes are real minutes.
    return spec.map(([open, close]) => [start + open * minuteMs, start + close * minuteMs]);
  }
  const intervals: Array<[number, number]> = [];
  let previousClose = Number.NEGATIVE_INFINITY;
  for (const [open, close] of spec) {
    const from = Math.max(previousClose, instantOfWallTime(compiled.zone, day * dayMs + open * minuteMs));
    const to = instantOfWallTime(compiled.zone, day * dayMs + close * minuteMs);
    if (to > from) {
      intervals.push([from, to]);
      previousClose = to;
    }
  }
  return intervals;
}

/** Seven days from `day` on hold their nominal working time: no holiday, and the offset never changes. */
function isOrdinaryWeek(compiled: CompiledCalendar, day: number): boolean {
  for (let offset = 0; offset < 7; offset++) {
    if (compiled.holidayDays.has(day + offset)) return false;
  }
  const start = instantOfWallTime(compiled.zone, day * dayMs);
  const end = instantOfWallTime(compiled.zone, (day + 7) * dayMs);
  return end - start === weekMs;
}

function instantOf(date: Date, label: string): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`${label} is not a valid date`);
  return ms;
}

/**
 * When a target of `minutes` business minutes that starts at `start` is due. Time outside working hours,
 * on closed days and on holidays does not count: 60 minutes raised at 16:30 on a Friday (09:00–17:00) are
 * due at 09:30 on Monday, and a target raised at night starts counting at the next opening. A target that
 * ends exactly at a closing time is due at that closing time, not at the next opening. Zero minutes are
 * due at `start` itself.
 */
export function addBusinessMinutes(calendar: BusinessCalendar, start: Date, minutes: number): Date {
  const from = instantOf(start, "Start");
  if (!Number.isFinite(minutes) || minutes < 0) {
    throw new RangeError("Business minutes must be a finite number of at least 0");
  }
  let remaining = Math.round(minutes * minuteMs);
  if (remaining === 0) return new Date(from);
  const compiled = compile(calendar);
  const firstDay = localDayOf(compiled.zone, from);
  for (let day = firstDay; day < firstDay + searchLimitDays; ) {
    // Strictly less: a target that ends with the week is due at its last closing time, found day by day.
    if (day > firstDay && compiled.nominalWeekMs < remaining && isOrdinaryWeek(compiled, day)) {
      remaining -= compiled.nominalWeekMs;
      day += 7;
      continue;
    }
    for (const [open, close] of workingIntervalsOf(compiled, day)) {
      const countFrom = Math.max(open, from);
      if (close <= countFrom) continue;
      if (remaining <= close - countFrom) return new Date(countFrom + remaining);
      remaining -= close - countFrom;
    }
    day++;
  }
  throw new RangeError("The business calendar has no working hours in reach");
}

/**
 * Business minutes between two instants (fractions when they are not on whole minutes): the time of `from`
 * → `to` that lies inside working intervals. Negative when `to` is before `from`, 0 when they are equal.
 */
export function businessMinutesBetween(calendar: BusinessCalendar, from: Date, to: Date): number {
  const fromMs = instantOf(from, "From");
  const toMs = instantOf(to, "To");
  if (toMs < fromMs) return -businessMinutesBetween(calendar, to, from);
  if (toMs === fromMs) return 0;
  const compiled = compile(calendar);
  const firstDay = localDayOf(compiled.zone, fromMs);
  const lastDay = localDayOf(compiled.zone, toMs);
  let totalMs = 0;
  for (let day = firstDay; day <= lastDay; ) {
    if (day > firstDay && day + 7 <= lastDay && isOrdinaryWeek(compiled, day)) {
      totalMs += compiled.nominalWeekMs;
      day += 7;
      continue;
    }
    for (const [open, close] of workingIntervalsOf(compiled, day)) {
      const countFrom = Math.max(open, fromMs);
      const countTo = Math.min(close, toMs);
      if (countTo > countFrom) totalMs += countTo - countFrom;
    }
    day++;
  }
  return totalMs / minuteMs;
}

/** Whether `at` lies inside a working interval (an opening time counts, a closing time does not). */
export function isWithinBusinessHours(calendar: BusinessCalendar, at: Date): boolean {
  const atMs = instantOf(at, "Time");
  const compiled = compile(calendar);
  const day = localDayOf(compiled.zone, atMs);
  return workingIntervalsOf(compiled, day).some(([open, close]) => open <= atMs && atMs < close);
}

/**
 * The time of day of `start` on the `days`-th working day after its date (a day with working hours that is
 * not a holiday): a hold that began on a Friday at 10:00 has lasted 1 business day on Monday at 10:00
 * (decision 070). Days, not business minutes: a person counts the days they were waited on.
 */
export function addBusinessDays(calendar: BusinessCalendar, start: Date, days: number): Date {
  const from = instantOf(start, "Start");
  if (!Number.isInteger(days) || days < 0)
    throw new RangeError("Business days must be a whole number of at least 0");
  const compiled = compile(calendar);
  const firstDay = localDayOf(compiled.zone, from);
  const timeOfDayMs = from + offsetAt(compiled.zone, from) - firstDay * dayMs;
  let left = days;
  for (let day = firstDay; day < firstDay + searchLimitDays; day++) {
    if (day > firstDay && workingIntervalsOf(compiled, day).length > 0) left--;
    if (left === 0) return new Date(instantOfWallTime(compiled.zone, day * dayMs + timeOfDayMs));
  }
  throw new RangeError("The business calendar has no working days in reach");
}
