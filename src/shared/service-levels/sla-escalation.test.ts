import { describe, expect, it } from "vitest";
import { shortDuration, slaEventText } from "./sla-escalation.ts";

describe("slaEventText", () => {
  const at = new Date("2030-01-07T10:00:00Z");
  const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);

  it("says how long is left before a warned target, and that a breached one was missed", () => {
    expect(slaEventText("sla_warning", "first_response", { dueAt: later(12), at })).toBe(
      "First response due in 12m",
    );
    expect(slaEventText("sla_warning", "resolution", { dueAt: later(95), at })).toBe(
      "Resolution due in 1h 35m",
    );
    expect(slaEventText("sla_breached", "resolution", { dueAt: later(-5), at })).toBe(
      "Resolution target missed",
    );
    expect(slaEventText("sla_warning", "resolution", { dueAt: null, at })).toBe("Resolution due soon");
  });
});

describe("shortDuration", () => {
  it("rounds up to the minute, so time left never reads as none", () => {
    expect(shortDuration(1)).toBe("1m");
    expect(shortDuration(59 * 60_000 + 1)).toBe("1h");
    expect(shortDuration(60 * 60_000)).toBe("1h");
    expect(shortDuration(26 * 60 * 60_000 + 1)).toBe("1d 2h");
    expect(shortDuration(48 * 60 * 60_000)).toBe("2d");
  });
});
