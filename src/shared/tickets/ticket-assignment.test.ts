import { describe, expect, it } from "vitest";
import { assignmentRefusal, statusAfterAssignment } from "./ticket-assignment.ts";

describe("statusAfterAssignment (decision 006: In Progress needs an assignee)", () => {
  it.each([
    ["Open", "t1", "In Progress"],
    ["In Progress", "t1", "In Progress"],
    ["Resolved", "t1", "Resolved"],
    ["In Progress", null, "Open"],
    ["Resolved", null, "Resolved"],
  ] as const)("%s given to %s → %s", (status, assigneeId, expected) => {
    expect(statusAfterAssignment(status, assigneeId)).toBe(expected);
  });
});

describe("assignmentRefusal", () => {
  it("refuses only an assignment that changes nothing", () => {
    const ticket = { createdBy: "u1", assignedTo: "t1", status: "In Progress" } as const;
    expect(assignmentRefusal(ticket, "t1")).toBe("This ticket is already assigned to them.");
    expect(assignmentRefusal({ ...ticket, assignedTo: null }, null)).toBe(
      "This ticket is already in the queue.",
    );
    expect(assignmentRefusal(ticket, "t2")).toBeNull();
    expect(assignmentRefusal(ticket, null)).toBeNull();
  });
});
