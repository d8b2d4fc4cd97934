import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import {
  type BusinessCalendar,
  defaultBusinessCalendar,
} from "#shared/service-levels/business-calendar.schemas.ts";
import { BusinessHoursSettings } from "./business-hours-settings.tsx";

const url = "/api/admin/settings/business-calendar";
const envelope = (value: BusinessCalendar, updatedAt: string | null = null) => ({
  value,
  updatedAt,
  updatedByName: updatedAt ? "Ada Admin" : null,
});

/** Types by pasting: one change per field instead of one per key keeps these long forms quick. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

function setup({ answer }: { answer?: () => { status?: number; body?: unknown } } = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${url}`]: { body: envelope(defaultBusinessCalendar) },
    [`PUT ${url}`]: (request) =>
      answer ? answer() : { body: envelope(request.body as BusinessCalendar, "2026-11-23T10:00:00.000Z") },
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<BusinessHoursSettings />);
  const saves = () => server.calls.filter((call) => call.method === "PUT").map((call) => call.body);
  return { user: userEvent.setup(), saves };
}

// The time zone select holds some 400 zones, which jsdom draws slowly on a busy machine.
describe("BusinessHoursSettings", () => {
  it("shows the stored calendar: the zone, each day's hours, Closed for a day without any", async () => {
    setup();
    expect(await screen.findByLabelText("Time zone")).toHaveValue("UTC");
    expect(screen.getByLabelText("Monday opens")).toHaveValue("09:00");
    expect(screen.getByLabelText("Monday closes")).toHaveValue("17:00");
    const saturday = screen.getByText("Saturday").closest("li")!;
    expect(within(saturday).getByText("Closed")).toBeInTheDocument();
    expect(screen.getByText("No holidays.")).toBeInTheDocument();
  });

  it("saves the zone, a shorter Friday and holidays, named or not", async () => {
    const { user, saves } = setup();
    await user.selectOptions(await screen.findByLabelText("Time zone"), "Europe/Berlin");
    await fill(user, screen.getByLabelText("Friday closes"), "13:00");
    await user.click(screen.getByRole("button", { name: "Add holiday" }));
    await fill(user, screen.getByLabelText("Date"), "2026-12-25");
    await fill(user, screen.getByLabelText("Name (optional)"), "Christmas Day");
    await user.click(screen.getByRole("button", { name: "Add holiday" }));
    await fill(user, screen.getAllByLabelText("Date")[1]!, "2027-01-01");

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(saves()).toEqual([
      {
        ...defaultBusinessCalendar,
        timeZone: "Europe/Berlin",
        workingHours: {
          ...defaultBusinessCalendar.workingHours,
          Friday: [{ open: "09:00", close: "13:00" }],
        },
        // An unnamed holiday is sent without a name.
        holidays: [{ date: "2026-12-25", name: "Christmas Day" }, { date: "2027-01-01" }],
      },
    ]);
  });

  it("splits a day, opens a closed day and closes another", async () => {
    const { user, saves } = setup();
    await user.click(await screen.findByRole("button", { name: "Add working hours on Monday" }));
    // A new interval starts where the day's last one ends.
    expect(screen.getByLabelText("Monday opens (2)")).toHaveValue("17:00");
    await fill(user, screen.getByLabelText("Monday closes (1)"), "12:00");
    await fill(user, screen.getByLabelText("Monday opens (2)"), "13:00");
    await user.click(screen.getByRole("button", { name: "Add working hours on Saturday" }));
    await user.click(screen.getByRole("button", { name: "Remove Tuesday 09:00–17:00" }));
    expect(within(screen.getByText("Tuesday").closest("li")!).getByText("Closed")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    const office = [{ open: "09:00", close: "17:00" }];
    expect(saves()).toEqual([
      {
        ...defaultBusinessCalendar,
        workingHours: {
          Monday: [
            { open: "09:00", close: "12:00" },
            { open: "13:00", close: "18:00" },
          ],
          Tuesday: [],
          Wednesday: office,
          Thursday: office,
          Friday: office,
          Saturday: office,
          Sunday: [],
        },
      },
    ]);
  });

  it("checks with the shared rules before sending and marks the interval at fault", async () => {
    const { user, saves } = setup();
    const fridayCloses = await screen.findByLabelText("Friday closes");
    await user.clear(fridayCloses);
    await user.type(fridayCloses, "08:00");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(fridayCloses).toHaveAttribute("aria-invalid", "true");
    expect(fridayCloses).toHaveAccessibleDescription(
      "Friday: the closing time must be after the opening time",
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Not saved: correct the marked fields.");
    expect(saves()).toEqual([]);
  });

  it("shows the server's refusal at the field it names", async () => {
    const message = "Holidays: 2026-12-25 is listed twice";
    const { user } = setup({
      answer: () => ({
        status: 400,
        body: {
          code: "validation_failed",
          message: `holidays.0.date: ${message}`,
          details: [{ path: ["holidays", "0", "date"], message }],
        },
      }),
    });
    await user.click(await screen.findByRole("button", { name: "Add holiday" }));
    await user.type(screen.getByLabelText("Date"), "2026-12-25");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await vi.waitFor(() => expect(screen.getByLabelText("Date")).toHaveAccessibleDescription(message));
    expect(screen.getByLabelText("Date")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText("Settings saved")).not.toBeInTheDocument();
  });
});
