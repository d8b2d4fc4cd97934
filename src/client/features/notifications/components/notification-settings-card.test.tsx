import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { NotificationSettings } from "#shared/notifications/notification.schemas.ts";
import { NotificationSettingsCard } from "./notification-settings-card.tsx";

const defaults: NotificationSettings = {
  emailTypes: [
    "ticket_comment",
    "ticket_status",
    "ticket_assigned",
    "ticket_feedback",
    "ticket_edited",
    "ticket_auto_closed",
    "ticket_auto_resolved",
  ],
  soundsMuted: false,
};

function setup(
  role: "user" | "technician",
  put?: (body: NotificationSettings) => { status?: number; body?: unknown },
) {
  let saved = defaults;
  const stub = stubFetch({
    "GET /api/me/notification-settings": () => ({ body: saved }),
    "PUT /api/me/notification-settings": ({ body }) => {
      const answer = put?.(body as NotificationSettings);
      if (answer) return answer;
      saved = body as NotificationSettings;
      return { body: saved };
    },
  });
  vi.stubGlobal("fetch", stub.fetchStub);
  renderWithApp(<NotificationSettingsCard userId="me-1" role={role} />);
  const puts = () => stub.calls.filter((call) => call.method === "PUT").map((call) => call.body);
  return { puts, user: userEvent.setup() };
}

beforeEach(() => localStorage.clear());

describe("NotificationSettingsCard", () => {
  it("offers a user every e-mail type but new tickets, with their saved choices", async () => {
    setup("user");
    const card = await screen.findByRole("region", { name: "Notifications" });
    const boxes = await within(card).findAllByRole("checkbox");
    expect(boxes.map((box) => box.parentElement?.textContent)).toEqual([
      "Comments on my tickets",
      "Status changes on my tickets",
      "My ticket was assigned",
      "Feedback on tickets I handled",
      "Corrections to my tickets' details",
      "My resolved tickets closed automatically",
      "My tickets on hold resolved automatically",
    ]);
    expect(boxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);
  });

  it("offers a technician the service-level e-mails, which a user is never offered", async () => {
    setup("technician");
    for (const name of [
      "A service-level target is due soon (staff)",
      "A service-level target was missed (staff)",
      "A ticket I handle is no longer on hold (staff)",
    ])
      expect(await screen.findByRole("checkbox", { name })).toBeInTheDocument();
  });

  it("lets a technician choose new tickets by e-mail and saves the choice", async () => {
    const { puts, user } = setup("technician");
    const newTickets = await screen.findByRole("checkbox", { name: "New tickets (technicians)" });
    expect(newTickets).not.toBeChecked();
    await user.click(newTickets);
    await vi.waitFor(() =>
      expect(puts()).toEqual([{ emailTypes: ["new_ticket", ...defaults.emailTypes], soundsMuted: false }]),
    );
    expect(await screen.findByRole("checkbox", { name: "New tickets (technicians)" })).toBeChecked();
  });

  it("turns an e-mail type off", async () => {
    const { puts, user } = setup("user");
    await user.click(await screen.findByRole("checkbox", { name: "Comments on my tickets" }));
    await vi.waitFor(() =>
      expect(puts()).toEqual([
        {
          emailTypes: [
            "ticket_status",
            "ticket_assigned",
            "ticket_feedback",
            "ticket_edited",
            "ticket_auto_closed",
            "ticket_auto_resolved",
          ],
          soundsMuted: false,
        },
      ]),
    );
  });

  it("mutes notification sounds on the server and in this browser", async () => {
    const { puts, user } = setup("user");
    const mute = await screen.findByRole("switch", { name: "Mute notification sounds" });
    expect(mute).toHaveAttribute("aria-checked", "false");
    await user.click(mute);
    await vi.waitFor(() => expect(puts()).toEqual([{ ...defaults, soundsMuted: true }]));
    await vi.waitFor(() => expect(localStorage.getItem("helpdesk:sounds-muted:me-1")).toBe("true"));
    expect(screen.getByRole("switch", { name: "Mute notification sounds" })).toHaveAttribute(
      "aria-checked",
      "true",
    );
  });

  it("shows the server's refusal and keeps what was saved", async () => {
    const { user } = setup("user", () => ({
      status: 400,
      body: { code: "validation_failed", message: "Only technicians receive new tickets" },
    }));
    await user.click(await screen.findByRole("switch", { name: "Mute notification sounds" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Only technicians receive new tickets");
    expect(screen.getByRole("switch", { name: "Mute notification sounds" })).toHaveAttribute(
      "aria-checked",
      "false",
    );
    expect(localStorage.getItem("helpdesk:sounds-muted:me-1")).toBeNull();
  });
});
