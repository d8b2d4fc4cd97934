import { describe, expect, it } from "vitest";
import { chooseAssignee } from "./team-assignment.ts";

describe("chooseAssignee", () => {
  const members = ["u_c", "u_a", "u_b"];

  it("round robin takes the member after the last one in id order, and goes round", () => {
    expect(chooseAssignee("round_robin", members, null)).toBe("u_a");
    expect(chooseAssignee("round_robin", members, "u_a")).toBe("u_b");
    expect(chooseAssignee("round_robin", members, "u_b")).toBe("u_c");
    expect(chooseAssignee("round_robin", members, "u_c")).toBe("u_a");
  });

  it("keeps the place of a last one who left or is away: the next in id order follows", () => {
    expect(chooseAssignee("round_robin", ["u_a", "u_c"], "u_b")).toBe("u_c");
    expect(chooseAssignee("round_robin", ["u_a"], "u_b")).toBe("u_a");
  });

  it("least open takes the fewest open tickets, ties in round robin's turn", () => {
    const open = new Map([
      ["u_a", 3],
      ["u_b", 1],
      ["u_c", 1],
    ]);
    expect(chooseAssignee("least_open", members, null, open)).toBe("u_b");
    expect(chooseAssignee("least_open", members, "u_b", open)).toBe("u_c");
    expect(chooseAssignee("least_open", members, "u_c", open)).toBe("u_b");
    // Nobody counted yet: everyone has none, so it goes in turn.
    expect(chooseAssignee("least_open", members, "u_a")).toBe("u_b");
  });

  it("gives nobody a ticket when no member may get one", () => {
    expect(chooseAssignee("round_robin", [], "u_a")).toBeNull();
    expect(chooseAssignee("least_open", [], null)).toBeNull();
  });
});
