import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { ForgotPasswordForm } from "./forgot-password-form.tsx";

/** What the page says: its toasts (statuses and alerts), as a screen reader hears them. */
const messages = () =>
  [...screen.queryAllByRole("status"), ...screen.queryAllByRole("alert")].map((element) =>
    element.textContent?.trim(),
  );

describe("ForgotPasswordForm", () => {
  it("asks for a reset link and says, once, the spec's Reset email was sent successfully.", async () => {
    const server = stubFetch({ "POST /api/auth/request-password-reset": { body: { status: true } } });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));

    expect(await screen.findByText("Reset email was sent successfully.")).toBeInTheDocument();
    // One message, and not one that hedges on whether the address has an account.
    expect(messages()).toEqual(["Reset email was sent successfully."]);
    expect(server.calls).toEqual([
      {
        method: "POST",
        url: "/api/auth/request-password-reset",
        body: { email: "ada@example.com", redirectTo: "/reset-password" },
      },
    ]);
    expect(screen.getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/sign-in");
  });

  it("replaces the success with the error when a second request is refused: never both", async () => {
    let answer = { status: 200, body: { status: true } as unknown };
    vi.stubGlobal("fetch", stubFetch({ "POST /api/auth/request-password-reset": () => answer }).fetchStub);
    vi.spyOn(console, "error").mockImplementation(() => {});
    const user = userEvent.setup();
    renderWithApp(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText("Email"), "ada@example.com");
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));
    expect(await screen.findByText("Reset email was sent successfully.")).toBeInTheDocument();

    const refusal = "Too many attempts. Try again in 42 seconds.";
    answer = { status: 429, body: { code: "rate_limited", message: refusal } };
    await user.click(screen.getByRole("button", { name: "Send Reset Password" }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(messages()).toEqual([refusal]);
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

  it("is a real form that says the server's answer to it posted without the code on the page (decision 065)", async () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    setFormAnswer({
      form: "forgot-password",
      status: 200,
      message: "Reset email was sent successfully.",
      values: { email: "ada@example.com" },
    });
    renderWithApp(<ForgotPasswordForm />);
    const form = screen.getByRole("button", { name: "Send Reset Password" }).closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    expect(form).not.toHaveAttribute("action");
    expect(form).toHaveFormValues({ email: "ada@example.com" });
    expect(messages()).toEqual(["Reset email was sent successfully."]);
  });

  it("shows what the server found wrong with the address, under it", () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    setFormAnswer({
      form: "forgot-password",
      status: 400,
      message: "",
      values: { email: "nope" },
      fieldErrors: { email: "Enter a valid e-mail address" },
    });
    renderWithApp(<ForgotPasswordForm />);
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription("Enter a valid e-mail address");
    expect(messages()).toEqual([]);
  });
});
