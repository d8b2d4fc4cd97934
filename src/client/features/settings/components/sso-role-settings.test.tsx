import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { SsoRoleSettingsPanel } from "./sso-role-settings.tsx";

const url = "/api/admin/settings/sso-roles";
const stored = { value: { claim: "groups", rules: [] }, updatedAt: null, updatedByName: null };

function stubServer(oidc: { label: string } | null) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    "GET /api/auth/providers": { body: { google: false, oidc } },
    [`GET ${url}`]: { body: stored },
    [`PUT ${url}`]: (request) => ({
      body: { value: request.body, updatedAt: "2025-11-20T09:30:00.000Z", updatedByName: "Ada" },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  return server;
}

describe("Admin settings › Single sign-on (decision 082)", () => {
  it("adds rules, removes one, and saves the claim with the rules left in order", async () => {
    const server = stubServer({ label: "Sign in with Contoso" });
    renderWithApp(<SsoRoleSettingsPanel />);
    const user = userEvent.setup();
    expect(
      await screen.findByText(
        "People who match no rule sign in as users; with rules saved, people do not choose their own role.",
      ),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Claim", { exact: true }));
    await user.type(screen.getByLabelText("Claim", { exact: true }), "roles");
    for (const _ of [1, 2, 3]) await user.click(screen.getByRole("button", { name: "Add rule" }));
    await user.type(screen.getByLabelText("Value of rule 1"), "Helpdesk.Technician");
    await user.type(screen.getByLabelText("Value of rule 2"), "mistake");
    await user.type(screen.getByLabelText("Value of rule 3"), "Helpdesk.Admin");
    await user.selectOptions(screen.getByLabelText("Role of rule 3"), "admin");
    await user.click(screen.getByRole("button", { name: "Remove rule 2" }));
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      expect.objectContaining({
        body: {
          claim: "roles",
          rules: [
            { value: "Helpdesk.Technician", role: "technician" },
            { value: "Helpdesk.Admin", role: "admin" },
          ],
        },
      }),
    ]);
    expect(screen.queryByText(/no OpenID Connect provider configured/)).not.toBeInTheDocument();
  });

  it("says why an empty rule cannot be saved, and sends nothing", async () => {
    const server = stubServer({ label: "Sign in with Contoso" });
    renderWithApp(<SsoRoleSettingsPanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Add rule" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("A rule's value cannot be empty")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([]);
  });

  it("says the rules wait for a provider when the server has none, and still saves them", async () => {
    const server = stubServer(null);
    renderWithApp(<SsoRoleSettingsPanel />);
    const user = userEvent.setup();
    expect(await screen.findByText(/no OpenID Connect provider configured/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add rule" }));
    await user.type(screen.getByLabelText("Value of rule 1"), "helpdesk-techs");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "PUT")).toHaveLength(1);
  });
});
