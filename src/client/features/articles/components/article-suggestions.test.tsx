import { useQuery } from "@tanstack/react-query";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import { articleSuggestionsQuery } from "#client/features/articles/articles.api.ts";
import UserHomePage from "#client/pages/user-home.tsx";
import { emptyPage, emptySummary, makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { ArticleSummary } from "#shared/articles/article.schemas.ts";

const vpn: ArticleSummary = {
  id: 7,
  slug: "connect-to-the-vpn-7",
  title: "Connect to the VPN",
  category: "Network",
  tags: ["vpn"],
  status: "published",
  visibility: "public",
  views: 3,
  updatedAt: "2026-11-20T09:30:00.000Z",
};

function setup(beside: ReactNode = null) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ name: "Uma User" }) },
    "GET /api/tickets": { body: emptyPage },
    "GET /api/tickets/summary": { body: emptySummary },
    "GET /api/departments": { body: { departments: ["General"] } },
    "GET /api/articles/suggestions": (request) => ({
      body: { items: request.url.toLowerCase().includes("vpn") ? [vpn] : [] },
    }),
    "POST /api/articles/7/suggestion-opens": { body: { ok: true } },
    "POST /api/articles/deflections": { body: { deflections: 1 } },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <>
      <UserHomePage />
      {beside}
    </>,
    { routes: { "/kb/:slug": <p>The article</p> } },
  );
  return Object.assign(userEvent.setup(), { calls: server.calls });
}

/**
 * Says when the form's suggestions for `q` have answered, without asking for them itself: the form reads
 * the same query and renders in the same commit, so an absence seen after this is the answer's.
 */
function SuggestionsAnswered({ q }: { q: string }) {
  const { data } = useQuery({ ...articleSuggestionsQuery(q), enabled: false });
  return data ? <p>Suggestions answered</p> : null;
}

const posts = (calls: { method: string; url: string; body: unknown }[]) =>
  calls.filter((call) => call.method === "POST").map((call) => ({ url: call.url, body: call.body }));

describe("article suggestions on the create form", () => {
  it("suggests matching articles while the title is typed; opening one and leaving reports a deflection for that visit", async () => {
    const user = setup();
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    await user.type(await screen.findByLabelText("Title"), "vpn keeps dropping");
    const suggestions = await screen.findByRole("region", { name: "Suggested articles" });
    expect(suggestions).toHaveTextContent("Connect to the VPN");

    await user.click(screen.getByRole("link", { name: "Connect to the VPN" }));
    expect(await screen.findByText("The article")).toBeInTheDocument();
    await waitFor(() => expect(posts(user.calls)).toHaveLength(2));
    const [opened, left] = posts(user.calls);
    expect(opened!.url).toBe("/api/articles/7/suggestion-opens");
    expect(left!.url).toBe("/api/articles/deflections");
    // The same form visit: the server pairs the two.
    expect((left!.body as { formVisit: string }).formVisit).toBe(
      (opened!.body as { formVisit: string }).formVisit,
    );
  });

  it("reports nothing when the form is closed without opening a suggestion", async () => {
    const user = setup();
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    await user.type(await screen.findByLabelText("Title"), "vpn");
    await screen.findByRole("region", { name: "Suggested articles" });
    await user.click(screen.getByRole("button", { name: "Hide Form" }));
    expect(screen.queryByRole("region", { name: "Suggested articles" })).not.toBeInTheDocument();
    expect(posts(user.calls)).toEqual([]);
  });

  it("shows nothing for a title that matches no article", async () => {
    const user = setup(<SuggestionsAnswered q="printer jams" />);
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    await user.type(await screen.findByLabelText("Title"), "printer jams");
    await screen.findByText("Suggestions answered");
    expect(screen.queryByRole("region", { name: "Suggested articles" })).not.toBeInTheDocument();
  });
});
