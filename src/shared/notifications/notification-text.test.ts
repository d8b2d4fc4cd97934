import { describe, expect, it } from "vitest";
import { notificationTitleLength, shortTicketTitle } from "./notification-text.ts";

describe("shortTicketTitle", () => {
  it("keeps a title that fits, on one line", () => {
    expect(shortTicketTitle("Printer jams")).toBe("Printer jams");
    expect(shortTicketTitle("  Printer\n  jams  ")).toBe("Printer jams");
  });

  it("cuts a long title at a word, with an ellipsis, within the length", () => {
    const short = shortTicketTitle(
      "The colour printer on the third floor prints every page twice and then jams on the last one",
    );
    expect(short).toBe("The colour printer on the third floor prints every page…");
    expect(short.length).toBeLessThanOrEqual(notificationTitleLength);
  });

  it("cuts inside a word when the title has no space early enough", () => {
    const short = shortTicketTitle(`Error ${"X".repeat(100)}`);
    expect(short).toBe(`Error ${"X".repeat(notificationTitleLength - 7)}…`);
    expect(short.length).toBe(notificationTitleLength);
  });
});
