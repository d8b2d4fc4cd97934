import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Me } from "#shared/users/user.schemas.ts";
import RoleSelectionPage from "./role-selection.tsx";

function setup(me: Me, chooseRole: (role: unknown) => { status?: number; body?: unknown }) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    "POST /api/me/role": ({ body }) => chooseRole((body as { role: unknown }).role),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const result = renderWithApp(<RoleSelectionPage />, {
    path: "/role-selection",
    routes: {
      "/user-home": <p>User home</p>,
      "/technician-home": <p>Technician home</p>,
      "/sign-in": <p>Sign In page</p>,
    },
  });
  return { server, user: userEvent.setup(), ...result };
}

const withoutRole = makeMe({ role: null, name: "Olive Oidc" });

describe("RoleSelectionPage", () => {
  it("offers User (checked) and Technician, with the note", async () => {
    setup(withoutRole, () => undefined as never);
    const group = await screen.findByRole("radiogroup", { name: "Role" });
    expect(group).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "User" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Technician" })).not.toBeChecked();
    expect(screen.getByText("An administrator can change your role later.")).toBeInTheDocument();
  });

  it("sends User when nothing else was chosen", async () => {
    const { server, user } = setup(withoutRole, (role) => ({ body: { ...withoutRole, role } }));
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByText("User home")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({ role: "user" });
  });

  it("sends the chosen role and opens that role's home", async () => {
    const { server, user, router } = setup(withoutRole, (role) => ({ body: { ...withoutRole, role } }));
    await user.click(await screen.findByRole("radio", { name: "Technician" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));

    expect(await screen.findByText("Technician home")).toBeInTheDocument();
    expect(screen.getByText("Role selected successfully!")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/technician-home");
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({ role: "technician" });
  });

  it("says Failed to update role. Please try again. when the server refuses", async () => {
    const { user, router } = setup(withoutRole, () => ({
      status: 500,
      body: { code: "internal", message: "Internal server error" },
    }));
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Failed to update role. Please try again.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/role-selection");
  });

  it("says Please sign in first when the session has ended", async () => {
    const { user } = setup(withoutRole, () => ({
      status: 401,
      body: { code: "unauthenticated", message: "Please sign in first" },
    }));
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    expect(await screen.findByText("Sign In page")).toBeInTheDocument();
    expect(screen.getByText("Please sign in first")).toBeInTheDocument();
  });

  it("sends a person who already has a role to their home", async () => {
    setup(makeMe({ role: "technician" }), () => undefined as never);
    expect(await screen.findByText("Technician home")).toBeInTheDocument();
  });

  it("is a real form whose radios the browser sends, starting from the server's answer to it (decision 065)", async () => {
    setFormAnswer({
      form: "role-selection",
      status: 500,
      message: "Internal server error",
      values: { role: "technician" },
    });
    const { server, user } = setup(withoutRole, (role) => ({ body: { ...withoutRole, role } }));
    const form = (await screen.findByRole("button", { name: "Continue" })).closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form).not.toHaveAttribute("action");
    expect(form).toHaveFormValues({ role: "technician" });
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to update role. Please try again.");

    await user.click(screen.getByRole("radio", { name: "User" }));
    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(await screen.findByText("User home")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({ role: "user" });
  });
});
