import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { KnownIssueSummary } from "#shared/major-incidents/major-incident.schemas.ts";
import { KnownIssuesNotice } from "./known-issues-notice.tsx";

const issue: KnownIssueSummary = {
  ticketId: "TKT0M5ABCDEF1234567",
  headline: "VPN unavailable — we are working on it",
  status: "In Progress",
  declaredAt: "2026-11-30T09:00:00.000Z",
  following: false,
};

describe("KnownIssuesNotice", () => {
  it("offers each open known issue to follow instead, then says it is followed and links to it", async () => {
    let following = false;
    const server = stubFetch({
      "GET /api/known-issues": () => ({ body: { items: [{ ...issue, following }] } }),
      [`PUT /api/known-issues/${issue.ticketId}/follow`]: () => {
        following = true;
        return { body: { following: true } };
      },
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<KnownIssuesNotice />);
    const section = await screen.findByRole("region", { name: "Known issues" });
    expect(section).toHaveTextContent(`Known issue: ${issue.headline} — In Progress`);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: `Follow instead: ${issue.headline}` }));
    expect(
      await screen.findByText(/You are following this known issue; you will be told of updates\./),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See the known issue" })).toHaveAttribute(
      "href",
      `/known-issues/${issue.ticketId}`,
    );
  });

  it("shows nothing when there is no open known issue", async () => {
    const server = stubFetch({ "GET /api/known-issues": { body: { items: [] } } });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<KnownIssuesNotice />);
    await vi.waitFor(() => expect(server.calls.length).toBe(1));
    expect(screen.queryByRole("region", { name: "Known issues" })).toBeNull();
  });
});
