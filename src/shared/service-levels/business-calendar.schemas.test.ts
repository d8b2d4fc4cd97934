import { describe, expect, it } from "vitest";
import {
  type BusinessCalendarInput,
  businessCalendarSchema,
  defaultBusinessCalendar,
} from "./business-calendar.schemas.ts";

const valid: BusinessCalendarInput = {
  timeZone: "Europe/Berlin",
  workingHours: {
    Monday: [{ open: "09:00", close: "17:00" }],
    Tuesday: [
      { open: "08:00", close: "12:00" },
      { open: "13:00", close: "17:00" },
    ],
    Wednesday: [],
    Thursday: [],
    Friday: [],
    Saturday: [],
    Sunday: [{ open: "00:00", close: "24:00" }],
  },
  holidays: [{ date: "2026-12-25", name: "Christmas Day" }, { date: "2027-01-01" }],
};

function messagesOf(input: unknown): string[] {
  const result = businessCalendarSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("businessCalendarSchema", () => {
  it("accepts a zone, split days, a day open round the clock and named or unnamed holidays", () => {
    expect(messagesOf(valid)).toEqual([]);
    expect(businessCalendarSchema.parse({ ...valid, holidays: undefined }).holidays).toEqual([]);
  });

  it("accepts the default calendar: Monday to Friday, 09:00–17:00, UTC", () => {
    expect(businessCalendarSchema.parse(defaultBusinessCalendar)).toEqual(defaultBusinessCalendar);
  });

  it("accepts zones of the IANA database and refuses other names and fixed offsets", () => {
    for (const zone of ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]) {
      expect(messagesOf({ ...valid, timeZone: zone })).toEqual([]);
    }
    for (const zone of ["Mars/Olympus_Mons", "+01:00", "CEST+2", ""]) {
      expect(messagesOf({ ...valid, timeZone: zone })).toEqual([
        zone === ""
          ? "Time zone is required"
          : "Time zone must be a zone like Europe/Berlin or America/New_York",
      ]);
    }
  });

  it("names the day whose closing time is not after its opening time", () => {
    const input = {
      ...valid,
      workingHours: { ...valid.workingHours, Monday: [{ open: "17:00", close: "09:00" }] },
    };
    expect(messagesOf(input)).toEqual(["Monday: the closing time must be after the opening time"]);
    const result = businessCalendarSchema.safeParse(input);
    expect(result.success ? [] : result.error.issues[0]?.path).toEqual([
      "workingHours",
      "Monday",
      0,
      "close",
    ]);
  });

  it("names the day whose intervals overlap or are out of order", () => {
    const input = {
      ...valid,
      workingHours: {
        ...valid.workingHours,
        Friday: [
          { open: "13:00", close: "17:00" },
          { open: "08:00", close: "12:00" },
        ],
      },
    };
    expect(messagesOf(input)).toEqual(["Friday: working intervals must be in order and must not overlap"]);
  });

  it("refuses times that are not HH:MM on a 24-hour clock", () => {
    for (const time of ["9:00", "24:30", "12:60", "noon"]) {
      const input = {
        ...valid,
        workingHours: { ...valid.workingHours, Monday: [{ open: time, close: "17:00" }] },
      };
      expect(messagesOf(input)).toContain("Opening time must be a time like 09:00 (00:00 to 24:00)");
    }
  });

  it("refuses a week without any working time", () => {
    const closedWeek = Object.fromEntries(Object.keys(valid.workingHours).map((day) => [day, []]));
    expect(messagesOf({ ...valid, workingHours: closedWeek })).toEqual([
      "Working hours: at least one day needs an opening and a closing time",
    ]);
  });

  it("refuses a missing day, dates that do not exist and a holiday listed twice", () => {
    const { Sunday: _sunday, ...withoutSunday } = valid.workingHours;
    expect(messagesOf({ ...valid, workingHours: withoutSunday })).toEqual([
      "Sunday: working hours must be a list of opening and closing times (empty when closed)",
    ]);
    expect(messagesOf({ ...valid, holidays: [{ date: "2026-02-30" }] })).toEqual([
      "Holiday date must be a date like 2026-12-25",
    ]);
    expect(messagesOf({ ...valid, holidays: [{ date: "2026-12-25" }, { date: "2026-12-25" }] })).toEqual([
      "Holidays: 2026-12-25 is listed twice",
    ]);
    expect(messagesOf({ ...valid, holidays: [{ date: "2026-12-25", name: "a\u0000b" }] })).toEqual([
      "Holiday name must not contain control characters",
    ]);
  });
});
