import { describe, expect, it } from "vitest";
import { makeNotification } from "#client/test/fixtures.ts";
import { alertKindFor, createAlertGate } from "./alert-decision.ts";

describe("alertKindFor", () => {
  it("gives technicians the loud alert for new tickets and comments only", () => {
    expect(alertKindFor({ type: "new_ticket", message: "NEW TICKET CREATED: x" }, "technician")).toBe(
      "technician",
    );
    expect(alertKindFor({ type: "ticket_comment", message: "x" }, "technician")).toBe("technician");
    expect(alertKindFor({ type: "test", message: "Ada commented on ticket TKT1" }, "technician")).toBe(
      "technician",
    );
    expect(alertKindFor({ type: "ticket_feedback", message: "rated 5/5" }, "technician")).toBe("user");
  });

  it("gives users and admins the user alert, whatever the type", () => {
    expect(alertKindFor({ type: "ticket_comment", message: "x" }, "user")).toBe("user");
    expect(alertKindFor({ type: "new_ticket", message: "x" }, "admin")).toBe("user");
  });
});

describe("createAlertGate", () => {
  const now = Date.parse("2025-11-20T10:00:00.000Z");
  const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();

  it("alerts only for notifications created within the last 30 s", () => {
    const shouldAlert = createAlertGate(() => now);
    expect(shouldAlert(makeNotification({ notificationId: "1", timestamp: at(29) }))).toBe(true);
    expect(shouldAlert(makeNotification({ notificationId: "2", message: "other", timestamp: at(31) }))).toBe(
      false,
    );
  });

  it("alerts once per notification, and once for the same type and message", () => {
    const shouldAlert = createAlertGate(() => now);
    const first = makeNotification({ notificationId: "1", timestamp: at(1) });
    expect(shouldAlert(first)).toBe(true);
    expect(shouldAlert(first)).toBe(false);
    // Same type and message under another id (e.g. a replay or a duplicate write): suppressed.
    expect(shouldAlert({ ...first, notificationId: "2" })).toBe(false);
    expect(shouldAlert({ ...first, notificationId: "3", type: "test" })).toBe(true);
    expect(shouldAlert({ ...first, notificationId: "4", message: "Another comment" })).toBe(true);
  });

  it("alerts again for the same text once the earlier alert is older than the window", () => {
    let clock = now;
    const shouldAlert = createAlertGate(() => clock);
    const notification = makeNotification({ notificationId: "1", timestamp: new Date(clock).toISOString() });
    expect(shouldAlert(notification)).toBe(true);
    clock += 31_000;
    expect(
      shouldAlert({ ...notification, notificationId: "2", timestamp: new Date(clock).toISOString() }),
    ).toBe(true);
  });
});
