import { msg } from "@lingui/core/macro";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { createQueryClient } from "#client/lib/query-client.ts";
import { createMemoryRouter, RouterProvider } from "#client/lib/router/router.tsx";
import { makeMe } from "#client/test/fixtures.ts";
import { stubFetch } from "#client/test/render.tsx";
import type { Me } from "#shared/users/user.schemas.ts";
import { RedirectIfSignedIn, RequireSignIn } from "./guards.tsx";
import { AppProviders } from "./providers.tsx";

function renderAt(path: string, me: Me | null | "failing") {
  vi.stubGlobal(
    "fetch",
    stubFetch({
      "GET /api/me":
        me === "failing"
          ? { status: 500, body: { code: "internal", message: "Internal server error" } }
          : me
            ? { body: me }
            : { body: null },
    }).fetchStub,
  );
  const router = createMemoryRouter(
    [
      { element: <RedirectIfSignedIn />, children: [{ path: "/sign-in", element: <h1>Sign In page</h1> }] },
      {
        element: <RequireSignIn allowNoRole signInMessage={msg`Please sign in first`} />,
        children: [{ path: "/role-selection", element: <h1>Role page</h1> }],
      },
      {
        element: <RequireSignIn isTwoFactorSetup />,
        children: [{ path: "/two-factor-setup", element: <h1>Two-factor setup</h1> }],
      },
      {
        element: <RequireSignIn loadErrorMessage={msg`Error loading profile data`} />,
        children: [{ path: "/profile", element: <h1>Profile page</h1> }],
      },
      {
        element: <RequireSignIn roles={["user", "admin"]} />,
        children: [{ path: "/user-home", element: <h1>User home</h1> }],
      },
      {
        element: <RequireSignIn roles={["technician"]} />,
        children: [{ path: "/technician-home", element: <h1>Technician home</h1> }],
      },
      {
        element: <RequireSignIn />,
        children: [
          { path: "/tickets", element: <h1>Tickets page</h1> },
          { path: "/tickets/:id", element: <h1>Ticket page</h1> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe("route guards", () => {
  it("shows a spinner while it finds out who is signed in", () => {
    vi.stubGlobal("fetch", () => new Promise(() => {}));
    const router = createMemoryRouter([
      { element: <RequireSignIn />, children: [{ path: "/", element: <p>x</p> }] },
    ]);
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(screen.getByRole("status")).toHaveTextContent("Loading your account");
  });

  it("sends a signed-out visitor to /sign-in", async () => {
    const router = renderAt("/tickets", null);
    expect(await screen.findByRole("heading", { name: "Sign In page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign-in");
  });

  it("sends a person without a role to /role-selection, and lets them stay there", async () => {
    const router = renderAt("/tickets", makeMe({ role: null }));
    expect(await screen.findByRole("heading", { name: "Role page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/role-selection");
  });

  it.each(["/technician-home", "/profile", "/tickets/TKT1"])(
    "sends staff who must set up two-factor sign-in from %s to /two-factor-setup",
    async (path) => {
      const router = renderAt(path, makeMe({ role: "technician", mustSetUpTwoFactor: true }));
      expect(await screen.findByRole("heading", { name: "Two-factor setup" })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe("/two-factor-setup");
    },
  );

  it("sends a user who opens the technician home to their own home", async () => {
    const router = renderAt("/technician-home", makeMe({ role: "user" }));
    expect(await screen.findByRole("heading", { name: "User home" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/user-home");
  });

  it("lets an administrator view the user home", async () => {
    renderAt("/user-home", makeMe({ role: "admin" }));
    expect(await screen.findByRole("heading", { name: "User home" })).toBeInTheDocument();
  });

  it("sends a signed-in technician away from the sign-in page to their home", async () => {
    const router = renderAt("/sign-in", makeMe({ role: "technician" }));
    expect(await screen.findByRole("heading", { name: "Technician home" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/technician-home");
  });

  it("tells a signed-out visitor sent away from /role-selection to sign in first", async () => {
    const router = renderAt("/role-selection", null);
    expect(await screen.findByRole("heading", { name: "Sign In page" })).toBeInTheDocument();
    expect(screen.getByText("Please sign in first")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign-in");
  });

  it("keeps a person without a role away from the profile too", async () => {
    const router = renderAt("/profile", makeMe({ role: null }));
    expect(await screen.findByRole("heading", { name: "Role page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/role-selection");
  });

  it("says Error loading profile data when the profile cannot be loaded", async () => {
    renderAt("/profile", "failing");
    expect(await screen.findAllByText("Error loading profile data")).not.toHaveLength(0);
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("remembers the deep link a signed-out visitor opened", async () => {
    const router = renderAt("/tickets/TKT-1?tab=comments", null);
    expect(await screen.findByRole("heading", { name: "Sign In page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(new URLSearchParams(router.state.location.search).get("next")).toBe("/tickets/TKT-1?tab=comments");
  });

  it("sends a person who is signed in at /sign-in?next=… back to that page", async () => {
    const router = renderAt("/sign-in?next=%2Ftickets%2FTKT-1", makeMe({ role: "technician" }));
    expect(await screen.findByRole("heading", { name: "Ticket page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/tickets/TKT-1");
  });

  it("ignores a next that leaves the site and goes home instead", async () => {
    const router = renderAt("/sign-in?next=%2F%2Fevil.example%2Fx", makeMe({ role: "technician" }));
    expect(await screen.findByRole("heading", { name: "Technician home" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/technician-home");
  });
});
