import { describe, expect, it } from "vitest";
import { createTicketDefaults, createTicketInputSchema, ticketIdPattern } from "./ticket.schemas.ts";

const valid = { ...createTicketDefaults, title: "VPN drops", description: "Every hour", officeNumber: "12" };

describe("createTicketInputSchema", () => {
  it("starts from the spec defaults: Hardware, Low, General, floor 1", () => {
    expect(createTicketDefaults).toMatchObject({
      category: "Hardware",
      priority: "Low",
      department: "General",
      floor: "1",
    });
  });

  it("accepts a complete ticket and trims its text", () => {
    const parsed = createTicketInputSchema.parse({ ...valid, title: "  VPN drops  " });
    expect(parsed.title).toBe("VPN drops");
  });

  it.each(["title", "description", "department", "floor", "officeNumber"] as const)(
    "requires %s, and whitespace does not count",
    (field) => {
      expect(createTicketInputSchema.safeParse({ ...valid, [field]: "   " }).success).toBe(false);
      const { [field]: _omitted, ...rest } = valid;
      expect(createTicketInputSchema.safeParse(rest).success).toBe(false);
    },
  );

  it("refuses a category or priority outside the spec's lists", () => {
    expect(createTicketInputSchema.safeParse({ ...valid, category: "Printer" }).success).toBe(false);
    expect(createTicketInputSchema.safeParse({ ...valid, priority: "Urgent" }).success).toBe(false);
  });

  it("says which field is wrong and why", () => {
    const result = createTicketInputSchema.safeParse({ ...valid, title: 42 });
    expect(result.error?.issues[0]).toMatchObject({ path: ["title"], message: "Title must be text" });
  });
});

describe("ticketIdPattern", () => {
  it("matches TKT, a base-36 timestamp and an 8-character suffix", () => {
    expect(ticketIdPattern.test("TKTMWPZ19CDDW1QOG5J")).toBe(true);
    expect(ticketIdPattern.test("TKT123")).toBe(false);
    expect(ticketIdPattern.test("tktmwpz19cddw1qog5j")).toBe(false);
  });
});
