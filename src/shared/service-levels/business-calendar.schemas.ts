import { z } from "zod";
import { storableText } from "#shared/text/storable-text.ts";

/** Monday first, as the working week is read in Europe and by ISO 8601. */
export const weekdays = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export type Weekday = (typeof weekdays)[number];

/** Enough for a split day (morning, afternoon, evening shift) without inviting a timetable per minute. */
export const workingIntervalsPerDayMax = 4;
export const holidaysMax = 500;
export const holidayNameMaxLength = 100;

/** "HH:MM" on a 24-hour clock; "24:00" closes at the end of the day (a day open round the clock is 00:00–24:00). */
const timeOfDayPattern = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Minutes since the local midnight of "HH:MM". */
export function minutesOfTimeOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function timeOfDaySchema(label: string) {
  return z
    .string({ error: `${label} must be a time like 09:00` })
    .regex(timeOfDayPattern, `${label} must be a time like 09:00 (00:00 to 24:00)`);
}

const workingIntervalSchema = z.object({
  open: timeOfDaySchema("Opening time"),
  close: timeOfDaySchema("Closing time"),
});
export type WorkingInterval = z.infer<typeof workingIntervalSchema>;

function workingDaySchema(day: Weekday) {
  return z
    .array(workingIntervalSchema, {
      error: `${day}: working hours must be a list of opening and closing times (empty when closed)`,
    })
    .max(workingIntervalsPerDayMax, `${day}: at most ${workingIntervalsPerDayMax} working intervals`);
}

/** A zone of the IANA database (Europe/Berlin, America/New_York, UTC), as the platform's Intl knows it. */
export function isIanaTimeZone(zone: string): boolean {
  // Intl also takes fixed offsets ("+01:00"), which have no daylight saving time and no name: refused.
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date that exists (2026-02-30 does not). */
export function isCalendarDate(date: string): boolean {
  if (!datePattern.test(date)) return false;
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return (
    parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day
  );
}

const holidaySchema = z.object({
  date: z
    .string({ error: "Holiday date must be a date like 2026-12-25" })
    .refine(isCalendarDate, "Holiday date must be a date like 2026-12-25"),
  name: storableText(
    z
      .string({ error: "Holiday name must be text" })
      .trim()
      .max(holidayNameMaxLength, `Holiday name must be at most ${holidayNameMaxLength} characters`),
    "Holiday name",
  ).optional(),
});
export type Holiday = z.infer<typeof holidaySchema>;

/**
 * One business calendar: when the help desk works, in which time zone, and on which dates it does not.
 * Holidays are whole dates in the calendar's own zone; a day with an empty list of intervals is closed.
 */
export const businessCalendarSchema = z
  .object({
    timeZone: z
      .string({ error: "Time zone is required" })
      .trim()
      .min(1, { message: "Time zone is required", abort: true })
      .refine(isIanaTimeZone, "Time zone must be a zone like Europe/Berlin or America/New_York"),
    workingHours: z.object(
      {
        Monday: workingDaySchema("Monday"),
        Tuesday: workingDaySchema("Tuesday"),
        Wednesday: workingDaySchema("Wednesday"),
        Thursday: workingDaySchema("Thursday"),
        Friday: workingDaySchema("Friday"),
        Saturday: workingDaySchema("Saturday"),
        Sunday: workingDaySchema("Sunday"),
      },
      { error: "Working hours must list every day from Monday to Sunday" },
    ),
    holidays: z
      .array(holidaySchema, { error: "Holidays must be a list of dates" })
      .max(holidaysMax, `At most ${holidaysMax} holidays`)
      .default([]),
  })
  .superRefine((calendar, ctx) => {
    let intervalCount = 0;
    for (const day of weekdays) {
      const intervals = calendar.workingHours[day];
      intervalCount += intervals.length;
      let previousClose = -1;
      intervals.forEach((interval, index) => {
        const open = minutesOfTimeOfDay(interval.open);
        const close = minutesOfTimeOfDay(interval.close);
        if (close <= open) {
          ctx.addIssue({
            code: "custom",
            path: ["workingHours", day, index, "close"],
            message: `${day}: the closing time must be after the opening time`,
          });
        } else if (open < previousClose) {
          ctx.addIssue({
            code: "custom",
            path: ["workingHours", day, index, "open"],
            message: `${day}: working intervals must be in order and must not overlap`,
          });
        }
        previousClose = Math.max(previousClose, close);
      });
    }
    if (intervalCount === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["workingHours"],
        message: "Working hours: at least one day needs an opening and a closing time",
      });
    }
    const seen = new Set<string>();
    calendar.holidays.forEach((holiday, index) => {
      if (seen.has(holiday.date)) {
        ctx.addIssue({
          code: "custom",
          path: ["holidays", index, "date"],
          message: `Holidays: ${holiday.date} is listed twice`,
        });
      }
      seen.add(holiday.date);
    });
  });
export type BusinessCalendar = z.infer<typeof businessCalendarSchema>;
export type BusinessCalendarInput = z.input<typeof businessCalendarSchema>;

const officeHours: WorkingInterval[] = [{ open: "09:00", close: "17:00" }];

/**
 * Until an admin sets the organisation's own: Monday to Friday, 09:00–17:00, in UTC. UTC because any
 * other zone would be a guess; the admin settings show it, so the first thing an admin fixes is the zone.
 */
export const defaultBusinessCalendar: BusinessCalendar = {
  timeZone: "UTC",
  workingHours: {
    Monday: officeHours,
    Tuesday: officeHours,
    Wednesday: officeHours,
    Thursday: officeHours,
    Friday: officeHours,
    Saturday: [],
    Sunday: [],
  },
  holidays: [],
};
