import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { makeEvent } from "#client/test/fixtures.ts";
import { renderWithApp } from "#client/test/render.tsx";
import type { TicketEvent } from "#shared/tickets/ticket-activity.schemas.ts";
import { LinkSummary } from "./ticket-link-summary.tsx";

const other = "TKT0M5ABCDEF7654321";

function sentence(event: Partial<TicketEvent>) {
  const { unmount } = renderWithApp(
    <p data-testid="entry">
      <LinkSummary event={makeEvent({ linkedTicketId: other, ...event })} />
    </p>,
  );
  const text = screen.getByTestId("entry").textContent;
  const link = screen.queryByRole("link", { name: other });
  const answer = { text, href: link?.getAttribute("href") ?? null };
  unmount();
  return answer;
}

describe("LinkSummary (decision 074)", () => {
  it("says each relation as this ticket reads it, with a link to the other ticket", () => {
    const href = `/tickets/${other}`;
    expect(sentence({ type: "linked", linkRelation: "related" })).toEqual({
      text: `linked it to ${other} as related`,
      href,
    });
    expect(sentence({ type: "linked", linkRelation: "duplicate_of" }).text).toBe(
      `marked it a duplicate of ${other}`,
    );
    expect(sentence({ type: "linked", linkRelation: "has_duplicate" }).text).toBe(
      `marked ${other} a duplicate of it`,
    );
    expect(sentence({ type: "linked", linkRelation: "parent" }).text).toBe(`made ${other} its parent`);
    expect(sentence({ type: "linked", linkRelation: "child" }).text).toBe(`made ${other} its child`);
    // Decision 077: a major incident's affected tickets, from both sides.
    expect(sentence({ type: "linked", linkRelation: "affected_by" }).text).toBe(
      `marked it affected by the major incident ${other}`,
    );
    expect(sentence({ type: "linked", linkRelation: "affects" }).text).toBe(
      `marked ${other} affected by this major incident`,
    );
    expect(sentence({ type: "unlinked", linkRelation: "child" })).toEqual({
      text: `removed the link to ${other}`,
      href,
    });
    expect(sentence({ type: "merged_in" })).toEqual({ text: `merged ${other} into it`, href });
  });

  it("names the target of a merge by its number only: the banner links to it when the reader may open it", () => {
    expect(sentence({ type: "merged" })).toEqual({ text: `merged it into ${other}`, href: null });
  });
});
