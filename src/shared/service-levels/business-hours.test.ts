import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BusinessCalendar,
  businessCalendarSchema,
  minutesOfTimeOfDay,
  type weekdays,
} from "./business-calendar.schemas.ts";
import {
  addBusinessDays,
  addBusinessMinutes,
  businessMinutesBetween,
  isWithinBusinessHours,
} from "./business-hours.ts";

const officeHours = [{ open: "09:00", close: "17:00" }];
const closed: [] = [];

function calendar(
  timeZone: string,
  workingHours: Partial<BusinessCalendar["workingHours"]>,
  holidays: string[] = [],
): BusinessCalendar {
  return businessCalendarSchema.parse({
    timeZone,
    workingHours: {
      Monday: closed,
      Tuesday: closed,
      Wednesday: closed,
      Thursday: closed,
      Friday: closed,
      Saturday: closed,
      Sunday: closed,
      ...workingHours,
    },
    holidays: holidays.map((date) => ({ date })),
  });
}

const weekdaysOpen = (zone: string, holidays: string[] = []) =>
  calendar(
    zone,
    {
      Monday: officeHours,
      Tuesday: officeHours,
      Wednesday: officeHours,
      Thursday: officeHours,
      Friday: officeHours,
    },
    holidays,
  );
const allDay = [{ open: "00:00", close: "24:00" }];
const roundTheClock = (zone: string) =>
  calendar(zone, {
    Monday: allDay,
    Tuesday: allDay,
    Wednesday: allDay,
    Thursday: allDay,
    Friday: allDay,
    Saturday: allDay,
    Sunday: allDay,
  });

const berlinHolidays = ["2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01"];
const berlin = weekdaysOpen("Europe/Berlin", berlinHolidays);
const newYork = weekdaysOpen("America/New_York");

const at = (iso: string) => new Date(iso);
const due = (cal: BusinessCalendar, start: string, minutes: number) =>
  addBusinessMinutes(cal, at(start), minutes).toISOString();
const iso = (text: string) => new Date(text).toISOString();

describe("addBusinessMinutes", () => {
  it("carries a target raised late on Friday over the weekend to Monday morning", () => {
    // 2026-11-20 is a Friday: 30 minutes on Friday, 30 on Monday.
    expect(due(berlin, "2026-11-20T16:30:00+01:00", 60)).toBe(iso("2026-11-23T09:30:00+01:00"));
  });

  it("counts a target raised at night from the next opening", () => {
    expect(due(berlin, "2026-11-24T03:00:00+01:00", 30)).toBe(iso("2026-11-24T09:30:00+01:00"));
    expect(due(berlin, "2026-11-24T21:00:00+01:00", 30)).toBe(iso("2026-11-25T09:30:00+01:00"));
  });

  it("counts a target raised on a holiday from the next working day", () => {
    // Christmas Day 2026 is a Friday; the weekend follows.
    expect(due(berlin, "2026-12-25T10:00:00+01:00", 60)).toBe(iso("2026-12-28T10:00:00+01:00"));
  });

  it("skips holidays in the middle of a target, across the year end", () => {
    // Wednesday 2026-12-23 16:00: one hour that day; 24th, 25th are holidays, then a weekend.
    expect(due(berlin, "2026-12-23T16:00:00+01:00", 120)).toBe(iso("2026-12-28T10:00:00+01:00"));
    // Wednesday 2026-12-30 16:00: the 31st and New Year's Day are holidays, then a weekend.
    expect(due(berlin, "2026-12-30T16:00:00+01:00", 120)).toBe(iso("2027-01-04T10:00:00+01:00"));
  });

  it("starts counting at once when raised exactly at opening time", () => {
    expect(due(berlin, "2026-11-23T09:00:00+01:00", 60)).toBe(iso("2026-11-23T10:00:00+01:00"));
  });

  it("counts from the next opening when raised exactly at closing time", () => {
    expect(due(berlin, "2026-11-23T17:00:00+01:00", 60)).toBe(iso("2026-11-24T10:00:00+01:00"));
  });

  it("is due at the closing time when the target ends exactly then, not at the next opening", () => {
    expect(due(berlin, "2026-11-23T16:00:00+01:00", 60)).toBe(iso("2026-11-23T17:00:00+01:00"));
    expect(due(berlin, "2026-11-20T09:00:00+01:00", 480)).toBe(iso("2026-11-20T17:00:00+01:00"));
  });

  it("is due at the start itself for a target of zero minutes", () => {
    expect(due(berlin, "2026-11-22T03:00:00+01:00", 0)).toBe(iso("2026-11-22T03:00:00+01:00"));
  });

  it("counts only the open intervals of a split day", () => {
    const split = calendar("UTC", {
      Monday: [
        { open: "08:00", close: "12:00" },
        { open: "13:00", close: "17:00" },
      ],
    });
    // Monday 2026-11-23 11:30: 30 minutes before lunch, 30 after.
    expect(due(split, "2026-11-23T11:30:00Z", 60)).toBe(iso("2026-11-23T13:30:00Z"));
    // Lunch at the end of the morning's time: due at 12:00.
    expect(due(split, "2026-11-23T11:30:00Z", 30)).toBe(iso("2026-11-23T12:00:00Z"));
    // The next Monday after the afternoon is used up.
    expect(due(split, "2026-11-23T16:30:00Z", 60)).toBe(iso("2026-11-30T08:30:00Z"));
  });

  it("refuses a negative or endless number of minutes and an invalid start", () => {
    expect(() => addBusinessMinutes(berlin, at("2026-11-23T09:00:00Z"), -1)).toThrow(RangeError);
    expect(() => addBusinessMinutes(berlin, at("2026-11-23T09:00:00Z"), Number.POSITIVE_INFINITY)).toThrow(
      RangeError,
    );
    expect(() => addBusinessMinutes(berlin, new Date(Number.NaN), 1)).toThrow(RangeError);
  });
});

describe("businessMinutesBetween", () => {
  it("counts only working time", () => {
    // Friday 16:30 to Monday 09:30 in Berlin: 30 + 30.
    expect(
      businessMinutesBetween(berlin, at("2026-11-20T16:30:00+01:00"), at("2026-11-23T09:30:00+01:00")),
    ).toBe(60);
    // A whole week: five days of eight hours.
    expect(
      businessMinutesBetween(berlin, at("2026-11-16T00:00:00+01:00"), at("2026-11-23T00:00:00+01:00")),
    ).toBe(2400);
  });

  it("leaves out holidays", () => {
    // Monday 21 December to Monday 4 January: 10 weekdays, 4 of them holidays.
    expect(
      businessMinutesBetween(berlin, at("2026-12-21T00:00:00+01:00"), at("2027-01-04T00:00:00+01:00")),
    ).toBe(6 * 480);
  });

  it("is zero for the same instant or a span outside working hours, negative backwards", () => {
    const monday = at("2026-11-23T10:00:00+01:00");
    expect(businessMinutesBetween(berlin, monday, monday)).toBe(0);
    expect(
      businessMinutesBetween(berlin, at("2026-11-21T10:00:00+01:00"), at("2026-11-22T20:00:00+01:00")),
    ).toBe(0);
    expect(businessMinutesBetween(berlin, at("2026-11-23T11:00:00+01:00"), monday)).toBe(-60);
  });

  it("counts fractions of a minute", () => {
    expect(
      businessMinutesBetween(berlin, at("2026-11-23T10:00:00+01:00"), at("2026-11-23T10:00:30+01:00")),
    ).toBe(0.5);
  });
});

describe("daylight saving time", () => {
  it("Europe/Berlin: office hours follow the wall clock across the March and October changes", () => {
    // Clocks go forward on Sunday 2026-03-29 and back on Sunday 2026-10-25.
    expect(due(berlin, "2026-03-27T16:00:00+01:00", 120)).toBe(iso("2026-03-30T10:00:00+02:00"));
    expect(due(berlin, "2026-10-23T16:00:00+02:00", 120)).toBe(iso("2026-10-26T10:00:00+01:00"));
    expect(
      businessMinutesBetween(berlin, at("2026-03-27T09:00:00+01:00"), at("2026-03-30T17:00:00+02:00")),
    ).toBe(960);
  });

  it("Europe/Berlin: a night that loses or gains an hour counts the hours that really pass", () => {
    const sundayNights = calendar("Europe/Berlin", { Sunday: [{ open: "00:00", close: "06:00" }] });
    expect(
      businessMinutesBetween(sundayNights, at("2026-03-29T00:00:00+01:00"), at("2026-03-29T06:00:00+02:00")),
    ).toBe(300);
    expect(
      businessMinutesBetween(sundayNights, at("2026-10-25T00:00:00+02:00"), at("2026-10-25T06:00:00+01:00")),
    ).toBe(420);
    const cet = roundTheClock("Europe/Berlin");
    // 24 real hours from Saturday noon end at 13:00 on Sunday by the summer clock.
    expect(due(cet, "2026-03-28T12:00:00+01:00", 24 * 60)).toBe(iso("2026-03-29T13:00:00+02:00"));
    expect(due(cet, "2026-10-24T12:00:00+02:00", 24 * 60)).toBe(iso("2026-10-25T11:00:00+01:00"));
  });

  it("America/New_York: a week across the March change still holds five working days", () => {
    // Clocks go forward on Sunday 2026-03-08 and back on Sunday 2026-11-01.
    expect(due(newYork, "2026-03-06T16:00:00-05:00", 120)).toBe(iso("2026-03-09T10:00:00-04:00"));
    expect(due(newYork, "2026-10-30T16:00:00-04:00", 120)).toBe(iso("2026-11-02T10:00:00-05:00"));
    expect(
      businessMinutesBetween(newYork, at("2026-03-02T09:00:00-05:00"), at("2026-03-09T09:00:00-04:00")),
    ).toBe(2400);
  });

  it("America/New_York: an opening time that the clocks skip moves forward by the gap", () => {
    // 02:30 does not exist on 2026-03-08: the desk opens at 03:30 and works until 04:00.
    const earlySunday = calendar("America/New_York", { Sunday: [{ open: "02:30", close: "04:00" }] });
    expect(
      businessMinutesBetween(earlySunday, at("2026-03-08T00:00:00-05:00"), at("2026-03-09T00:00:00-04:00")),
    ).toBe(30);
    expect(due(earlySunday, "2026-03-08T00:00:00-05:00", 10)).toBe(iso("2026-03-08T03:40:00-04:00"));
    // 01:30 happens twice on 2026-11-01: the desk opens at the first, so it works 2.5 real hours.
    const lateNight = calendar("America/New_York", { Sunday: [{ open: "01:30", close: "03:00" }] });
    expect(
      businessMinutesBetween(lateNight, at("2026-11-01T00:00:00-04:00"), at("2026-11-02T00:00:00-05:00")),
    ).toBe(150);
  });
});

describe("long targets", () => {
  it("computes a target of a year of business time, with every holiday left out (speed: npm run bench:business-hours)", () => {
    const start = at("2026-01-05T09:00:00+01:00");
    const aYear = 52 * 2400;
    const dueAt = addBusinessMinutes(berlin, start, aYear);
    expect(businessMinutesBetween(berlin, start, dueAt)).toBe(aYear);
    // 52 weeks from Monday 5 January end on Friday 1 January 2027, a holiday; with the 4 holidays
    // (the 24th, 25th, 31st and 1st are weekdays) the target ends 4 working days later.
    expect(dueAt.toISOString()).toBe(iso("2027-01-07T17:00:00+01:00"));
  });
});

// --- Properties, over calendars that cover the awkward cases ---

const calendars: BusinessCalendar[] = [
  berlin,
  newYork,
  roundTheClock("Europe/Berlin"),
  calendar(
    "America/New_York",
    {
      Monday: [
        { open: "07:30", close: "12:00" },
        { open: "13:00", close: "19:15" },
      ],
      Wednesday: [{ open: "00:00", close: "24:00" }],
      Saturday: [{ open: "10:00", close: "14:00" }],
      Sunday: [{ open: "01:00", close: "03:30" }],
    },
    ["2026-07-03", "2027-07-05", "2028-07-04"],
  ),
  // Half an hour of daylight saving time, at 02:00.
  calendar("Australia/Lord_Howe", { Sunday: [{ open: "01:00", close: "03:00" }], Monday: officeHours }),
  calendar("Asia/Kolkata", { Tuesday: [{ open: "22:00", close: "24:00" }], Wednesday: allDay }, [
    "2027-02-03",
  ]),
  // Clocks change at midnight: some dates have no 00:00, others end twice.
  calendar("America/Santiago", {
    Saturday: allDay,
    Sunday: [{ open: "00:00", close: "10:00" }],
    Monday: officeHours,
  }),
  weekdaysOpen("UTC", ["2026-01-01", "2027-01-01"]),
];

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `zone` at `instant`, read independently of the code under test. */
function wallClockOf(zone: string, instant: number) {
  let formatter = partsFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      weekday: "long",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    partsFormatters.set(zone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    weekday: parts.weekday as (typeof weekdays)[number],
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const calendarArbitrary = fc.constantFrom(...calendars);
const startArbitrary = fc.date({
  min: at("2025-06-01T00:00:00Z"),
  max: at("2029-06-01T00:00:00Z"),
  noInvalidDate: true,
});
const minutesArbitrary = fc.integer({ min: 0, max: 60 * 24 * 90 });

describe("business-time properties", () => {
  it("a larger target is never due earlier", () => {
    fc.assert(
      fc.property(
        calendarArbitrary,
        startArbitrary,
        minutesArbitrary,
        minutesArbitrary,
        (cal, start, a, b) => {
          const [small, large] = a <= b ? [a, b] : [b, a];
          expect(addBusinessMinutes(cal, start, small).getTime()).toBeLessThanOrEqual(
            addBusinessMinutes(cal, start, large).getTime(),
          );
        },
      ),
    );
  });

  it("the business time from the start to the due time is the target", () => {
    fc.assert(
      fc.property(calendarArbitrary, startArbitrary, minutesArbitrary, (cal, start, minutes) => {
        expect(businessMinutesBetween(cal, start, addBusinessMinutes(cal, start, minutes))).toBe(minutes);
      }),
    );
  });

  it("a due time ends a minute of working time, never one on a holiday or a closed day", () => {
    fc.assert(
      fc.property(
        calendarArbitrary,
        startArbitrary,
        fc.integer({ min: 1, max: 60 * 24 * 90 }),
        (cal, start, m) => {
          const dueAt = addBusinessMinutes(cal, start, m).getTime();
          // The due time is inside working hours or exactly at a closing time: the moment before it is worked.
          const lastWorked = dueAt - 1;
          expect(isWithinBusinessHours(cal, new Date(lastWorked))).toBe(true);
          const wall = wallClockOf(cal.timeZone, lastWorked);
          expect(cal.holidays.map((holiday) => holiday.date)).not.toContain(wall.date);
          const intervals = cal.workingHours[wall.weekday];
          expect(
            intervals.some(
              (interval) =>
                minutesOfTimeOfDay(interval.open) <= wall.minutes &&
                wall.minutes < minutesOfTimeOfDay(interval.close),
            ),
          ).toBe(true);
        },
      ),
    );
  });

  it("adding a and then b is adding a + b", () => {
    fc.assert(
      fc.property(
        calendarArbitrary,
        startArbitrary,
        minutesArbitrary,
        minutesArbitrary,
        (cal, start, a, b) => {
          const stepwise = addBusinessMinutes(cal, addBusinessMinutes(cal, start, a), b);
          expect(stepwise.getTime()).toBe(addBusinessMinutes(cal, start, a + b).getTime());
        },
      ),
    );
  });

  it("business time adds up over consecutive spans and is antisymmetric", () => {
    fc.assert(
      fc.property(calendarArbitrary, startArbitrary, startArbitrary, startArbitrary, (cal, x, y, z) => {
        const [a, b, c] = [x, y, z].sort((p, q) => p.getTime() - q.getTime()) as [Date, Date, Date];
        const whole = businessMinutesBetween(cal, a, c);
        expect(businessMinutesBetween(cal, a, b) + businessMinutesBetween(cal, b, c)).toBeCloseTo(whole, 6);
        // As a sum, not toBe(-whole): for a span of no time that is -0, which Object.is tells from 0.
        expect(businessMinutesBetween(cal, c, a) + whole).toBe(0);
      }),
    );
  });
});

describe("addBusinessDays (decision 070)", () => {
  const utc = weekdaysOpen("UTC", ["2030-01-14"]);

  it("counts working days after the start's date, at the start's time of day", () => {
    // Friday 10:00 + 1 business day: Monday 10:00 (the weekend is skipped).
    expect(addBusinessDays(utc, new Date("2030-01-04T10:00:00Z"), 1)).toEqual(
      new Date("2030-01-07T10:00:00Z"),
    );
    // Wednesday + 2: Friday.
    expect(addBusinessDays(utc, new Date("2030-01-02T15:30:00Z"), 2)).toEqual(
      new Date("2030-01-04T15:30:00Z"),
    );
    expect(addBusinessDays(utc, new Date("2030-01-02T15:30:00Z"), 0)).toEqual(
      new Date("2030-01-02T15:30:00Z"),
    );
  });

  it("skips holidays, and a hold begun on a closed day counts from the next working day", () => {
    // Friday 11 Jan + 1: Monday 14 Jan is a holiday, so Tuesday 15 Jan.
    expect(addBusinessDays(utc, new Date("2030-01-11T09:00:00Z"), 1)).toEqual(
      new Date("2030-01-15T09:00:00Z"),
    );
    // Saturday + 1: Monday.
    expect(addBusinessDays(utc, new Date("2030-01-05T20:00:00Z"), 1)).toEqual(
      new Date("2030-01-07T20:00:00Z"),
    );
  });

  it("keeps the wall-clock time across a change of the zone's offset", () => {
    // Berlin leaves summer time on Sunday 25 Oct 2026: Friday 10:00 (UTC+2) + 1 is Monday 10:00 (UTC+1).
    expect(addBusinessDays(berlin, new Date("2026-10-23T08:00:00Z"), 1)).toEqual(
      new Date("2026-10-26T09:00:00Z"),
    );
  });
});
