import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeActivity, makeEvent, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Macro, MacroPreview, MacroStep } from "#shared/macros/macro.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import TicketPage from "./ticket.tsx";

// Decision 075 on the ticket page: one timeline entry per macro application, and Apply macro's preview.

const ticketId = "TKT0M5ABCDEF1234567";
const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });
const requester = makeMe({ id: "user-1", name: "Ada Lovelace", role: "user" });
const macroId = "mac_00000000-0000-4000-8000-000000000001";
const via = { kind: "macro" as const, id: macroId, name: "VPN known issue", batchId: "mab_1" };

const macro: Macro = {
  id: macroId,
  title: "VPN known issue",
  body: "Known VPN issue.",
  replyVisibility: "public",
  actions: { status: "Resolved", addTags: ["vpn"] },
  scope: "shared",
  ownerId: "admin-1",
  ownerName: "Ada Admin",
  createdAt: "2025-11-20T09:00:00.000Z",
  updatedAt: "2025-11-20T09:00:00.000Z",
};
const step = (overrides: Partial<MacroStep>): MacroStep => ({
  kind: "status",
  outcome: "change",
  from: null,
  to: null,
  tagsAdded: [],
  tagsRemoved: [],
  visibility: null,
  reason: null,
  ...overrides,
});

function setup(me: Me, routes: Parameters<typeof stubFetch>[0]) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    [`GET /api/tickets/${ticketId}`]: {
      body: makeTicket({ status: "In Progress", assignedTo: "tech-1", assignedToName: "Theo Tech" }),
    },
    [`GET /api/tickets/${ticketId}/activity`]: { body: makeActivity() },
    ...routes,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<p>Elsewhere</p>, {
    path: `/tickets/${ticketId}`,
    routes: { "/tickets/:ticketId": <TicketPage /> },
  });
  return { server, user: userEvent.setup() };
}

describe("a macro on the ticket page", () => {
  it("shows the events of one application as one entry naming the macro", async () => {
    setup(technician, {
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          events: [
            makeEvent({ id: "e1", type: "created" }),
            makeEvent({
              id: "e2",
              type: "tags_changed",
              actorName: "Theo Tech",
              tagsAdded: ["vpn"],
              tagsRemoved: [],
              via,
            }),
            makeEvent({
              id: "e3",
              type: "commented",
              actorName: "Theo Tech",
              message: "Known VPN issue.",
              via,
            }),
            makeEvent({
              id: "e4",
              type: "status_changed",
              actorName: "Theo Tech",
              fromStatus: "In Progress",
              toStatus: "Resolved",
              via,
            }),
          ],
        }),
      },
    });
    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    const entries = within(timeline)
      .getAllByRole("listitem")
      .filter((item) => item.parentElement === timeline);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toHaveTextContent("Theo Tech applied the macro “VPN known issue”");
    expect(entries[1]).toHaveTextContent("added vpn");
    expect(entries[1]).toHaveTextContent("“Known VPN issue.”");
    expect(entries[1]).toHaveTextContent("In Progress → Resolved");
  });

  it("names an automation rule's changes as the rule's, with no person (decision 076)", async () => {
    const ruleVia = {
      kind: "rule" as const,
      id: "ar_0123456789abcdef",
      name: "VPN to Network",
      batchId: "arb_1",
    };
    setup(technician, {
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          events: [
            makeEvent({ id: "e1", type: "created" }),
            makeEvent({
              id: "e2",
              type: "tags_changed",
              actorName: null,
              tagsAdded: ["vpn"],
              tagsRemoved: [],
              via: ruleVia,
            }),
            makeEvent({ id: "e3", type: "edited", actorName: null, via: ruleVia }),
          ],
        }),
      },
    });
    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    const entries = within(timeline)
      .getAllByRole("listitem")
      .filter((item) => item.parentElement === timeline);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toHaveTextContent("The automation rule “VPN to Network” changed the ticket");
    expect(entries[1]).toHaveTextContent("added vpn");
    expect(entries[1]).not.toHaveTextContent("applied the macro");
  });

  it("says whom a rule told, and why a refused rule changed nothing (decision 076)", async () => {
    const via = (batchId: string) => ({
      kind: "rule" as const,
      id: "ar_0123456789abcdef",
      name: "Give to Lee",
      batchId,
    });
    setup(technician, {
      [`GET /api/tickets/${ticketId}/activity`]: {
        body: makeActivity({
          events: [
            makeEvent({ id: "e1", type: "created" }),
            makeEvent({
              id: "e2",
              type: "rule_notified",
              actorName: null,
              message: "Tess Tech, Network",
              via: via("arb_1"),
            }),
            makeEvent({
              id: "e3",
              type: "rule_refused",
              actorName: null,
              message: "Assignee: Lee Leaving is not an active technician.",
              via: via("arb_2"),
            }),
          ],
        }),
      },
    });
    const timeline = await screen.findByRole("list", { name: "Ticket activity" });
    const entries = within(timeline)
      .getAllByRole("listitem")
      .filter((item) => item.parentElement === timeline);
    expect(entries).toHaveLength(3);
    expect(entries[1]).toHaveTextContent("The automation rule “Give to Lee” asked for attention");
    expect(entries[1]).toHaveTextContent("notified Tess Tech, Network");
    expect(entries[2]).toHaveTextContent(
      "The automation rule “Give to Lee” could not change the ticket; its changes were undone",
    );
    expect(entries[2]).toHaveTextContent("Assignee: Lee Leaving is not an active technician.");
  });

  it("previews what the macro will do, says what is refused and why, and applies only what may be applied", async () => {
    const preview = (canApply: boolean): MacroPreview => ({
      macroId,
      title: macro.title,
      canApply,
      steps: [
        step({ kind: "tags", tagsAdded: ["vpn"] }),
        step({ kind: "reply", to: "Known VPN issue.", visibility: "public" }),
        canApply
          ? step({ kind: "status", from: "In Progress", to: "Resolved" })
          : step({ kind: "team", outcome: "refused", to: "Network", reason: "This ticket is closed." }),
      ],
    });
    let canApply = false;
    const { server, user } = setup(technician, {
      "GET /api/macros": { body: { items: [macro] } },
      [`GET /api/tickets/${ticketId}/macros/${macroId}/preview`]: () => ({ body: preview(canApply) }),
      [`POST /api/tickets/${ticketId}/macros/${macroId}/apply`]: {
        body: { ticket: makeTicket({ status: "Resolved" }), steps: preview(true).steps },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Apply macro" }));
    const dialog = await screen.findByRole("dialog", { name: "Apply a macro" });
    await user.selectOptions(await within(dialog).findByLabelText("Macro"), "VPN known issue");
    const plan = await within(dialog).findByRole("region", { name: "What it will do" });
    expect(plan).toHaveTextContent("Tags: + vpn");
    expect(plan).toHaveTextContent("Public reply: Known VPN issue.");
    expect(plan).toHaveTextContent("Team: none → Network");
    expect(plan).toHaveTextContent("Refused: This ticket is closed.");
    expect(within(dialog).getByRole("button", { name: "Apply" })).toBeDisabled();

    canApply = true;
    await user.selectOptions(within(dialog).getByLabelText("Macro"), "");
    await user.selectOptions(within(dialog).getByLabelText("Macro"), "VPN known issue");
    expect(await within(dialog).findByText("Status: In Progress → Resolved")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Apply a macro" })).toBeNull());
    expect(
      server.calls
        .filter((call) => call.method === "POST")
        .map((call) => new URL(call.url, "http://x").pathname),
    ).toEqual([`/api/tickets/${ticketId}/macros/${macroId}/apply`]);
  });

  it("offers no macros to the requester", async () => {
    setup(requester, {});
    expect(await screen.findByRole("region", { name: /Comments/ })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Apply macro" })).toBeNull();
  });
});
