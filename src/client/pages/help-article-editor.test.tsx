import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeActivity, makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch, waitForActor } from "#client/test/render.tsx";
import HelpArticleEditorPage from "./help-article-editor.tsx";
import TicketPage from "./ticket.tsx";

const technician = makeMe({ id: "tech-1", name: "Theo Tech", role: "technician" });

describe("an article from a solved ticket", () => {
  it("offers Create article to staff on a Resolved ticket and opens the editor prefilled from it", async () => {
    const ticket = makeTicket({
      status: "Resolved",
      assignedTo: "tech-1",
      title: "Outlook asks for the password",
    });
    const server = stubFetch({
      "GET /api/me": { body: technician },
      [`GET /api/tickets/${ticket.ticketId}`]: { body: ticket },
      [`GET /api/tickets/${ticket.ticketId}/activity`]: { body: makeActivity() },
      [`GET /api/articles/from-ticket/${ticket.ticketId}`]: {
        body: {
          title: "Outlook asks for the password",
          category: "Software",
          body: "## Problem\n\nOutlook asks.\n\n## Solution\n\nRemoved the old credential.",
        },
      },
      "POST /api/articles": { status: 201, body: { id: 4, slug: "outlook-asks-for-the-password-4" } },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<p>Elsewhere</p>, {
      path: `/tickets/${ticket.ticketId}`,
      routes: {
        "/tickets/:ticketId": <TicketPage />,
        "/kb/new": <HelpArticleEditorPage />,
        "/kb/:slug": <p>Saved article</p>,
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("link", { name: "Create article" }));
    expect(await screen.findByLabelText("Title")).toHaveValue("Outlook asks for the password");
    expect(screen.getByLabelText("Category")).toHaveValue("Software");
    expect(screen.getByLabelText("Text (Markdown)")).toHaveValue(
      "## Problem\n\nOutlook asks.\n\n## Solution\n\nRemoved the old credential.",
    );
    await user.click(screen.getByRole("button", { name: "Save article" }));
    expect(await screen.findByText("Saved article")).toBeInTheDocument();
    const saved = server.calls.find((call) => call.method === "POST");
    expect(saved?.body).toMatchObject({ title: "Outlook asks for the password", status: "draft", tags: [] });
  });

  it("is not offered on a ticket still in progress, nor to the user who raised it", async () => {
    for (const [me, status] of [
      [technician, "In Progress"],
      [makeMe({ id: "user-1", role: "user" }), "Resolved"],
    ] as const) {
      const ticket = makeTicket({ status, assignedTo: "tech-1", createdBy: "user-1" });
      const server = stubFetch({
        "GET /api/me": { body: me },
        [`GET /api/tickets/${ticket.ticketId}`]: { body: ticket },
        [`GET /api/tickets/${ticket.ticketId}/activity`]: { body: makeActivity() },
      });
      vi.stubGlobal("fetch", server.fetchStub);
      const { unmount } = renderWithApp(<p>Elsewhere</p>, {
        path: `/tickets/${ticket.ticketId}`,
        routes: { "/tickets/:ticketId": <TicketPage /> },
        showActor: true,
      });
      expect(await screen.findByRole("heading", { level: 1 })).toBeInTheDocument();
      await waitForActor(me);
      expect(screen.queryByRole("link", { name: "Create article" })).not.toBeInTheDocument();
      unmount();
    }
  });
});
