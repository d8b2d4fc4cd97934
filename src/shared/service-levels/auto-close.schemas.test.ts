import { describe, expect, it } from "vitest";
import { autoCloseAtOf, autoClosedText, autoCloseSettingsSchema } from "./auto-close.schemas.ts";

const day = 24 * 60 * 60_000;
const now = new Date("2030-03-04T10:00:00Z");
const on = { enabled: true, days: 7 };

describe("autoCloseAtOf", () => {
  it("is the last activity plus the days for a Resolved ticket", () => {
    const lastActivityAt = new Date(now.getTime() - 2 * day);
    expect(autoCloseAtOf({ status: "Resolved", lastActivityAt }, on, now)).toEqual(
      new Date(lastActivityAt.getTime() + 7 * day),
    );
  });

  it("is never in the past: an overdue ticket closes at the next run", () => {
    const lastActivityAt = new Date(now.getTime() - 30 * day);
    expect(autoCloseAtOf({ status: "Resolved", lastActivityAt }, on, now)).toEqual(now);
  });

  it("is null when auto-close is off or the ticket is not Resolved", () => {
    expect(
      autoCloseAtOf({ status: "Resolved", lastActivityAt: now }, { ...on, enabled: false }, now),
    ).toBeNull();
    for (const status of ["Open", "In Progress", "Closed"])
      expect(autoCloseAtOf({ status, lastActivityAt: now }, on, now)).toBeNull();
  });
});

describe("the auto-close setting", () => {
  it("takes whole days from 1 to 365 and names the field otherwise", () => {
    expect(autoCloseSettingsSchema.safeParse({ enabled: true, days: 1 }).success).toBe(true);
    expect(autoCloseSettingsSchema.safeParse({ enabled: false, days: 365 }).success).toBe(true);
    for (const days of [0, 366, 1.5, Number.NaN, "7", null]) {
      const parsed = autoCloseSettingsSchema.safeParse({ enabled: true, days });
      expect(parsed.error?.issues[0]?.message).toBe("Days must be a whole number from 1 to 365");
    }
  });

  it("words the timeline entry with the days it waited", () => {
    expect(autoClosedText(7)).toBe("Closed automatically after 7 days without activity");
    expect(autoClosedText(1)).toBe("Closed automatically after 1 day without activity");
  });
});
