import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { makeMe, makeTicket } from "#client/test/fixtures.ts";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import { CreateTicketForm } from "./create-ticket-form.tsx";

const field = (
  overrides: Partial<CustomField> & Pick<CustomField, "id" | "label" | "type">,
): CustomField => ({
  category: null,
  required: false,
  helpText: "",
  options: [],
  position: 0,
  retired: false,
  ...overrides,
});

const assetTag = field({
  id: "cf_assettag01",
  label: "Asset tag",
  type: "text",
  category: "Hardware",
  required: true,
  helpText: "The number on the sticker under the device",
});
const licence = field({
  id: "cf_licence001",
  label: "Licence key",
  type: "text",
  category: "Software",
  position: 1,
});

function setup(createAnswer: { status: number; body: unknown } = { status: 201, body: makeTicket() }) {
  const server = stubFetch({
    "GET /api/me": { body: makeMe({ role: "user" }) },
    "GET /api/custom-fields": { body: { items: [assetTag, licence] } },
    "POST /api/tickets": createAnswer,
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<CreateTicketForm />);
  const ticketPosts = () =>
    server.calls.filter((call) => call.method === "POST" && call.url === "/api/tickets");
  return { user: userEvent.setup(), ticketPosts };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText("Title"), "Laptop will not boot");
  await user.type(screen.getByLabelText("Description"), "Black screen");
  await user.type(screen.getByLabelText("Office Number"), "301");
}

describe("CreateTicketForm with custom fields", () => {
  it("asks the chosen category's fields with their help, and demands a required one before sending", async () => {
    const { user, ticketPosts } = setup();
    const tag = await screen.findByLabelText("Asset tag *");
    expect(tag).toHaveAccessibleDescription("The number on the sticker under the device");
    expect(screen.queryByLabelText("Licence key")).not.toBeInTheDocument();

    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByText("Asset tag is required")).toBeInTheDocument();
    expect(ticketPosts()).toEqual([]);

    // Another category asks other fields: Software has no asset tag but a licence key.
    await user.selectOptions(screen.getByLabelText("Category"), "Software");
    expect(screen.queryByLabelText("Asset tag *")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Licence key")).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText("Category"), "Hardware");

    await user.type(screen.getByLabelText("Asset tag *"), "A-1234");
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    await vi.waitFor(() => expect(ticketPosts()).toHaveLength(1));
    expect(ticketPosts()[0]?.body).toMatchObject({
      category: "Hardware",
      customFields: { [assetTag.id]: "A-1234" },
    });
  });

  it("shows the server's refusal of a custom field at the field", async () => {
    const { user } = setup({
      status: 400,
      // As the server answers: the message, and the field it concerns in details.
      body: {
        code: "validation_failed",
        message: "Asset tag must be at most 500 characters",
        details: [
          { path: ["customFields", "cf_assettag01"], message: "Asset tag must be at most 500 characters" },
        ],
      },
    });
    await fillIn(user);
    await user.type(screen.getByLabelText("Asset tag *"), "A-1");
    await user.click(screen.getByRole("button", { name: "Submit Ticket" }));
    expect(await screen.findByLabelText("Asset tag *")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getAllByText("Asset tag must be at most 500 characters").length).toBeGreaterThan(0);
  });
});
