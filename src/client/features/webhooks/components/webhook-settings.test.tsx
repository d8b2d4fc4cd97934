import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { Webhook, WebhookDelivery } from "#shared/webhooks/webhook.schemas.ts";
import { WebhookSettings } from "./webhook-settings.tsx";

const secret = `whsec_${"s".repeat(43)}`;
const saved: Webhook = {
  id: "whk_0123456789abcdef",
  url: "https://chat.example.com/hook",
  description: "Team chat",
  events: ["ticket.created", "ticket.commented"],
  active: true,
  failureLimit: 20,
  consecutiveFailures: 0,
  disabledAt: null,
  disabledReason: null,
  secretHint: "…ssss",
  createdAt: "2030-01-07T09:00:00.000Z",
  updatedAt: "2030-01-07T09:00:00.000Z",
};
const failed: WebhookDelivery = {
  id: "whd_00000000-0000-4000-8000-000000000001",
  eventId: "EVT1",
  eventType: "ticket.created",
  status: "failed",
  attempts: 1,
  responseStatus: 410,
  responseBody: "gone",
  error: "The receiver answered 410",
  nextAttemptAt: null,
  createdAt: "2030-01-07T09:01:00.000Z",
  deliveredAt: null,
  redeliveryOf: null,
};

function setup(listed: Webhook[] = []) {
  let items: Webhook[] = listed;
  const server = stubFetch({
    "GET /api/admin/webhooks": () => ({ body: { items } }),
    "POST /api/admin/webhooks": (request) => {
      const body = request.body as { url: string };
      if (body.url.includes("127.0.0.1")) {
        return {
          status: 400,
          body: {
            code: "validation_failed",
            message:
              "url: 127.0.0.1 is a private, loopback or reserved address; webhooks may not be sent there",
          },
        };
      }
      items = [saved];
      return { status: 201, body: { webhook: saved, secret } };
    },
    [`GET /api/admin/webhooks/${saved.id}/deliveries`]: () => ({
      body: { items: [failed], nextCursor: null },
    }),
    [`POST /api/admin/webhooks/${saved.id}/test`]: () => ({
      body: {
        delivered: false,
        responseStatus: 503,
        responseBody: "busy",
        error: "The receiver answered 503",
        durationMs: 42,
        sentAt: "2030-01-07T09:02:00.000Z",
      },
    }),
    [`POST /api/admin/webhooks/${saved.id}/deliveries/${failed.id}/redeliver`]: () => ({
      status: 201,
      body: { ...failed, id: "whd_00000000-0000-4000-8000-000000000002", status: "pending", attempts: 0 },
    }),
  });
  vi.stubGlobal("fetch", server.fetchStub);
  renderWithApp(<WebhookSettings />, { path: "/admin/settings" });
  return { server, user: userEvent.setup() };
}

describe("WebhookSettings", () => {
  it("checks the form, shows the server's address refusal at the URL, shows the secret once, then lists the webhook", async () => {
    const { server, user } = setup();
    expect(await screen.findByText("No webhooks yet.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "New webhook" }));
    const dialog = screen.getByRole("dialog", { name: "New webhook" });
    await user.click(within(dialog).getByLabelText("Ticket created"));
    await user.click(within(dialog).getByRole("button", { name: "Add webhook" }));
    expect(await within(dialog).findByText("URL is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Choose at least one event")).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText("URL"), "http://127.0.0.1/hook");
    await user.click(within(dialog).getByLabelText("Ticket created"));
    await user.click(within(dialog).getByRole("button", { name: "Add webhook" }));
    expect(
      await within(dialog).findByText(
        "127.0.0.1 is a private, loopback or reserved address; webhooks may not be sent there",
      ),
    ).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText("URL"));
    await user.type(within(dialog).getByLabelText("URL"), saved.url);
    await user.type(within(dialog).getByLabelText("Description"), "Team chat");
    await user.click(within(dialog).getByLabelText("Public comment"));
    await user.click(within(dialog).getByRole("button", { name: "Add webhook" }));

    const shown = await screen.findByRole("dialog", { name: "Webhook added" });
    expect(within(shown).getByLabelText("Signing secret")).toHaveValue(secret);
    expect(server.calls.filter((call) => call.method === "POST").at(-1)?.body).toEqual({
      url: saved.url,
      description: "Team chat",
      events: ["ticket.created", "ticket.commented"],
      active: true,
      failureLimit: 20,
    });
    await user.click(within(shown).getByRole("button", { name: "Done" }));
    const list = await screen.findByRole("list", { name: "Webhooks" });
    expect(within(list).getByText(saved.url)).toBeInTheDocument();
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();
  });

  it("opens the delivery log with the response code and error, and redelivers", async () => {
    const { server, user } = setup();
    await user.click(screen.getByRole("button", { name: "New webhook" }));
    const dialog = screen.getByRole("dialog", { name: "New webhook" });
    await user.type(within(dialog).getByLabelText("URL"), saved.url);
    await user.click(within(dialog).getByRole("button", { name: "Add webhook" }));
    await user.click(
      within(await screen.findByRole("dialog", { name: "Webhook added" })).getByRole("button", {
        name: "Done",
      }),
    );

    await user.click(await screen.findByRole("button", { name: `Deliveries of ${saved.url}` }));
    const entry = await screen.findByRole("listitem", { name: "Ticket created, Failed" });
    expect(within(entry).getByText("HTTP 410")).toBeInTheDocument();
    expect(within(entry).getByText("The receiver answered 410")).toBeInTheDocument();
    await user.click(within(entry).getByRole("button", { name: "Redeliver" }));
    expect(server.calls.some((call) => call.url.endsWith(`${failed.id}/redeliver`))).toBe(true);
  });

  it("sends a test and shows its outcome at once", async () => {
    const { server, user } = setup([saved]);
    await user.click(await screen.findByRole("button", { name: `Send a test to ${saved.url}` }));
    expect(
      await screen.findByText("Test failed: HTTP 503 in 42 ms. The receiver answered 503"),
    ).toHaveAttribute("role", "status");
    expect(server.calls.some((call) => call.method === "POST" && call.url.endsWith(`${saved.id}/test`))).toBe(
      true,
    );
  });

  it("says when and why the app switched a webhook off, and how to mend it", async () => {
    setup([
      {
        ...saved,
        active: false,
        consecutiveFailures: 20,
        disabledAt: "2030-01-08T10:00:00.000Z",
        disabledReason:
          "Switched off after 20 deliveries failed in a row. The last: The receiver answered 410",
      },
    ]);
    const list = await screen.findByRole("list", { name: "Webhooks" });
    expect(within(list).getByText("Switched off")).toBeInTheDocument();
    expect(
      within(list).getByText(
        "Switched off after 20 deliveries failed in a row. The last: The receiver answered 410",
      ),
    ).toBeInTheDocument();
    expect(
      within(list).getByText(
        "Mend the receiver, send a test, then switch the webhook on again (Edit, Active).",
      ),
    ).toBeInTheDocument();
  });
});
