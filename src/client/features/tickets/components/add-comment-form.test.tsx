import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "../../../test/render.tsx";
import { AddCommentForm } from "./add-comment-form.tsx";

const commentsPath = "POST /api/tickets/TKT0M5ABCDEF1234567/comments";

function setup(answer: { status?: number; body: unknown }, { canAddInternal = false } = {}) {
  const server = stubFetch({ [commentsPath]: answer });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AddCommentForm ticketId="TKT0M5ABCDEF1234567" canAddInternal={canAddInternal} />);
  const posts = () => server.calls.filter((call) => call.method === "POST");
  return { user: userEvent.setup(), posts };
}

const comment = {
  commentId: "CMT1",
  ticketId: "TKT0M5ABCDEF1234567",
  authorId: "user-1",
  authorName: "Ada Lovelace",
  message: "Still broken",
  isInternal: false,
  timestamp: "2025-11-20T10:00:00.000Z",
  mentions: { notified: [], notNotified: [] },
};

describe("AddCommentForm", () => {
  it("keeps Add Comment disabled while the text is empty or only whitespace", async () => {
    const { user, posts } = setup({ status: 201, body: comment });
    const button = screen.getByRole("button", { name: "Add Comment" });
    expect(button).toBeDisabled();

    await user.type(screen.getByLabelText("Add a comment"), "   ");
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText("Add a comment"), "{Enter}\t  ");
    expect(button).toBeDisabled();

    await user.type(screen.getByLabelText("Add a comment"), "x");
    expect(button).toBeEnabled();
    await user.clear(screen.getByLabelText("Add a comment"));
    expect(button).toBeDisabled();
    expect(posts()).toHaveLength(0);
  });

  it("sends the trimmed comment, announces it and empties the box", async () => {
    const { user, posts } = setup({ status: 201, body: comment });
    await user.type(screen.getByLabelText("Add a comment"), "  Still broken  ");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));

    expect(await screen.findByText("Comment added successfully")).toBeInTheDocument();
    expect(posts()).toEqual([
      { method: "POST", url: "/api/tickets/TKT0M5ABCDEF1234567/comments", body: { message: "Still broken" } },
    ]);
    expect(screen.getByLabelText("Add a comment")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Add Comment" })).toBeDisabled();
  });

  it("keeps the text and says why when the comment is refused", async () => {
    const { user } = setup({ status: 404, body: { code: "not_found", message: "Ticket not found" } });
    await user.type(screen.getByLabelText("Add a comment"), "Hello?");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));

    expect(await screen.findByText("Failed to add comment")).toBeInTheDocument();
    const form = screen.getByLabelText("Add a comment").closest("form")!;
    expect(within(form).getByRole("alert")).toHaveTextContent("Ticket not found");
    expect(screen.getByLabelText("Add a comment")).toHaveValue("Hello?");
  });

  it("offers no Internal note toggle to a user", () => {
    setup({ status: 201, body: comment });
    expect(screen.queryByRole("checkbox", { name: "Internal note" })).not.toBeInTheDocument();
  });

  it("lets staff send an internal note, says so, and turns the toggle off afterwards", async () => {
    const { user, posts } = setup(
      { status: 201, body: { ...comment, isInternal: true } },
      { canAddInternal: true },
    );
    const toggle = screen.getByRole("checkbox", { name: "Internal note" });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await user.type(screen.getByLabelText("Add an internal note"), "Vendor ticket 4711");
    await user.click(screen.getByRole("button", { name: "Add Internal Note" }));

    expect(await screen.findByText("Internal note added")).toBeInTheDocument();
    expect(posts()).toEqual([
      {
        method: "POST",
        url: "/api/tickets/TKT0M5ABCDEF1234567/comments",
        body: { message: "Vendor ticket 4711", isInternal: true },
      },
    ]);
    expect(screen.getByRole("checkbox", { name: "Internal note" })).not.toBeChecked();
    expect(screen.getByRole("button", { name: "Add Comment" })).toBeDisabled();
  });
});
