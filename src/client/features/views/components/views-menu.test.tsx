import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Actor } from "#shared/permissions.ts";
import type { SavedView } from "#shared/views/view.schemas.ts";
import { ViewsMenu } from "./views-menu.tsx";

const technician: Actor = { id: "tech-1", role: "technician" };
const admin: Actor = { id: "admin-1", role: "admin" };

const makeView = (overrides: Partial<SavedView>): SavedView => ({
  id: "view_0001",
  name: "My open",
  query: "status=Open",
  sharing: "personal",
  teamId: null,
  teamName: null,
  ownerId: "tech-1",
  ownerName: "Tara",
  canManage: true,
  count: { count: 12, capped: false },
  ...overrides,
});

const views = [
  makeView({}),
  makeView({
    id: "view_0002",
    name: "High priority",
    query: "priority=High&sort=priority",
    sharing: "staff",
    ownerId: "admin-1",
    canManage: false,
    count: { count: 10_000, capped: true },
  }),
];

function setup({ actor = technician, query = "" }: { actor?: Actor; query?: string } = {}) {
  const onOpen = vi.fn();
  const server = stubFetch({
    "GET /api/views": { body: { items: views } },
    "POST /api/views": (request) => ({
      status: 201,
      body: makeView({ id: "view_0003", ...(request.body as object) }),
    }),
    "PUT /api/views/view_0001": (request) => ({ body: makeView(request.body as object) }),
    "DELETE /api/views/view_0001": { status: 204 },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(
    <ViewsMenu
      actor={actor}
      query={query}
      onOpen={onOpen}
      teams={[{ id: "team_network01", name: "Network" }]}
    />,
  );
  return { server, onOpen, user: userEvent.setup() };
}

describe("ViewsMenu", () => {
  it("lists my views and the shared ones with their counts, and opens one by its query", async () => {
    const { onOpen, user } = setup();
    const menu = screen.getByLabelText("Views");
    expect(await within(menu).findByRole("option", { name: "My open (12)" })).toBeInTheDocument();
    expect(within(menu).getByRole("option", { name: "High priority (10,000+)" })).toBeInTheDocument();
    expect(within(menu).getByRole("group", { name: "My views" })).toBeInTheDocument();
    expect(within(menu).getByRole("group", { name: "Shared views" })).toBeInTheDocument();
    await user.selectOptions(menu, "view_0002");
    expect(onOpen).toHaveBeenCalledWith("priority=High&sort=priority");
  });

  it("saves the current filters under a name, personal for a technician (no sharing choice)", async () => {
    const { server, user } = setup({ query: "status=Resolved&cursor=abc" });
    await screen.findByRole("option", { name: "My open (12)" });
    await user.click(screen.getByRole("button", { name: "Save view" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).queryByLabelText("Shared with")).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Name"), "Resolved");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await screen.findByText("View saved")).toBeInTheDocument();
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Resolved",
      query: "status=Resolved",
      sharing: "personal",
      teamId: null,
    });
  });

  it("lets an administrator share a view with a team", async () => {
    const { server, user } = setup({ actor: admin, query: "priority=Low" });
    await screen.findByRole("option", { name: "My open (12)" });
    await user.click(screen.getByRole("button", { name: "Save view" }));
    const dialog = await screen.findByRole("dialog");
    await user.type(within(dialog).getByLabelText("Name"), "Low for network");
    await user.selectOptions(within(dialog).getByLabelText("Shared with"), "team");
    expect(within(dialog).getByLabelText("Team")).toHaveValue("team_network01");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await screen.findByText("View saved");
    expect(server.calls.find((call) => call.method === "POST")?.body).toEqual({
      name: "Low for network",
      query: "priority=Low",
      sharing: "team",
      teamId: "team_network01",
    });
  });

  it("renames and deletes the open view when it may, and not a shared one it may not manage", async () => {
    const { server, user } = setup({ query: "status=Open" });
    const menu = screen.getByLabelText("Views");
    await within(menu).findByRole("option", { name: "My open (12)" });
    expect(menu).toHaveValue("view_0001");
    await user.click(screen.getByRole("button", { name: "Rename" }));
    const dialog = await screen.findByRole("dialog");
    const name = within(dialog).getByLabelText("Name");
    await user.clear(name);
    await user.type(name, "Open now");
    await user.click(within(dialog).getByRole("button", { name: "Rename" }));
    await screen.findByText("View renamed");
    expect(server.calls.find((call) => call.method === "PUT")?.body).toMatchObject({
      name: "Open now",
      query: "status=Open",
    });
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const confirm = await screen.findByRole("dialog");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await screen.findByText("View deleted");
    expect(server.calls.some((call) => call.method === "DELETE")).toBe(true);
  });

  it("offers no rename or delete on a shared view the person may not manage", async () => {
    setup({ query: "priority=High&sort=priority" });
    const menu = screen.getByLabelText("Views");
    await within(menu).findByRole("option", { name: "High priority (10,000+)" });
    expect(menu).toHaveValue("view_0002");
    expect(screen.queryByRole("button", { name: "Rename" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete" })).not.toBeInTheDocument();
  });
});
