import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateLocale } from "#client/lib/i18n.ts";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { CreateTicketForm } from "./create-ticket-form.tsx";

function setup({
  role = "user" as "user" | "technician" | "admin",
  createAnswer = { status: 201, body: makeTicket() } as {
    status: number;
    body: unknown;
  },
} = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role }) },
    "POST /api/tickets": createAnswer,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const onCreated = vi.fn();
  renderWithApp(<CreateTicketForm onCreated={onCreated} />);
  const ticketPosts = () =>
    server.calls.filter((call) => call.method === "POST" && call.url === "/api/tickets");
  return { user: userEvent.setup(), onCreated, ticketPosts };
}

describe("CreateTicketForm", () => {
  it("starts with the spec defaults: Hardware, Low, department General, floor 1", async () => {
    setup();
    expect(await screen.findByLabelText("Category")).toHaveValue("Hardware");
    expect(screen.getByLabelText("Priority")).toHaveValue("Low");
    expect(screen.getByLabelText("Department")).toHaveValue("General");
    expect(screen.getByLabelText("Floor")).toHaveValue("1");
    expect(screen.getByLabelText("Office Number")).toHaveValue("");
    expect(screen.getByLabelText("Title")).toHaveValue("");
    expect(screen.getByLabelText("Description")).toHaveValue("");
    const categories = within(screen.getByLabelText("Category")).getAllByRole("option");
    expect(categories.map((option) => option.textContent)).toEqual([
      "Hardware",
      "Software",
      "Network",
      "Other",
    ]);
    const priorities = within(screen.getByLabelText("Priority")).getAllByRole("option");
    expect(priorities.map((option) => option.textContent)).toEqual(["Low", "Medium", "High"]);
  });

  it("shows inline errors and sends nothing while required fields are empty", async () => {
    const { user, ticketPosts } = setup();
    await user.clear(await screen.findByLabelText("Department"));
    await user.clear(screen.getByLabelText("Floor"));
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));

    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    expect(screen.getByText("Department is required")).toBeInTheDocument();
    expect(screen.getByText("Floor is required")).toBeInTheDocument();
    expect(screen.getByText("Office number is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Title")).toHaveAccessibleDescription("Title is required");
    expect(ticketPosts()).toHaveLength(0);
  });

  it("does not accept a title of only spaces", async () => {
    const { user, ticketPosts } = setup();
    await user.type(await screen.findByLabelText("Title"), "   ");
    await user.type(screen.getByLabelText("Description"), "Screen flickers");
    await user.type(screen.getByLabelText("Office Number"), "12");
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(ticketPosts()).toHaveLength(0);
  });

  it("sends the filled-in ticket, announces it and starts over", async () => {
    const { user, onCreated, ticketPosts } = setup();
    await user.type(await screen.findByLabelText("Title"), "VPN drops every hour");
    await user.type(screen.getByLabelText("Description"), "The VPN disconnects on the hour.");
    await user.selectOptions(screen.getByLabelText("Category"), "Network");
    await user.selectOptions(screen.getByLabelText("Priority"), "High");
    await user.clear(screen.getByLabelText("Department"));
    await user.type(screen.getByLabelText("Department"), "Finance");
    await user.clear(screen.getByLabelText("Floor"));
    await user.type(screen.getByLabelText("Floor"), "3");
    await user.type(screen.getByLabelText("Office Number"), "301");
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));

    expect(await screen.findByText("Ticket created successfully!")).toBeInTheDocument();
    expect(ticketPosts()).toEqual([
      {
        method: "POST",
        url: "/api/tickets",
        body: {
          title: "VPN drops every hour",
          description: "The VPN disconnects on the hour.",
          category: "Network",
          priority: "High",
          department: "Finance",
          floor: "3",
          officeNumber: "301",
        },
      },
    ]);
    expect(onCreated).toHaveBeenCalledWith(makeTicket());
    await waitFor(() => expect(screen.getByLabelText("Title")).toHaveValue(""));
    expect(screen.getByLabelText("Department")).toHaveValue("General");
    expect(screen.getByLabelText("Category")).toHaveValue("Hardware");
  });

  it("tells a technician that only users and administrators can create tickets", async () => {
    setup({ role: "technician" });
    expect(await screen.findByText("Only users and administrators can create tickets")).toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Submit Ticket" })).not.toBeInTheDocument();
  });

  it("lets an administrator create tickets", async () => {
    setup({ role: "admin" });
    expect(await screen.findByRole("button", { name: "Submit Ticket" })).toBeInTheDocument();
  });

  it("says it is loading the permissions until it knows who is signed in", async () => {
    vi.stubGlobal("fetch", () => new Promise(() => {}));
    renderWithApp(<CreateTicketForm />);
    expect(screen.getByText("Loading user permissions")).toBeInTheDocument();
    expect(screen.queryByLabelText("Title")).not.toBeInTheDocument();
  });

  it("reads the server's refusal as no permission", async () => {
    const { user } = setup({
      createAnswer: {
        status: 403,
        body: { code: "forbidden", message: "You do not have permission to create tickets" },
      },
    });
    await fillRequiredFields(user);
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByText("You do not have permission to create tickets")).toBeInTheDocument();
  });

  it("shows the server's reason inline when creation fails", async () => {
    const { user, onCreated } = setup({
      createAnswer: { status: 400, body: { code: "validation_failed", message: "title: Title is too long" } },
    });
    await fillRequiredFields(user);
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByText("Failed to create ticket")).toBeInTheDocument();
    const form = screen.getByRole("region", { name: "Create New Ticket" });
    expect(within(form).getByRole("alert")).toHaveTextContent("title: Title is too long");
    expect(screen.getByLabelText("Title")).toHaveValue("Mouse is broken");
    expect(onCreated).not.toHaveBeenCalled();
  });

  it("says the creation itself failed when the server errs, and keeps what was typed", async () => {
    const { user, onCreated } = setup({
      createAnswer: { status: 500, body: { code: "internal", message: "Something went wrong on our side." } },
    });
    await fillRequiredFields(user);
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByText("Error creating ticket")).toBeInTheDocument();
    expect(screen.queryByText("Failed to create ticket")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Title")).toHaveValue("Mouse is broken");
    expect(onCreated).not.toHaveBeenCalled();
  });

  describe("in German", () => {
    afterEach(async () => {
      await activateLocale("en");
    });

    it("labels, offers and checks in German, and still sends the API's English values", async () => {
      await activateLocale("de");
      const { user, ticketPosts } = setup();
      const category = await screen.findByLabelText("Kategorie");
      expect(
        within(category)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toEqual(["Hardware", "Software", "Netzwerk", "Sonstiges"]);
      await user.click(screen.getByRole("button", { name: "Ticket absenden" }));
      expect(await screen.findByText("Titel ist erforderlich")).toBeInTheDocument();
      expect(screen.getByText("Büronummer ist erforderlich")).toBeInTheDocument();
      expect(ticketPosts()).toHaveLength(0);

      await user.type(screen.getByLabelText("Titel"), "Kein WLAN");
      await user.type(screen.getByLabelText("Beschreibung"), "Seit heute Morgen.");
      await user.type(screen.getByLabelText("Büronummer"), "12");
      await user.selectOptions(category, "Netzwerk");
      await user.selectOptions(screen.getByLabelText("Priorität"), "Hoch");
      await user.click(screen.getByRole("button", { name: "Ticket absenden" }));
      await waitFor(() => expect(ticketPosts()).toHaveLength(1));
      expect(ticketPosts()[0]?.body).toMatchObject({ category: "Network", priority: "High" });
    });
  });
});

async function fillRequiredFields(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText("Title"), "Mouse is broken");
  await user.type(screen.getByLabelText("Description"), "Left button does nothing.");
  await user.type(screen.getByLabelText("Office Number"), "7");
}
