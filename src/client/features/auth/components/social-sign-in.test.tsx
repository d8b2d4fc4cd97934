import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { authProvidersQueryKey } from "#shared/page-rendering/server-config.ts";
import type { AuthProviders } from "#shared/users/user.schemas.ts";
import { SocialSignIn } from "./social-sign-in.tsx";

function setup(providers: AuthProviders, path = "/sign-in", returnTo?: string) {
  const server = stubFetch({
    "GET /api/auth/providers": { body: providers },
    // jsdom cannot leave the page, but it can follow a change of hash: the "provider" is #authorize.
    "POST /api/auth/sign-in/social": {
      body: { url: `${window.location.origin}/#authorize`, redirect: true },
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const result = renderWithApp(<SocialSignIn returnTo={returnTo} />, { path });
  return { server, user: userEvent.setup(), ...result };
}

describe("SocialSignIn", () => {
  it("shows no Continue with Google when Google is not configured, only the organisation's button", async () => {
    setup({ google: false, oidc: { label: "Sign in with Contoso" } });
    expect(await screen.findByRole("button", { name: "Sign in with Contoso" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue with Google" })).not.toBeInTheDocument();
    expect(screen.getAllByRole("button")).toHaveLength(1);
  });

  it("shows Continue with Google alone when the server has no organisation sign-in", async () => {
    setup({ google: true, oidc: null });
    expect(await screen.findByRole("button", { name: "Continue with Google" })).toBeEnabled();
    expect(screen.getAllByRole("button")).toHaveLength(1);
  });

  it("shows nothing, not even the 'or' line, when the server offers neither", async () => {
    const { server } = setup({ google: false, oidc: null });
    await vi.waitFor(() => expect(server.calls).toHaveLength(1));
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByText("or")).not.toBeInTheDocument();
  });

  it("draws the buttons at once from what the page said about the server, without asking it", () => {
    const server = stubFetch({});
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<SocialSignIn />, {
      queryData: [[authProvidersQueryKey, { google: true, oidc: { label: "Sign in with Contoso" } }]],
    });
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Continue with Google",
      "Sign in with Contoso",
    ]);
    expect(server.calls).toEqual([]);
  });

  it("starts the organisation sign-in with the server's label and opens the provider", async () => {
    const { server, user } = setup({ google: false, oidc: { label: "Sign in with Contoso" } });
    await user.click(await screen.findByRole("button", { name: "Sign in with Contoso" }));
    await vi.waitFor(() => expect(window.location.hash).toBe("#authorize"));
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      provider: "oidc",
      callbackURL: "/",
      errorCallbackURL: "/sign-in?error=oauth&provider=oidc",
      newUserCallbackURL: "/role-selection",
    });
    window.location.hash = "";
  });

  it("asks the provider to come back to the page the person was sent away from", async () => {
    const { server, user } = setup({ google: true, oidc: null }, "/sign-in", "/tickets/TKT-1");
    await user.click(await screen.findByRole("button", { name: "Continue with Google" }));
    await vi.waitFor(() => expect(window.location.hash).toBe("#authorize"));
    expect(server.calls.find((call) => call.method === "POST")?.body).toMatchObject({
      callbackURL: "/tickets/TKT-1",
      newUserCallbackURL: "/role-selection",
    });
    window.location.hash = "";
  });

  it("starts the Google sign-in when Google is configured", async () => {
    const { server, user } = setup({ google: true, oidc: null });
    await user.click(await screen.findByRole("button", { name: "Continue with Google" }));
    await vi.waitFor(() => expect(window.location.hash).toBe("#authorize"));
    expect(server.calls.find((call) => call.method === "POST")?.body).toMatchObject({
      provider: "google",
      errorCallbackURL: "/sign-in?error=oauth",
      newUserCallbackURL: "/role-selection",
    });
    window.location.hash = "";
  });

  it("says Could not authorize with Google. when Google sends the person back with an error", async () => {
    const { router } = setup({ google: true, oidc: null }, "/sign-in?error=oauth&error=access_denied");
    expect(await screen.findByText("Could not authorize with Google.")).toBeInTheDocument();
    // Dropped, so a reload does not say it again.
    await vi.waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("names the organisation provider when its sign-in failed", async () => {
    setup({ google: false, oidc: { label: "Sign in with Contoso" } }, "/sign-in?error=oauth&provider=oidc");
    expect(await screen.findByText("Could not authorize with Contoso.")).toBeInTheDocument();
  });

  it("says the account is deactivated when the provider said yes but the account is switched off", async () => {
    setup(
      { google: false, oidc: { label: "Sign in with Contoso" } },
      "/sign-in?error=oauth&provider=oidc&error=account_inactive",
    );
    expect(
      await screen.findByText("This account has been deactivated. Contact your administrator."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Could not authorize with Contoso.")).not.toBeInTheDocument();
  });

  it("says why an existing account was not linked when the provider did not verify the e-mail", async () => {
    setup(
      { google: false, oidc: { label: "Sign in with Contoso" } },
      "/sign-in?error=oauth&provider=oidc&error=email_not_verified",
    );
    expect(
      await screen.findByText(
        "Your existing account was not linked: Contoso has not verified this e-mail address. Sign in with your e-mail and password instead.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText("Could not authorize with Contoso.")).not.toBeInTheDocument();
  });

  it("says an account already exists when linking is switched off", async () => {
    setup({ google: true, oidc: null }, "/sign-in?error=oauth&error=account_not_linked");
    expect(
      await screen.findByText(
        "An account with this e-mail address already exists, and single sign-on is not linked to it. Sign in the way you did before.",
      ),
    ).toBeInTheDocument();
  });
});
