import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { AdminChange } from "#shared/settings/settings.schemas.ts";
import { AdminChangeHistory } from "./admin-change-history.tsx";

const departmentsChange: AdminChange = {
  id: "adc_1",
  area: "departments",
  summary: "Changed the departments",
  actorId: "admin-1",
  actorName: "Ada Admin",
  before: { departments: ["General", "Sales"] },
  after: { departments: ["General", "Finance"] },
  at: "2026-11-23T10:00:00.000Z",
};
const calendarChange: AdminChange = {
  ...departmentsChange,
  id: "adc_2",
  area: "business-calendar",
  summary: "Changed the business hours",
  before: { timeZone: "UTC" },
  after: { timeZone: "Europe/Berlin" },
};

function setup() {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    "GET /api/admin/settings/history": ({ url }) => {
      const area = new URL(url, "http://localhost").searchParams.get("area");
      const items = [departmentsChange, calendarChange].filter((change) => !area || change.area === area);
      return { body: { items, nextCursor: null } };
    },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<AdminChangeHistory />);
  return { user: userEvent.setup(), calls: server.calls };
}

describe("AdminChangeHistory", () => {
  it("says what a list change added and removed", async () => {
    setup();
    expect(await screen.findByText("Added Finance · Removed Sales")).toBeInTheDocument();
    expect(screen.getByText("Changed the business hours")).toBeInTheDocument();
  });

  it("shows one area's changes when one is chosen", async () => {
    const { user, calls } = setup();
    await screen.findByText("Changed the business hours");
    await user.selectOptions(screen.getByLabelText("Area"), "Departments");
    await waitFor(() => expect(screen.queryByText("Changed the business hours")).not.toBeInTheDocument());
    expect(screen.getByText("Changed the departments")).toBeInTheDocument();
    expect(calls.map((call) => call.url)).toContain("/api/admin/settings/history?area=departments");
  });
});
