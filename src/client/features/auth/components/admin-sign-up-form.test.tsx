import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { AdminSignUpForm } from "./admin-sign-up-form.tsx";

type Answer = { status?: number; body?: unknown };

function setup(adminSignUp: Answer) {
  let isSignedIn = false;
  const server = stubFetch({
    "POST /api/admin-signup": adminSignUp,
    "POST /api/auth/sign-in/email": () => {
      isSignedIn = true;
      return { body: { redirect: false } };
    },
    "GET /api/me": () =>
      isSignedIn ? { body: makeMe({ role: "admin", email: "root@example.com" }) } : { body: null },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const result = renderWithApp(<AdminSignUpForm />, {
    path: "/admin-signup",
    routes: { "/admin-home": <p>Admin home</p> },
  });
  return { server, ...result };
}

async function fillAndSubmit(adminKey = "the-key") {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText("Name"), "Root Admin");
  await user.type(screen.getByLabelText("Email"), "root@example.com");
  await user.type(screen.getByLabelText("Password"), "a long password");
  await user.type(screen.getByLabelText("Admin Secret Key"), adminKey);
  await user.click(screen.getByRole("button", { name: "Create Admin Account" }));
}

describe("AdminSignUpForm", () => {
  it("warns that a valid admin key is needed", () => {
    setup({ status: 201, body: makeMe({ role: "admin" }) });
    expect(screen.getByRole("note")).toHaveTextContent("A valid admin key is needed.");
    expect(screen.getByRole("note")).toHaveTextContent("ADMIN_SIGNUP_KEY");
  });

  it("creates the administrator, signs them in and opens the admin home", async () => {
    const { server, router } = setup({ status: 201, body: makeMe({ role: "admin" }) });
    await fillAndSubmit();

    expect(await screen.findByText("Admin home")).toBeInTheDocument();
    expect(screen.getByText("Admin account created successfully")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin-home");
    const posts = server.calls.filter((call) => call.method === "POST");
    expect(posts.map((call) => [call.url, call.body])).toEqual([
      [
        "/api/admin-signup",
        { name: "Root Admin", email: "root@example.com", password: "a long password", adminKey: "the-key" },
      ],
      ["/api/auth/sign-in/email", { email: "root@example.com", password: "a long password" }],
    ]);
  });

  it("says Invalid admin key. Access denied. for a wrong key", async () => {
    const { server, router } = setup({
      status: 403,
      body: { code: "forbidden", message: "Invalid admin key. Access denied." },
    });
    await fillAndSubmit("wrong");
    expect(await screen.findByText("Invalid admin key. Access denied.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/admin-signup");
    expect(server.calls.some((call) => call.url === "/api/auth/sign-in/email")).toBe(false);
  });

  it.each([
    [409, { code: "conflict", message: "Something went wrong with the admin registration" }],
    [500, { code: "internal", message: "Internal server error" }],
  ])("says Something went wrong with the admin registration for a %i", async (status, body) => {
    setup({ status, body });
    await fillAndSubmit();
    expect(await screen.findByText("Something went wrong with the admin registration")).toBeInTheDocument();
    expect(screen.queryByText("Admin account created successfully")).not.toBeInTheDocument();
  });

  it("passes on the rate limit's message", async () => {
    const message = "Too many attempts. Try again in 30 seconds.";
    setup({ status: 429, body: { code: "rate_limited", message } });
    await fillAndSubmit();
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("is a real form that says the server's answer to it posted without the code, never with the key (decision 065)", () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    setFormAnswer({
      form: "admin-signup",
      status: 403,
      message: "Invalid admin key. Access denied.",
      values: { name: "Ada Admin", email: "root@example.com" },
    });
    renderWithApp(<AdminSignUpForm />, { path: "/admin-signup" });
    const form = screen.getByRole("button", { name: "Create Admin Account" }).closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form).not.toHaveAttribute("action");
    expect(form).toHaveFormValues({
      name: "Ada Admin",
      email: "root@example.com",
      password: "",
      adminKey: "",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("Invalid admin key. Access denied.");
  });
});
