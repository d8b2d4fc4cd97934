import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { defaultSlaPolicy } from "#shared/service-levels/sla-policy.schemas.ts";
import { SlaPolicyForm } from "./sla-policy-form.tsx";

const path = "/api/admin/settings/sla-policies";

function setup(put: { status?: number; body?: unknown } = {}) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "admin" }) },
    [`GET ${path}`]: { body: { value: defaultSlaPolicy, updatedAt: null, updatedByName: null } },
    [`PUT ${path}`]: ({ body }) => ({
      status: put.status ?? 200,
      body: put.body ?? { value: body, updatedAt: "2030-01-07T10:00:00.000Z", updatedByName: "Ada" },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<SlaPolicyForm />);
  const puts = () => server.calls.filter((call) => call.method === "PUT");
  return { user: userEvent.setup(), puts };
}

describe("SlaPolicyForm", () => {
  it("saves hours and minutes as business minutes; empty boxes mean no target", async () => {
    const { user, puts } = setup();
    const hours = await screen.findByLabelText("High first response hours");
    expect(hours).toHaveValue("1");
    await user.clear(hours);
    await user.type(hours, "2");
    await user.type(screen.getByLabelText("High first response minutes"), "{Backspace}30");
    await user.clear(screen.getByLabelText("Low resolution hours"));
    await user.clear(screen.getByLabelText("Low resolution minutes"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(puts()[0]?.body).toMatchObject({
      targets: {
        High: { firstResponseMinutes: 150, resolutionMinutes: 480 },
        Low: { firstResponseMinutes: 480, resolutionMinutes: null },
      },
      dueSoonMinutes: 60,
    });
  });

  it("shows what is wrong at the field, before sending and when the server refuses", async () => {
    const message =
      "targets.Medium.resolutionMinutes: Medium: resolution target must be a whole number of minutes from 1 to 525600, or empty for no target";
    const { user, puts } = setup({ status: 400, body: { code: "validation_failed", message } });
    await user.type(await screen.findByLabelText("High first response minutes"), "x");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(
      await screen.findByText(
        "High: first response target must be a whole number of minutes from 1 to 525600, or empty for no target",
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("High first response hours")).toHaveAttribute("aria-invalid", "true");
    expect(puts()).toHaveLength(0);

    await user.clear(screen.getByLabelText("High first response minutes"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(
      await screen.findByText(message.slice("targets.Medium.resolutionMinutes: ".length)),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Medium resolution hours")).toHaveAttribute("aria-invalid", "true");
  });
});
