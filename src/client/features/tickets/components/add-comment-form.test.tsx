import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
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

  it("keeps the writer in the emptied box and says it was sent politely (decision 036)", async () => {
    const { user } = setup({ status: 201, body: comment });
    await user.type(screen.getByLabelText("Add a comment"), "Still broken");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));

    const sent = await screen.findByText("Comment added successfully");
    expect(sent.closest("[role]")).toHaveAttribute("role", "status");
    expect(sent.closest("[aria-live]")).toHaveAttribute("aria-live", "polite");
    // The disabled button would have dropped focus to the page.
    expect(screen.getByLabelText("Add a comment")).toHaveFocus();
  });

  it("sends with Ctrl+Enter from the box, but never a blank comment", async () => {
    const { user, posts } = setup({ status: 201, body: comment });
    await user.type(screen.getByLabelText("Add a comment"), "   {Control>}{Enter}{/Control}");
    expect(posts()).toHaveLength(0);

    await user.type(screen.getByLabelText("Add a comment"), "Still broken{Control>}{Enter}{/Control}");
    expect(await screen.findByText("Comment added successfully")).toBeInTheDocument();
    expect(posts()).toEqual([
      { method: "POST", url: "/api/tickets/TKT0M5ABCDEF1234567/comments", body: { message: "Still broken" } },
    ]);
  });

  it("keeps the text and says why when the comment is refused", async () => {
    const { user } = setup({ status: 404, body: { code: "not_found", message: "Ticket not found" } });
    await user.type(screen.getByLabelText("Add a comment"), "Hello?");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));

    // An error interrupts: an alert, not a status.
    expect((await screen.findByText("Failed to add comment")).closest("[role]")).toHaveAttribute(
      "role",
      "alert",
    );
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

  it("uploads a pasted screenshot at once and sends the comment with it", async () => {
    const server = stubFetch({
      [commentsPath]: { status: 201, body: { ...comment, attachments: [] } },
      "POST /api/attachments": {
        status: 201,
        body: {
          id: "ATT0M5ABCDEF12345678",
          fileName: "screenshot.png",
          contentType: "image/png",
          size: 3,
          isImage: true,
          url: "/api/attachments/ATT0M5ABCDEF12345678",
          previewUrl: "/api/attachments/ATT0M5ABCDEF12345678/preview",
        },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<AddCommentForm ticketId="TKT0M5ABCDEF1234567" />);
    const user = userEvent.setup();
    const box = screen.getByLabelText("Add a comment");
    await user.type(box, "This is what I see");
    const screenshot = new File([new Uint8Array([1, 2, 3])], "image.png", { type: "image/png" });
    fireEvent.paste(box, { clipboardData: { files: [screenshot], types: ["Files"] } });

    const files = await screen.findByRole("list", { name: "Files to send" });
    expect(await within(files).findByLabelText("Uploaded")).toBeInTheDocument();
    expect(within(files).getByText(/^screenshot-.*\.png$/)).toBeInTheDocument();
    expect(box).toHaveValue("This is what I see");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));
    expect(await screen.findByText("Comment added successfully")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.url.endsWith("/comments"))).toEqual([
      {
        method: "POST",
        url: "/api/tickets/TKT0M5ABCDEF1234567/comments",
        body: { message: "This is what I see", attachmentIds: ["ATT0M5ABCDEF12345678"] },
      },
    ]);
    expect(screen.queryByRole("list", { name: "Files to send" })).not.toBeInTheDocument();
  });

  it("shows why the server refused a file and does not send it", async () => {
    const server = stubFetch({
      [commentsPath]: { status: 201, body: { ...comment, attachments: [] } },
      "POST /api/attachments": {
        status: 400,
        body: { code: "validation_failed", message: "The content of cat.png does not match its name." },
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<AddCommentForm ticketId="TKT0M5ABCDEF1234567" />);
    const user = userEvent.setup();
    await user.upload(
      screen.getByLabelText("Attach files"),
      new File(["<html>"], "cat.png", { type: "image/png" }),
    );
    expect(await screen.findByText("The content of cat.png does not match its name.")).toBeInTheDocument();
    await user.type(screen.getByLabelText("Add a comment"), "Hi");
    await user.click(screen.getByRole("button", { name: "Add Comment" }));
    expect(await screen.findByText("Comment added successfully")).toBeInTheDocument();
    expect(server.calls.find((call) => call.url.endsWith("/comments"))?.body).toEqual({ message: "Hi" });
  });

  it("is a form posted to the ticket's page without the app's code, naming itself", () => {
    setup({ status: 201, body: comment });
    const form = screen.getByRole("button", { name: "Add Comment" }).closest("form");
    expect(form).toHaveAttribute("method", "post");
    expect(form).not.toHaveAttribute("action");
    expect(form?.querySelector('input[type="hidden"][name="form"]')).toHaveValue("ticket-comment");
    expect(screen.getByLabelText("Add a comment")).toHaveAttribute("name", "message");
  });

  it("starts from the server's answer to a comment posted without the code: its message at the box", () => {
    setFormAnswer({
      form: "ticket-comment",
      status: 400,
      message: "Comment cannot be empty",
      values: { message: "  " },
      fieldErrors: { message: "Comment cannot be empty" },
    });
    setup({ status: 201, body: comment });
    expect(screen.getByText("Comment cannot be empty")).toBeInTheDocument();
    expect(screen.getByLabelText("Add a comment")).toHaveAttribute("aria-invalid", "true");
  });

  it("says a refused comment failed, with the server's reason, and keeps the text", () => {
    setFormAnswer({
      form: "ticket-comment",
      status: 409,
      message: "This ticket is closed.",
      values: { message: "One more thing" },
    });
    setup({ status: 201, body: comment });
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to add comment: This ticket is closed.");
    expect(screen.getByLabelText("Add a comment")).toHaveValue("One more thing");
  });
});
