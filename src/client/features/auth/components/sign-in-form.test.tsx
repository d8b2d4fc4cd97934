import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { useParams } from "#client/lib/router/route-matching.tsx";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { authProvidersQueryKey } from "#shared/page-rendering/server-config.ts";
import { SignInForm } from "./sign-in-form.tsx";

const homes = {
  "/technician-home": <p>Technician home</p>,
  "/user-home": <p>User home</p>,
};

describe("SignInForm", () => {
  it("shows and hides the password", async () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    const user = userEvent.setup();
    renderWithApp(<SignInForm />);
    const password = screen.getByLabelText("Password");
    expect(password).toHaveAttribute("type", "password");

    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");

    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(password).toHaveAttribute("type", "password");
  });

  it("links to sign-up and forgot password, with an email-type input", () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    renderWithApp(<SignInForm />);
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/sign-up");
    expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
  });

  it("signs in and goes to the home of the person's role", async () => {
    let isSignedIn = false;
    const server = stubFetch({
      "POST /api/auth/sign-in/email": () => {
        isSignedIn = true;
        return { body: { redirect: false } };
      },
      "GET /api/me": () => (isSignedIn ? { body: makeMe({ role: "technician" }) } : { body: null }),
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<SignInForm />, { routes: homes });

    await user.type(screen.getByLabelText("Email"), "tech@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Technician home")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "POST")).toEqual({
      method: "POST",
      url: "/api/auth/sign-in/email",
      body: { email: "tech@example.com", password: "correct horse" },
    });
  });

  it("asks for the authenticator code after a right password, says so when it is wrong, then signs in", async () => {
    let isSignedIn = false;
    const server = stubFetch({
      "POST /api/auth/sign-in/email": { body: { twoFactorRedirect: true, twoFactorMethods: ["totp"] } },
      "POST /api/auth/two-factor/verify-totp": ({ body }) => {
        if ((body as { code?: string }).code !== "123456")
          return { status: 401, body: { code: "INVALID_CODE", message: "Invalid code" } };
        isSignedIn = true;
        return { body: { user: {} } };
      },
      "GET /api/me": () => (isSignedIn ? { body: makeMe({ role: "technician" }) } : { body: null }),
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<SignInForm />, { routes: homes });

    await user.type(screen.getByLabelText("Email"), "tech@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    const code = await screen.findByLabelText("Authentication code");
    await user.type(code, "654321");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText(/That code is not right/)).toBeInTheDocument();
    expect(screen.queryByText("Technician home")).toBeNull();

    await user.clear(code);
    await user.type(code, "123456");
    await user.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText("Technician home")).toBeInTheDocument();
  });

  it("says Wrong user credentials when the server refuses the password", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/sign-in/email": {
          status: 401,
          body: { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" },
        },
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<SignInForm />, { routes: homes });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "wrong-password");
    await user.click(screen.getByRole("button", { name: "Sign In" }));

    expect(await screen.findByText("Wrong user credentials")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("passes on the server's reason for a deactivated account", async () => {
    const message = "This account has been deactivated. Contact your administrator.";
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/sign-in/email": { status: 403, body: { code: "account_inactive", message } },
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<SignInForm />);
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "whatever1");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("offers Continue with Google when the server has it", () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    renderWithApp(<SignInForm />, { queryData: [[authProvidersQueryKey, { google: true, oidc: null }]] });
    expect(screen.getByRole("button", { name: "Continue with Google" })).toBeInTheDocument();
  });

  it("goes back to the page the person was sent away from, but never off the site", async () => {
    for (const [next, landing] of [
      ["/tickets/TKT-20250101-ABC123", "Ticket TKT-20250101-ABC123"],
      ["//evil.example/steal", "User home"],
    ] as const) {
      let isSignedIn = false;
      vi.stubGlobal(
        "fetch",
        stubFetch({
          "POST /api/auth/sign-in/email": () => {
            isSignedIn = true;
            return { body: { redirect: false } };
          },
          "GET /api/me": () => (isSignedIn ? { body: makeMe({ role: "user" }) } : { body: null }),
        }).fetchStub,
      );
      const user = userEvent.setup();
      const { router, unmount } = renderWithApp(<SignInForm />, {
        path: `/sign-in?next=${encodeURIComponent(next)}`,
        routes: { ...homes, "/tickets/:id": <TicketStub /> },
      });
      await user.type(screen.getByLabelText("Email"), "ada@example.com");
      await user.type(screen.getByLabelText("Password"), "correct horse");
      await user.click(screen.getByRole("button", { name: "Sign In" }));
      expect(await screen.findByText(landing)).toBeInTheDocument();
      expect(router.state.location.pathname).not.toContain("evil");
      unmount();
    }
  });

  it("sends a person without a role to choose one, even with a page to go back to", async () => {
    let isSignedIn = false;
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/sign-in/email": () => {
          isSignedIn = true;
          return { body: { redirect: false } };
        },
        "GET /api/me": () => (isSignedIn ? { body: makeMe({ role: null }) } : { body: null }),
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<SignInForm />, {
      path: "/sign-in?next=%2Ftickets%2FTKT-1",
      routes: { "/role-selection": <p>Choose a role</p>, "/tickets/:id": <TicketStub /> },
    });
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Sign In" }));
    expect(await screen.findByText("Choose a role")).toBeInTheDocument();
  });
});

function TicketStub() {
  const { id } = useParams();
  return <p>Ticket {id}</p>;
}
