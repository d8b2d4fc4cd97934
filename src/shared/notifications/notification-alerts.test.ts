import { describe, expect, it } from "vitest";
import {
  alertKey,
  fetchRetryDelayMs,
  isNewNotification,
  isRetryableFetchError,
  isTechnicianAlert,
  notificationListErrorText,
  technicianAlert,
  technicianAlertText,
} from "./notification-alerts.ts";

describe("isTechnicianAlert", () => {
  it("alerts on new_ticket and ticket_comment notifications whatever their text", () => {
    expect(isTechnicianAlert({ type: "new_ticket", message: "anything" })).toBe(true);
    expect(isTechnicianAlert({ type: "ticket_comment", message: "anything" })).toBe(true);
  });

  it("alerts on other types only when the message says a ticket was created or commented on", () => {
    expect(isTechnicianAlert({ type: "test", message: "NEW TICKET CREATED: Printer" })).toBe(true);
    expect(isTechnicianAlert({ type: "test", message: "Ada commented on ticket TKT1: hi" })).toBe(true);
    expect(isTechnicianAlert({ type: "ticket_status", message: "Status changed to Resolved" })).toBe(false);
    expect(isTechnicianAlert({ type: "test", message: "hello" })).toBe(false);
  });
});

describe("technicianAlertText", () => {
  it("names a comment or a new ticket, with the 15 second note", () => {
    expect(technicianAlertText({ type: "ticket_comment", message: "x" })).toBe(
      "NEW COMMENT ON TICKET - 15 second alert for technician",
    );
    expect(technicianAlertText({ type: "test", message: "Theo commented on ticket TKT1" })).toBe(
      technicianAlert.newCommentText,
    );
    expect(technicianAlertText({ type: "new_ticket", message: "NEW TICKET CREATED: x" })).toBe(
      "NEW TICKET CREATED - 15 second alert for technician",
    );
  });
});

describe("alertKey", () => {
  it("is the same for the same types and messages and differs otherwise", () => {
    const a = { type: "new_ticket" as const, message: "NEW TICKET CREATED: A" };
    const b = { type: "ticket_comment" as const, message: "Ada commented on ticket TKT1" };
    expect(alertKey([a, b])).toBe(alertKey([{ ...a }, { ...b }]));
    expect(alertKey([a])).not.toBe(alertKey([b]));
    expect(alertKey([a])).not.toBe(alertKey([{ ...a, type: "test" }]));
  });
});

describe("isNewNotification", () => {
  const now = Date.parse("2025-11-20T10:00:00.000Z");
  it("counts a notification as new for 30 seconds", () => {
    expect(isNewNotification("2025-11-20T09:59:31.000Z", now)).toBe(true);
    expect(isNewNotification("2025-11-20T09:59:30.000Z", now)).toBe(true);
    expect(isNewNotification("2025-11-20T09:59:29.000Z", now)).toBe(false);
  });

  it("treats a timestamp slightly ahead of the local clock as new", () => {
    expect(isNewNotification("2025-11-20T10:00:02.000Z", now)).toBe(true);
  });
});

describe("fetch retries", () => {
  it("retries only network, connection and QUIC failures, 2 s × attempt apart", () => {
    expect(isRetryableFetchError("Network connection error. Please check your internet connection.")).toBe(
      true,
    );
    expect(isRetryableFetchError("net::ERR_QUIC_PROTOCOL_ERROR")).toBe(true);
    expect(isRetryableFetchError("Connection reset")).toBe(true);
    expect(isRetryableFetchError("Notification not found")).toBe(false);
    expect([1, 2].map(fetchRetryDelayMs)).toEqual([2000, 4000]);
  });
});

describe("notificationListErrorText", () => {
  it("gives the spec's texts for permission, availability and network failures", () => {
    expect(notificationListErrorText({ code: "forbidden", status: 403, message: "Nope" })).toBe(
      "Permission denied. Please check your authentication.",
    );
    expect(notificationListErrorText({ code: "unauthenticated", status: 401, message: "x" })).toBe(
      "Permission denied. Please check your authentication.",
    );
    expect(notificationListErrorText({ code: "internal", status: 503, message: "x" })).toBe(
      "Service temporarily unavailable. Please try again.",
    );
    expect(notificationListErrorText({ code: "network_error", status: 0, message: "Failed" })).toBe(
      "Network connection error. Please check your internet connection.",
    );
  });

  it("returns any other message as it came", () => {
    expect(notificationListErrorText({ code: "internal", status: 500, message: "Disk full" })).toBe(
      "Disk full",
    );
  });
});

describe("service-level notifications", () => {
  it("raise the ordinary alert, not the technicians' 15-second alarm (kept for new tickets and comments)", () => {
    expect(
      isTechnicianAlert({ type: "sla_breached", message: "First response target missed on ticket TKT1" }),
    ).toBe(false);
    expect(isTechnicianAlert({ type: "sla_warning", message: "Resolution due in 12m on ticket TKT1" })).toBe(
      false,
    );
  });
});
