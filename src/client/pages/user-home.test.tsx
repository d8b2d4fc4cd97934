import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { emptyPage, emptySummary, makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import UserHomePage from "./user-home.tsx";

function setup(summary = emptySummary, me = makeMe({ name: "Ada Lovelace" }), path = "/user-home") {
  const server = stubFetch({
    "GET /api/me": { body: me },
    "GET /api/tickets": { body: emptyPage },
    "GET /api/tickets/summary": { body: summary },
    "GET /api/departments": { body: { departments: ["Finance", "General", "Human Resources"] } },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  const { router } = renderWithApp(<UserHomePage />, { path });
  return Object.assign(userEvent.setup(), { calls: server.calls, router });
}

describe("UserHomePage", () => {
  it("shows the four counts from the summary", async () => {
    setup({ ...emptySummary, total: 7, open: 3, inProgress: 2, resolved: 1 });
    expect(await screen.findByText("7")).toBeInTheDocument();
    for (const [label, value] of [
      ["Total Tickets", "7"],
      ["Open", "3"],
      ["In Progress", "2"],
      ["Resolved", "1"],
    ]) {
      expect(screen.getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
  });

  it("asks for the tickets the person raised, so an administrator sees only their own", async () => {
    const { calls } = setup(emptySummary, makeMe({ name: "Ada Admin", role: "admin" }));
    await screen.findByText("No tickets yet");
    const urls = calls.map((call) => call.url);
    expect(urls).toContain("/api/tickets/summary?scope=created");
    expect(urls.filter((url) => url.startsWith("/api/tickets?"))).toEqual(["/api/tickets?scope=created"]);
  });

  it("toggles the Create New Ticket form", async () => {
    const user = setup();
    expect(screen.getByRole("heading", { name: "My Dashboard" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    expect(await screen.findByRole("heading", { name: "Create New Ticket" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Hide Form" }));
    expect(screen.queryByRole("heading", { name: "Create New Ticket" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Create New Ticket" })).toBeInTheDocument();
  });

  it("opens the form from the empty state", async () => {
    const user = setup();
    expect(await screen.findByText("No tickets yet")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "My Support Tickets" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Create Your First Ticket" }));
    expect(await screen.findByLabelText("Title")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Hide Form" })).toBeInTheDocument();
  });

  it("offers the departments admins keep on the create form, and still takes any other", async () => {
    const user = setup();
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    const department = await screen.findByLabelText("Department");
    expect(department).toHaveValue("General");
    // The browser's own suggestion list (a datalist), filled once the departments have arrived.
    await waitFor(() => expect(department).toHaveAttribute("list"));
    const offered = [
      ...document.getElementById(department.getAttribute("list")!)!.querySelectorAll("option"),
    ];
    expect(offered.map((option) => option.value)).toEqual(["Finance", "General", "Human Resources"]);
    await user.clear(department);
    await user.type(department, "Night shift");
    expect(department).toHaveValue("Night shift");
  });

  it("asks for the departments only once the form is open", async () => {
    const user = setup();
    await screen.findByText("No tickets yet");
    expect(user.calls.map((call) => call.url)).not.toContain("/api/departments");
    await user.click(screen.getByRole("button", { name: "Create New Ticket" }));
    await waitFor(() => expect(user.calls.map((call) => call.url)).toContain("/api/departments"));
  });

  it("opens the form as a form asking for ?new-ticket without the app's code, in place with it", async () => {
    const user = setup();
    const toggle = screen.getByRole("button", { name: "Create New Ticket" });
    // Without the code, the browser submits this: the page again, with the form open (the server draws it).
    expect(toggle).toHaveAttribute("type", "submit");
    expect(toggle.closest("form")).toHaveAttribute("method", "get");
    expect(toggle.closest("form")?.querySelector('input[type="hidden"][name="new-ticket"]')).not.toBeNull();
    await user.click(toggle);
    expect(await screen.findByRole("heading", { name: "Create New Ticket" })).toBeInTheDocument();
    expect(user.router.state.location.search).toBe("");
  });

  it("starts with the form open when the address asks for it, and forgets that once it is closed", async () => {
    const user = setup(emptySummary, makeMe({ name: "Ada Lovelace" }), "/user-home?new-ticket=");
    expect(await screen.findByRole("heading", { name: "Create New Ticket" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Hide Form" })).toHaveAttribute("aria-expanded", "true");
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("heading", { name: "Create New Ticket" })).not.toBeInTheDocument();
    expect(user.router.state.location.search).toBe("");
  });

  it("says a ticket created without the app's code was created, once", async () => {
    const user = setup(emptySummary, makeMe({ name: "Ada Lovelace" }), "/user-home?done=ticket-created");
    const notice = () => screen.getByText("Ticket created successfully!").closest('[role="status"]');
    expect(notice()).not.toBeNull();
    // The address no longer says it: a reload would not say it again.
    await waitFor(() => expect(user.router.state.location.search).toBe(""));
    expect(notice()).not.toBeNull();
  });
});
