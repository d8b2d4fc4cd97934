import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import ProfilePage from "./profile.tsx";

const me = makeMe({ name: "Ada Lovelace", email: "ada@example.com", role: "technician" });

function setup(
  patch: (body: unknown) => { status?: number; body?: unknown } = (body) => ({
    body: { ...me, ...(body as object) },
  }),
) {
  const server = stubFetch({
    "GET /api/me": { body: me },
    "PATCH /api/me": ({ body }) => patch(body),
    "POST /api/auth/sign-out": { body: { success: true } },
    "PUT /api/me/theme": ({ body }) =>
      (body as { theme: string }).theme === "light"
        ? { status: 500, body: { code: "internal", message: "Something went wrong" } }
        : { body: { ...me, ...(body as object) } },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const result = renderWithApp(<ProfilePage />, { path: "/profile", routes: { "/": <p>Sign In page</p> } });
  return { server, user: userEvent.setup(), ...result };
}

const patches = (calls: { method: string }[]) => calls.filter((call) => call.method === "PATCH");

describe("ProfilePage", () => {
  it("shows name, read-only email and role", async () => {
    setup();
    expect(await screen.findByRole("heading", { name: "My Profile" })).toBeInTheDocument();
    expect(screen.getAllByText("ada@example.com").length).toBeGreaterThan(0);
    expect(screen.getByText("Technician")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("saves a changed name with Apply changes", async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(name).toHaveValue("Ada Lovelace");
    await user.clear(name);
    await user.type(name, "Ada King");
    await user.click(screen.getByRole("button", { name: "Apply changes" }));

    expect(await screen.findByText("Profile updated successfully")).toBeInTheDocument();
    expect(patches(server.calls)).toEqual([{ method: "PATCH", url: "/api/me", body: { name: "Ada King" } }]);
    expect(screen.queryByRole("textbox", { name: "Name" })).not.toBeInTheDocument();
    expect(screen.getAllByText("Ada King").length).toBeGreaterThan(0);
  });

  it("sends nothing when the name did not change", async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    // Spaces around the same name are not a change either.
    await user.type(screen.getByRole("textbox", { name: "Name" }), "  ");
    await user.click(screen.getByRole("button", { name: "Apply changes" }));

    expect(await screen.findByRole("button", { name: "Edit" })).toBeInTheDocument();
    expect(patches(server.calls)).toHaveLength(0);
    expect(screen.queryByText("Profile updated successfully")).not.toBeInTheDocument();
  });

  it("drops the edit on Cancel", async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), "x");
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("textbox", { name: "Name" })).not.toBeInTheDocument();
    expect(patches(server.calls)).toHaveLength(0);
  });

  it("refuses a blank name inline", async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.clear(screen.getByRole("textbox", { name: "Name" }));
    await user.click(screen.getByRole("button", { name: "Apply changes" }));
    expect(await screen.findByText("Name is required")).toBeInTheDocument();
    expect(patches(server.calls)).toHaveLength(0);
  });

  it.each([
    [401, "Please sign in to update profile"],
    [500, "Could not update the details"],
  ])("answers a %i with %s", async (status, message) => {
    const { user } = setup(() => ({ status, body: { code: "x", message: "refused" } }));
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.type(screen.getByRole("textbox", { name: "Name" }), " Jr");
    await user.click(screen.getByRole("button", { name: "Apply changes" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("signs out and returns to /", async () => {
    const { user, router } = setup();
    await user.click(await screen.findByRole("button", { name: "Sign Out" }));
    expect(await screen.findByText("Sign In page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
  });

  it("switches to the dark theme at once, saved on the person and remembered for the next page load", async () => {
    const { server, user } = setup();
    expect(await screen.findByRole("radio", { name: "System" })).toBeChecked();
    expect(document.documentElement).not.toHaveClass("dark");

    await user.click(screen.getByRole("radio", { name: "Dark" }));
    expect(document.documentElement).toHaveClass("dark");
    expect(server.calls.filter((call) => call.method === "PUT")).toEqual([
      { method: "PUT", url: "/api/me/theme", body: { theme: "dark" } },
    ]);
    expect(await screen.findByRole("radio", { name: "Dark" })).toBeChecked();
    expect(localStorage.getItem("helpdesk-theme")).toBe("dark");

    // A choice the server did not save is undone, and says so.
    await user.click(screen.getByRole("radio", { name: "Light" }));
    expect(await screen.findByText("Something went wrong")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
    expect(document.documentElement).toHaveClass("dark");

    await user.click(screen.getByRole("radio", { name: "System" }));
    expect(await screen.findByRole("radio", { name: "System" })).toBeChecked();
    expect(document.documentElement).not.toHaveClass("dark");
    expect(localStorage.getItem("helpdesk-theme")).toBeNull();
  });
});
