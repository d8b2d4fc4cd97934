import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { MentionAutocomplete } from "#client/features/mentions/components/mention-autocomplete.tsx";
import { AddCommentForm } from "#client/features/tickets/components/add-comment-form.tsx";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";

// The page composes the two; so does this test.
const ticketId = "TKT0M5ABCDEF1234567";
const staff = [
  { id: "usr_tina", name: "Tina Park", role: "technician" },
  { id: "usr_tim", name: "Tim Berg", role: "admin" },
];

function setup() {
  const server = stubFetch({
    "GET /api/staff": (request) => {
      const q = new URL(request.url, "http://localhost").searchParams.get("q") ?? "";
      return { body: staff.filter((p) => p.name.toLowerCase().includes(q.toLowerCase())) };
    },
    [`POST /api/tickets/${ticketId}/comments`]: (request) => ({
      status: 201,
      body: {
        commentId: "CMT1",
        ticketId,
        authorId: "usr_me",
        authorName: "Me",
        message: (request.body as { message: string }).message,
        isInternal: false,
        timestamp: "2025-11-20T10:00:00.000Z",
        mentions: {
          notified: [],
          notNotified: [{ userId: "usr_tim", name: "Tim Berg", reason: "cannot_see_ticket" }],
        },
      },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <AddCommentForm ticketId={ticketId} textareaAddon={(props) => <MentionAutocomplete {...props} />} />,
  );
  return { user: userEvent.setup(), server };
}

describe("MentionAutocomplete", () => {
  it("offers staff after @, moves with the arrows and inserts the chosen person with Enter", async () => {
    const { user } = setup();
    const box = screen.getByRole("combobox", { name: "Add a comment" });
    await user.type(box, "Ask @ti");
    expect(await screen.findByRole("option", { name: /Tina Park/ })).toHaveAttribute("aria-selected", "true");
    expect(box).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{ArrowDown}");
    expect(screen.getByRole("option", { name: /Tim Berg/ })).toHaveAttribute("aria-selected", "true");
    expect(box).toHaveAttribute("aria-activedescendant", screen.getByRole("option", { name: /Tim Berg/ }).id);
    await user.keyboard("{Enter}");
    expect(box).toHaveValue("Ask @[Tim Berg](usr_tim) ");
    expect(screen.queryByRole("option")).not.toBeInTheDocument();
  });

  it("closes on Escape without inserting, and keeps Enter a new line", async () => {
    const { user } = setup();
    const box = screen.getByRole("combobox", { name: "Add a comment" });
    await user.type(box, "@tin");
    await screen.findByRole("option", { name: /Tina Park/ });
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("option")).not.toBeInTheDocument();
    await user.keyboard("{Enter}x");
    expect(box).toHaveValue("@tin\nx");
  });

  it("tells the author which mentions notified nobody, and why", async () => {
    const { user } = setup();
    const box = screen.getByRole("combobox", { name: "Add a comment" });
    await user.type(box, "@tim");
    await screen.findByRole("option", { name: /Tim Berg/ });
    await user.keyboard("{Enter}");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));
    // The form's own status line (the success toast is a status too).
    const notice = await screen.findByText(
      "Saved, but not notified: @Tim Berg (they cannot see this ticket).",
    );
    expect(notice).toHaveAttribute("role", "status");
  });
});
