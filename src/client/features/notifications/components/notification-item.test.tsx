import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setTimeZone } from "#client/lib/format.ts";
import { activateLocale } from "#client/lib/i18n.ts";
import { makeNotification } from "#client/test/fixtures.ts";
import { notificationRoutes } from "#client/test/notification-routes.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { NotificationParams } from "#shared/notifications/notification.schemas.ts";
import { NotificationList } from "./notification-list.tsx";

// Decision 059: the app words a notification from what it is made of, in the reader's language, with the
// screens' date format; a notification without params shows the server's English message.

const title = "Drucker im 2. Stock klemmt";

// Dates are written in the browser's zone: one zone for every run, so that the expected texts hold anywhere.
beforeEach(() => setTimeZone("Europe/Berlin"));
afterEach(async () => {
  setTimeZone(undefined);
  await activateLocale("en");
});

async function showList(...params: Array<NotificationParams | null>) {
  const items = params.map((p, i) =>
    makeNotification({
      notificationId: String(params.length - i),
      message: `The English message ${i}`,
      params: p,
      ticketId: "TKT0M5ABCDEF1234567",
    }),
  );
  vi.stubGlobal("fetch", stubFetch(notificationRoutes(items).routes).fetchStub);
  renderWithApp(<NotificationList filter="all" />);
  return screen.findAllByRole("listitem");
}

const statusChange: NotificationParams = {
  kind: "status_changed",
  title,
  actor: "Ada",
  from: "In Progress",
  to: "Resolved",
  autoCloseAt: "2030-03-11T10:00:00.000Z",
};

describe("a notification in German", () => {
  it("names the ticket by its title, its statuses in German and its date in the German format", async () => {
    await activateLocale("de");
    const [item] = await showList(statusChange);
    expect(item).toHaveTextContent(
      `Ada hat den Status von Ticket „${title}“ von In Bearbeitung auf Gelöst geändert. ` +
        "Es wird am 11.03.2030, 11:00 automatisch geschlossen, wenn Sie nicht antworten oder es bewerten.",
    );
    // The text is the link to its ticket.
    expect(screen.getByRole("link", { name: new RegExp(`Ticket „${title}“`) })).toHaveAttribute(
      "href",
      "/tickets/TKT0M5ABCDEF1234567",
    );
  });

  it("says when a service-level target is due, in the German date format", async () => {
    await activateLocale("de");
    const [item] = await showList({
      kind: "sla_warning",
      title,
      target: "resolution",
      dueAt: "2025-11-21T05:33:00.000Z",
    });
    expect(item).toHaveTextContent(`Lösung für Ticket „${title}“ fällig am 21.11.2025, 06:33`);
  });

  it("shortens a long title, and shows the English message of a notification without params", async () => {
    await activateLocale("de");
    const long = "Der Farbdrucker im dritten Stock druckt jede Seite zweimal und klemmt dann bei der letzten";
    const items = await showList(
      { kind: "commented", title: long, actor: "Theo", preview: "Bin unterwegs" },
      null,
    );
    expect(items[0]).toHaveTextContent(
      "Theo hat Ticket „Der Farbdrucker im dritten Stock druckt jede Seite zweimal…“ kommentiert: Bin unterwegs",
    );
    expect(items[1]).toHaveTextContent("The English message 1");
  });
});

describe("each kind of notification", () => {
  const cases: Array<[string, NotificationParams, string, string]> = [
    [
      "a new ticket",
      { kind: "ticket_created", title, department: "Finance", floor: "3" },
      `NEW TICKET CREATED: ${title} | Department: Finance | Floor: 3`,
      `NEUES TICKET ERSTELLT: ${title} | Abteilung: Finance | Etage: 3`,
    ],
    [
      "a comment",
      { kind: "commented", title, actor: "Theo", preview: "On my way" },
      `Theo commented on ticket "${title}": On my way`,
      `Theo hat Ticket „${title}“ kommentiert: On my way`,
    ],
    [
      "an internal note",
      { kind: "internal_note", title, actor: null, preview: "Call vendor" },
      `Someone added an internal note on ticket "${title}": Call vendor`,
      `Jemand hat eine interne Notiz zu Ticket „${title}“ geschrieben: Call vendor`,
    ],
    [
      "a mention in a note",
      { kind: "mentioned", title, actor: "Theo", preview: "@Tara look", isInternal: true },
      `Theo mentioned you in an internal note on ticket "${title}": @Tara look`,
      `Theo hat Sie in einer internen Notiz zu Ticket „${title}“ erwähnt: @Tara look`,
    ],
    [
      "a status change",
      { kind: "status_changed", title, actor: "Ada", from: "Open", to: "Closed" },
      `Ada changed the status of ticket "${title}" from Open to Closed`,
      `Ada hat den Status von Ticket „${title}“ von Offen auf Geschlossen geändert`,
    ],
    [
      "Assign to Me",
      { kind: "assigned_to_self", title, actor: "Theo" },
      `Theo assigned ticket "${title}" to themselves; it is now In Progress`,
      `Theo hat Ticket „${title}“ übernommen; Status jetzt: In Bearbeitung`,
    ],
    [
      "an assignment by an admin",
      { kind: "reassigned", title, actor: "Ada", assignee: "Tara", status: null },
      `Ada assigned ticket "${title}" to Tara`,
      `Ada hat Ticket „${title}“ Tara zugewiesen`,
    ],
    [
      "a return to the queue",
      { kind: "returned_to_queue", title, actor: "Ada", status: "Open" },
      `Ada returned ticket "${title}" to the queue; it is now Open`,
      `Ada hat Ticket „${title}“ in die Warteschlange zurückgegeben; Status jetzt: Offen`,
    ],
    [
      "corrected details",
      {
        kind: "edited",
        title,
        actor: "Ada",
        changes: [
          { field: "priority", from: "Low", to: "High" },
          { field: "cf:asset", label: "Asset tag", from: "A-1", to: "A-2" },
          { field: "description" },
        ],
      },
      `Ada edited ticket "${title}": Priority: Low → High; Asset tag: A-1 → A-2; Description edited`,
      `Ada hat Ticket „${title}“ bearbeitet: Priorität: Niedrig → Hoch; Asset tag: A-1 → A-2; Beschreibung bearbeitet`,
    ],
    [
      "a rating",
      { kind: "feedback", title, actor: "Uma", rating: 4, comment: "Quick, thanks" },
      `Uma rated ticket "${title}" ★★★★☆ 4/5: Quick, thanks`,
      `Uma hat Ticket „${title}“ mit ★★★★☆ 4/5 bewertet: Quick, thanks`,
    ],
    [
      "a missed target",
      { kind: "sla_breached", title, target: "first_response" },
      `First response target missed on ticket "${title}"`,
      `Ziel für die erste Antwort bei Ticket „${title}“ verfehlt`,
    ],
    [
      "a ticket moved to the reader's team",
      { kind: "team_changed", title, actor: "Ada", team: "Network" },
      `Ada moved ticket "${title}" to team Network`,
      `Ada hat Ticket „${title}“ ins Team Network verschoben`,
    ],
    [
      "an automatic close",
      { kind: "auto_closed", title, idleDays: 7 },
      `Ticket "${title}" was closed automatically after 7 days without activity`,
      `Ticket „${title}“ wurde nach 7 Tagen ohne Aktivität automatisch geschlossen`,
    ],
    [
      "a hold lifted by the requester's reply",
      { kind: "hold_lifted", title, actor: "Uma User", reason: "reply" },
      `Uma User replied: ticket "${title}" is no longer on hold`,
      `Uma User hat geantwortet: Ticket „${title}“ wartet nicht mehr`,
    ],
    [
      "a hold lifted at its date",
      { kind: "hold_lifted", title, actor: null, reason: "date" },
      `Ticket "${title}" is no longer on hold: its date to lift the hold has come`,
      `Ticket „${title}“ wartet nicht mehr: das Datum für das Ende des Wartens ist erreicht`,
    ],
    [
      "an automatic resolution of a ticket on hold",
      { kind: "auto_resolved", title, businessDays: 5 },
      `Ticket "${title}" was resolved automatically after 5 business days waiting for the requester's reply`,
      `Ticket „${title}“ wurde automatisch gelöst, nachdem 5 Arbeitstage auf die Antwort des Anfragenden gewartet wurde`,
    ],
  ];

  // The English is the server's message word for word (record-ticket-event.ts), so that the app, the API
  // and the e-mail say the same.
  it.each(cases)("%s reads in English as the server's message", async (_kind, params, english) => {
    const [item] = await showList(params);
    expect(item).toHaveTextContent(english, { normalizeWhitespace: false });
  });

  it.each(cases)("%s reads in German", async (_kind, params, _english, german) => {
    await activateLocale("de");
    const [item] = await showList(params);
    expect(item).toHaveTextContent(german, { normalizeWhitespace: false });
  });

  it("writes an English reader's dates in the English format", async () => {
    const [item] = await showList(statusChange);
    expect(item).toHaveTextContent(
      `Ada changed the status of ticket "${title}" from In Progress to Resolved. ` +
        "It will close automatically on Mar 11, 2030, 11:00 AM unless you reply or rate it.",
    );
  });
});
