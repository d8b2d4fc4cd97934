import { describe, expect, it } from "vitest";
import type { Actor, TicketFacts } from "#shared/permissions.ts";
import { statusChangeRefusal, statusTargets, takesTicket } from "./ticket-status.ts";

const technician: Actor = { id: "t1", role: "technician" };
const admin: Actor = { id: "a1", role: "admin" };
const user: Actor = { id: "u1", role: "user" };
const ticket = (facts: Partial<TicketFacts>): TicketFacts => ({
  createdBy: "u1",
  assignedTo: null,
  status: "Open",
  ...facts,
});

describe("statusTargets", () => {
  it("keeps the status rules for an assigned ticket: the other statuses, nothing once Closed", () => {
    expect(statusTargets(admin, ticket({ assignedTo: "t1", status: "In Progress" }))).toEqual([
      "Resolved",
      "Closed",
    ]);
    expect(statusTargets(technician, ticket({ assignedTo: "t1", status: "Resolved" }))).toEqual([
      "In Progress",
      "Closed",
    ]);
    expect(statusTargets(admin, ticket({ assignedTo: "t1", status: "Closed" }))).toEqual([]);
  });

  it("never offers In Progress on an unassigned ticket to an administrator, who could not assign it after", () => {
    expect(statusTargets(admin, ticket({ status: "Open" }))).toEqual(["Resolved", "Closed"]);
    expect(statusTargets(admin, ticket({ status: "Resolved" }))).toEqual(["Closed"]);
    expect(statusChangeRefusal(admin, ticket({}), "In Progress")).toBe(
      "An unassigned ticket goes In Progress when a technician takes it (Assign to Me).",
    );
  });

  it("offers a technician In Progress on an unassigned ticket, which they then take", () => {
    expect(statusTargets(technician, ticket({ status: "Open" }))).toEqual([
      "In Progress",
      "Resolved",
      "Closed",
    ]);
    expect(takesTicket(technician, ticket({}), "In Progress")).toBe(true);
    expect(takesTicket(technician, ticket({}), "Resolved")).toBe(false);
    expect(takesTicket(technician, ticket({ assignedTo: "t1", status: "Resolved" }), "In Progress")).toBe(
      false,
    );
  });

  it("offers a user nothing", () => {
    expect(statusTargets(user, ticket({ status: "Open" }))).toEqual([]);
  });
});
