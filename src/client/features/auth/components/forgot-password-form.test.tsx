import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "../../../test/render.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";

describe("ForgotPasswordForm", () => {
  it("asks for a reset link and says it was sent", async () => {
    const server = stubFetch({ "POST /api/auth/request-password-reset": { body: { status: true } } });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));

    expect(await screen.findByText("Reset email was sent successfully.")).toBeInTheDocument();
    // The form's own status line (the success toast is a status too).
    const statuses = screen.getAllByRole("status").map((element) => element.textContent);
    expect(statuses.some((text) => text?.includes("If ada@example.com has an account"))).toBe(true);
    expect(server.calls).toEqual([
      {
        method: "POST",
        url: "/api/auth/request-password-reset",
        body: { email: "ada@example.com", redirectTo: "/reset-password" },
      },
    ]);
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/sign-in");
  });

  it("refuses a malformed address without asking the server", async () => {
    const server = stubFetch({});
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));
    expect(await screen.findByText("Enter a valid e-mail address")).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it("passes on the rate limit's message", async () => {
    const message = "Too many attempts. Try again in 42 seconds.";
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/request-password-reset": { status: 429, body: { code: "rate_limited", message } },
      }).fetchStub,
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithApp(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByText("Reset email was sent successfully.")).not.toBeInTheDocument();
  });
});
