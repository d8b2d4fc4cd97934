import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import UnsubscribePage from "./unsubscribe.tsx";

function setup(path: string, answer: { status?: number; body?: unknown }) {
  const stub = stubFetch({ "POST /api/notifications/unsubscribe": answer });
  vi.stubGlobal("fetch", stub.fetchStub);
  renderWithApp(<UnsubscribePage />, { path });
  return { calls: stub.calls, user: userEvent.setup() };
}

describe("UnsubscribePage", () => {
  it("asks first, then turns the e-mails off and says for whom and what", async () => {
    const { calls, user } = setup("/unsubscribe?token=abc.def", {
      body: { email: "ada@example.com", type: "ticket_comment" },
    });
    expect(screen.getByRole("heading", { name: "Stop these e-mails?" })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.click(screen.getByRole("button", { name: "Unsubscribe" }));
    expect(await screen.findByRole("heading", { name: "You are unsubscribed" })).toBeInTheDocument();
    expect(
      screen.getByText(/ada@example.com will no longer receive e-mails for “Comments on my tickets”/),
    ).toBeInTheDocument();
    expect(calls).toEqual([
      { method: "POST", url: "/api/notifications/unsubscribe", body: { token: "abc.def" } },
    ]);
  });

  it("shows the server's message for a link that is not valid", async () => {
    const { user } = setup("/unsubscribe?token=tampered", {
      status: 400,
      body: { code: "validation_failed", message: "This unsubscribe link is not valid." },
    });
    await user.click(screen.getByRole("button", { name: "Unsubscribe" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This unsubscribe link is not valid.");
    expect(screen.queryByRole("heading", { name: "You are unsubscribed" })).not.toBeInTheDocument();
  });

  it("says the link is incomplete when it has no token", () => {
    setup("/unsubscribe", { body: {} });
    expect(screen.getByRole("alert")).toHaveTextContent("This unsubscribe link is incomplete");
    expect(screen.queryByRole("button", { name: "Unsubscribe" })).not.toBeInTheDocument();
  });
});
