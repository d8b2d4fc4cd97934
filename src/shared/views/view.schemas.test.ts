import { describe, expect, it } from "vitest";
import { normalizeViewQuery, parseViewQuery, viewInputSchema } from "./view.schemas.ts";

describe("saved views' queries (decision 071)", () => {
  it("keeps the list's own parameters in one order, without paging or unknown ones", () => {
    expect(normalizeViewQuery("?sort=priority&unknown=1&status=Open&cursor=x&limit=5&cf=a:1&cf=b:2")).toBe(
      "status=Open&cf=a%3A1&cf=b%3A2&sort=priority",
    );
    expect(normalizeViewQuery("")).toBe("");
  });

  it("checks a query against the list's request schema", () => {
    expect(parseViewQuery("status=Open&tag=VPN").success).toBe(true);
    expect(parseViewQuery("status=Lost").success).toBe(false);
    const parsed = parseViewQuery("cf=a:1&cf=b:2");
    expect(parsed.success && parsed.data.cf).toEqual(["a:1", "b:2"]);
  });

  it("refuses a team sharing without a team, and a team named on another sharing", () => {
    expect(viewInputSchema.safeParse({ name: "A", sharing: "team" }).success).toBe(false);
    expect(viewInputSchema.safeParse({ name: "A", teamId: "team_x" }).success).toBe(false);
    expect(viewInputSchema.parse({ name: " A " })).toEqual({
      name: "A",
      query: "",
      sharing: "personal",
      teamId: null,
    });
  });
});
