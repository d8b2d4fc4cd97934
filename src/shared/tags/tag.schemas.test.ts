import { describe, expect, it } from "vitest";
import { changeTicketTagsInputSchema, normalizeTag, tagSchema, tagSettingsSchema } from "./tag.schemas.ts";

describe("tags (decision 071)", () => {
  it("stores and compares a tag in one form: trimmed, inner spaces as one, lowercase", () => {
    expect(normalizeTag("  New   Starter ")).toBe("new starter");
    expect(tagSchema.parse("VPN")).toBe("vpn");
    expect(tagSchema.parse("Ünïcode Straße")).toBe("ünïcode straße");
  });

  it("refuses an empty tag, one over 40 characters, a comma and control characters", () => {
    for (const bad of ["", "   ", "x".repeat(41), "a,b", "tab\u0007"]) {
      expect(tagSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(tagSchema.safeParse("x".repeat(40)).success).toBe(true);
  });

  it("adds and removes each tag once, never the same tag both ways, at most 20 a call", () => {
    expect(changeTicketTagsInputSchema.parse({ add: ["VPN", "vpn "] })).toEqual({ add: ["vpn"], remove: [] });
    expect(changeTicketTagsInputSchema.safeParse({ add: ["vpn"], remove: ["VPN"] }).success).toBe(false);
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(changeTicketTagsInputSchema.safeParse({ add: many }).success).toBe(false);
  });

  it("keeps the fixed list normalised and without repeats", () => {
    expect(tagSettingsSchema.parse({ fixed: true, allowed: ["Printer", "printer", " VPN"] })).toEqual({
      fixed: true,
      allowed: ["printer", "vpn"],
    });
  });
});
