import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import type { InboundMessage } from "#shared/inbound-mail/inbound-message.schemas.ts";
import { InboundMailLog } from "./inbound-mail-log.tsx";

const base = {
  toAddress: "helpdesk@help.test",
  receivedAt: "2030-01-07T09:00:00.000Z",
  refusedInAnswer: false,
};
const placed: InboundMessage = {
  ...base,
  id: "2",
  fromAddress: "ann@org.test",
  subject: "Re: [Helpdesk] New comment on [TKTMX3C6ULI3ILMLRUE]: Printer",
  outcome: "comment_added",
  detail: "placed by In-Reply-To",
  ticketId: "TKTMX3C6ULI3ILMLRUE",
};
const refused: InboundMessage = {
  ...base,
  id: "1",
  fromAddress: "stranger@elsewhere.test",
  subject: "Hello",
  outcome: "refused",
  detail: "5.7.1 The address stranger@elsewhere.test has no Helpdesk account (refused in the SMTP answer)",
  refusedInAnswer: true,
  ticketId: null,
};

describe("Received e-mail", () => {
  it("shows each message with its outcome and why, and asks the server for one outcome when filtered", async () => {
    const server = stubFetch({
      "GET /api/admin/inbound-mail": (request) => ({
        body: {
          items: request.url.includes("outcome=refused") ? [refused] : [placed, refused],
          nextCursor: null,
        },
      }),
    });
    vi.stubGlobal("fetch", server.fetchStub);
    renderWithApp(<InboundMailLog />, { path: "/admin/settings" });
    const list = await screen.findByRole("list", { name: "Received e-mail" });
    const [first, second] = within(list).getAllByRole("listitem");
    expect(first).toHaveTextContent("Reply added");
    expect(first).toHaveTextContent("placed by In-Reply-To");
    expect(within(first!).getByRole("link", { name: "TKTMX3C6ULI3ILMLRUE" })).toHaveAttribute(
      "href",
      "/tickets/TKTMX3C6ULI3ILMLRUE",
    );
    expect(second).toHaveTextContent("Refused");
    expect(second).toHaveTextContent("has no Helpdesk account");
    expect(second).toHaveTextContent("Told in the SMTP answer");

    await userEvent.selectOptions(screen.getByLabelText("Show"), "refused");
    await screen.findByText((_, element) => element?.tagName === "OL" && element.children.length === 1);
    expect(server.calls.at(-1)?.url).toContain("outcome=refused");
  });
});
