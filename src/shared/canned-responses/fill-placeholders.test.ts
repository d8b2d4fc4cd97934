import { describe, expect, it } from "vitest";
import {
  fillPlaceholders,
  type PlaceholderContext,
  placeholders,
  unknownPlaceholders,
} from "./fill-placeholders.ts";

const context: PlaceholderContext = {
  ticket: {
    ticketId: "TKT0M5ABCDEF12345678",
    title: "Printer jams",
    status: "In Progress",
    priority: "High",
    category: "Hardware",
  },
  creatorName: "Uma Lopez Garcia",
  agentName: "Theo Tech",
};

describe("fillPlaceholders", () => {
  it("fills the ticket's id, title, status, priority and category", () => {
    expect(
      fillPlaceholders(
        "{{ticket.id}} {{ticket.title}} {{ticket.status}} {{ticket.priority}} {{ticket.category}}",
        context,
      ),
    ).toBe("TKT0M5ABCDEF12345678 Printer jams In Progress High Hardware");
  });

  it("fills the creator's and the replying person's full and first names", () => {
    expect(
      fillPlaceholders(
        "Hi {{creator.firstName}} ({{creator.name}}), {{agent.firstName}} / {{agent.name}}",
        context,
      ),
    ).toBe("Hi Uma (Uma Lopez Garcia), Theo / Theo Tech");
  });

  it("accepts spaces inside the braces and fills a placeholder each time it appears", () => {
    expect(fillPlaceholders("{{ ticket.id }} and {{ticket.id}}", context)).toBe(
      "TKT0M5ABCDEF12345678 and TKT0M5ABCDEF12345678",
    );
  });

  it("leaves unknown placeholders as written", () => {
    expect(fillPlaceholders("Dear {{creator.surname}}, see {{ticket.id}}", context)).toBe(
      "Dear {{creator.surname}}, see TKT0M5ABCDEF12345678",
    );
  });

  it("leaves a placeholder as written when the ticket has no value for it (a creator with no name)", () => {
    expect(fillPlaceholders("Hi {{creator.firstName}}", { ...context, creatorName: null })).toBe(
      "Hi {{creator.firstName}}",
    );
  });

  it("inserts values literally, even when they look like placeholders or replacement patterns", () => {
    const tricky = { ...context, ticket: { ...context.ticket, title: "$& {{agent.name}} $1" } };
    expect(fillPlaceholders("Re: {{ticket.title}}", tricky)).toBe("Re: $& {{agent.name}} $1");
  });

  it("keeps text without placeholders, single braces and line breaks unchanged", () => {
    const text = "Line one {not a placeholder}\n\nLine {{ two";
    expect(fillPlaceholders(text, context)).toBe(text);
  });

  it("knows every placeholder it documents", () => {
    const all = placeholders.map((p) => `{{${p.name}}}`).join(" ");
    expect(fillPlaceholders(all, context)).not.toContain("{{");
  });
});

describe("unknownPlaceholders", () => {
  it("names each unknown placeholder once, in order", () => {
    expect(unknownPlaceholders("{{ticket.idd}} {{ticket.id}} {{agent}} {{ticket.idd}}")).toEqual([
      "ticket.idd",
      "agent",
    ]);
  });

  it("finds none in text that uses only known placeholders", () => {
    expect(unknownPlaceholders("Hi {{creator.firstName}}, about {{ ticket.title }}")).toEqual([]);
  });
});
