import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { ApiToken } from "#shared/api-tokens/api-token.schemas.ts";
import { ApiTokensCard } from "./api-tokens-card.tsx";

const secret = `hd_0123456789abcdef_${"s".repeat(43)}`;
const saved: ApiToken = {
  id: "0123456789abcdef",
  name: "Nightly report",
  prefix: "hd_0123456789abcdef",
  scope: "read",
  createdAt: "2030-01-07T09:00:00.000Z",
  lastUsedAt: null,
  expiresAt: "2030-02-06T09:00:00.000Z",
  revokedAt: null,
};

function setup() {
  let items: ApiToken[] = [];
  const server = stubFetch({
    "GET /api/me/tokens": () => ({ body: { items } }),
    "POST /api/me/tokens": () => {
      items = [saved];
      return { status: 201, body: { ...saved, token: secret } };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<ApiTokensCard />, { path: "/profile" });
  return { server, user: userEvent.setup() };
}

describe("ApiTokensCard", () => {
  it("asks for a name, creates the token, shows it once with the curl example, then lists it without the secret", async () => {
    const { server, user } = setup();
    expect(await screen.findByText("You have no API tokens.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "New token" }));
    const dialog = screen.getByRole("dialog", { name: "New API token" });
    await user.click(within(dialog).getByRole("button", { name: "Create token" }));
    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText("Name"), "Nightly report");
    await user.selectOptions(within(dialog).getByLabelText("Expires after"), "30");
    await user.click(within(dialog).getByRole("button", { name: "Create token" }));

    const shown = await screen.findByRole("dialog", { name: 'Token "Nightly report" created' });
    expect(within(shown).getByLabelText("Your token")).toHaveValue(secret);
    expect(
      within(shown).getByText(
        `curl -H "Authorization: Bearer ${secret}" ${window.location.origin}/api/tickets`,
      ),
    ).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "POST").map((call) => call.body)).toEqual([
      { name: "Nightly report", scope: "read", expiresInDays: 30 },
    ]);

    await user.click(within(shown).getByRole("button", { name: "Done" }));
    expect(await screen.findByText("Nightly report")).toBeInTheDocument();
    expect(screen.getByText("hd_0123456789abcdef…")).toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });
});
