import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { setFormAnswer } from "#client/lib/form-answer.ts";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { SignUpForm } from "./sign-up-form.tsx";

describe("SignUpForm", () => {
  it("offers User (the default) and Technician as roles", () => {
    vi.stubGlobal("fetch", stubFetch({}).fetchStub);
    renderWithApp(<SignUpForm />);
    const role = screen.getByLabelText("Role");
    expect(role).toHaveValue("user");
    expect(
      within(role)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["User", "Technician"]);
  });

  it("shows what is wrong inline and sends nothing", async () => {
    const server = stubFetch({});
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<SignUpForm />);
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.type(screen.getByLabelText("Password"), "short");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Name is required")).toBeInTheDocument();
    expect(screen.getByText("Enter a valid e-mail address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 8 characters")).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === "POST")).toHaveLength(0);
  });

  it("registers a technician and goes to the technician home", async () => {
    let isSignedIn = false;
    const server = stubFetch({
      "POST /api/auth/sign-up/email": () => {
        isSignedIn = true;
        return { body: { token: "t" } };
      },
      "GET /api/me": () => (isSignedIn ? { body: makeMe({ role: "technician" }) } : { body: null }),
    });
    vi.stubGlobal("fetch", server.fetchStub);
    const user = userEvent.setup();
    renderWithApp(<SignUpForm />, { routes: { "/technician-home": <p>Technician home</p> } });
    await user.type(screen.getByLabelText("Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Email"), "grace@example.com");
    await user.type(screen.getByLabelText("Password"), "cobol-rules");
    await user.selectOptions(screen.getByLabelText("Role"), "technician");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Technician home")).toBeInTheDocument();
    expect(screen.getByText("Registration was a success")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Grace Hopper",
      email: "grace@example.com",
      password: "cobol-rules",
      role: "technician",
    });
  });

  it("announces a failed registration and shows the server's reason above the button", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/sign-up/email": {
          status: 422,
          body: { code: "USER_ALREADY_EXISTS", message: "User already exists. Use another email." },
        },
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<SignUpForm />);
    await user.type(screen.getByLabelText("Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Email"), "grace@example.com");
    await user.type(screen.getByLabelText("Password"), "cobol-rules");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Something went wrong with the registration")).toBeInTheDocument();
    const form = screen.getByRole("button", { name: "Sign Up" }).closest("form")!;
    expect(within(form).getByRole("alert")).toHaveTextContent("User already exists. Use another email.");
  });

  it("says a refused registration once, not in a toast and again above the button", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "POST /api/auth/sign-up/email": {
          status: 400,
          body: { code: "registration_failed", message: "Something went wrong with the registration" },
        },
      }).fetchStub,
    );
    const user = userEvent.setup();
    renderWithApp(<SignUpForm />);
    await user.type(screen.getByLabelText("Name"), "Grace Hopper");
    await user.type(screen.getByLabelText("Email"), "grace@example.com");
    await user.type(screen.getByLabelText("Password"), "cobol-rules");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));

    expect(await screen.findByText("Something went wrong with the registration")).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByText("Something went wrong with the registration")).toHaveLength(1);
    const form = screen.getByRole("button", { name: "Sign Up" }).closest("form")!;
    expect(within(form).queryByRole("alert")).toBeNull();
  });

  it("is a real form that starts from the server's answer to it posted without the code (decision 065)", async () => {
    const server = stubFetch({});
    vi.stubGlobal("fetch", server.fetchStub);
    setFormAnswer({
      form: "sign-up",
      status: 400,
      message: "Something went wrong with the registration",
      code: "registration_failed",
      values: { name: "Grace Hopper", email: "grace@example.com", role: "technician" },
      fieldErrors: { password: "Password must be at least 8 characters" },
    });
    renderWithApp(<SignUpForm />);
    const form = screen.getByRole("button", { name: "Sign Up" }).closest("form")!;
    // Posted by the browser itself to the page's own address when the code is not there.
    expect(form).toHaveAttribute("method", "post");
    expect(form).not.toHaveAttribute("action");
    expect(form).toHaveFormValues({
      name: "Grace Hopper",
      email: "grace@example.com",
      password: "",
      role: "technician",
    });
    expect(within(form).getByRole("alert")).toHaveTextContent("Something went wrong with the registration");
    expect(screen.getByText("Password must be at least 8 characters")).toBeInTheDocument();

    // The app takes over: the next press is its own, and the answer is gone.
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Password"), "cobol-rules");
    await user.click(screen.getByRole("button", { name: "Sign Up" }));
    await vi.waitFor(() => expect(server.calls.some((call) => call.method === "POST")).toBe(true));
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Grace Hopper",
      email: "grace@example.com",
      password: "cobol-rules",
      role: "technician",
    });
    expect(screen.queryByText("Password must be at least 8 characters")).toBeNull();
  });
});
