import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import ResetPasswordPage from "./reset-password.tsx";

const invalidLink = "This reset link is invalid or has expired.";

function setup(path: string, answer: { status?: number; body?: unknown } = { body: { status: true } }) {
  const server = stubFetch({ "POST /api/auth/reset-password": answer });
  vi.stubGlobal("fetch", server.fetchStub);
  const result = renderWithApp(<ResetPasswordPage />, {
    path,
    routes: { "/sign-in": <p>Sign In page</p> },
  });
  return { server, user: userEvent.setup(), ...result };
}

describe("ResetPasswordPage", () => {
  it("says the passwords do not match and sends nothing", async () => {
    const { server, user } = setup("/reset-password?token=abc123");
    expect(screen.getByRole("heading", { name: "Set a new password" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("New password"), "correct horse");
    await user.type(screen.getByLabelText("Confirm password"), "correct hose");
    await user.click(screen.getByRole("button", { name: "Set Password" }));
    expect(await screen.findByText("Passwords do not match")).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it("applies the server's password rules before sending", async () => {
    const { server, user } = setup("/reset-password?token=abc123");
    await user.type(screen.getByLabelText("New password"), "short");
    await user.type(screen.getByLabelText("Confirm password"), "short");
    await user.click(screen.getByRole("button", { name: "Set Password" }));
    expect(await screen.findByText("Password must be at least 8 characters")).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
  });

  it("sets the new password with the link's token and sends the person to sign in", async () => {
    const { server, user, router } = setup("/reset-password?token=abc123");
    await user.type(screen.getByLabelText("New password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(screen.getByLabelText("New password")).toHaveAttribute("type", "text");
    await user.type(screen.getByLabelText("Confirm password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Set Password" }));

    expect(await screen.findByText("Sign In page")).toBeInTheDocument();
    expect(
      screen.getByText("Your password has been reset. Sign in with your new password."),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/sign-in");
    expect(server.calls[0]?.body).toEqual({ token: "abc123", newPassword: "correct horse" });
  });

  it("explains a used or expired link the server already refused", () => {
    setup("/reset-password?error=INVALID_TOKEN");
    expect(screen.getByRole("alert")).toHaveTextContent(invalidLink);
    expect(screen.getByRole("link", { name: "Request a new link" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    expect(screen.queryByRole("button", { name: "Set Password" })).not.toBeInTheDocument();
  });

  it("explains a link without a token", () => {
    setup("/reset-password");
    expect(screen.getByRole("alert")).toHaveTextContent(invalidLink);
  });

  it("explains a token the server refuses on submit", async () => {
    const { user } = setup("/reset-password?token=used", {
      status: 400,
      body: { code: "INVALID_TOKEN", message: "Invalid token" },
    });
    await user.type(screen.getByLabelText("New password"), "correct horse");
    await user.type(screen.getByLabelText("Confirm password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Set Password" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(invalidLink);
  });

  it("is a real form on the link's address, and shows the server's answer to it posted without the code (decision 065)", () => {
    setFormAnswer({
      form: "reset-password",
      status: 400,
      message: "",
      values: {},
      fieldErrors: { confirmPassword: "Passwords do not match" },
    });
    setup("/reset-password?token=abc123");
    const form = screen.getByRole("button", { name: "Set Password" }).closest("form")!;
    expect(form).toHaveAttribute("method", "post");
    // No action: the browser posts to the page's own address, the token included.
    expect(form).not.toHaveAttribute("action");
    expect(form).toHaveFormValues({ newPassword: "", confirmPassword: "" });
    expect(screen.getByLabelText("Confirm password")).toHaveAccessibleDescription("Passwords do not match");
  });

  it("says the link does not work when the server found so for a form posted without the code", () => {
    setFormAnswer({
      form: "reset-password",
      status: 400,
      message: "Invalid token",
      code: "INVALID_TOKEN",
      values: {},
    });
    setup("/reset-password?token=used-up");
    expect(screen.getByRole("alert")).toHaveTextContent(invalidLink);
    expect(screen.queryByRole("button", { name: "Set Password" })).toBeNull();
  });
});
