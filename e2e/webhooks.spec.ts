import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { screens, unique } from "./support.ts";
import { adminInNewBrowser, createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 029: an admin registers a webhook to a receiver on loopback (the e2e server allows private
// targets), a user creates a ticket, the receiver gets it signed with the secret shown once, the delivery
// log shows it delivered with 200, Redeliver sends it again, and Send test (decision 080) shows its outcome.

test("an admin registers a webhook; a new ticket is delivered, signed, logged with 200, and can be redelivered", {
  tag: "@instances",
}, async ({ browser }) => {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/helpdesk`;

  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Ursula", "User");
  const page = admin.page;
  try {
    await page.goto("/admin/settings?tab=webhooks");
    await expect(page.getByRole("tab", { name: "Webhooks", selected: true })).toBeVisible();
    await page.getByRole("button", { name: "New webhook" }).click();
    const form = page.getByRole("dialog", { name: "New webhook" });
    // A URL that is not one is refused at its field.
    await form.getByLabel("URL").fill("chat.example.com");
    await form.getByRole("button", { name: "Add webhook" }).click();
    await expect(form.getByText("URL must be a full address")).toBeVisible();
    await form.getByLabel("URL").fill(receiverUrl);
    await form.getByLabel("Description").fill("Team chat");
    await form.getByLabel("Public comment").check();
    await form.getByRole("button", { name: "Add webhook" }).click();

    const shown = page.getByRole("dialog", { name: "Webhook added" });
    const secret = await shown.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "Done" }).click();
    const list = page.getByRole("list", { name: "Webhooks" });
    await expect(list.getByText(receiverUrl)).toBeVisible();
    await expect(list.getByText("Team chat")).toBeVisible();
    await expect(page.getByText(secret)).toHaveCount(0);

    const title = `Projector dead ${unique("hook")}`;
    await createTicketThroughApi(user.page, { title });
    await expect.poll(() => received.length).toBe(1);
    const [first] = received;
    const timestamp = first!.headers["helpdesk-webhook-timestamp"] as string;
    const expected = createHmac("sha256", secret).update(`${timestamp}.${first!.body}`).digest("hex");
    expect(first!.headers["helpdesk-webhook-signature"]).toBe(`v1=${expected}`);
    expect(JSON.parse(first!.body)).toMatchObject({ type: "ticket.created", ticket: { title } });

    await list.getByRole("button", { name: `Deliveries of ${receiverUrl}` }).click();
    const log = page.getByRole("region", { name: `Deliveries to ${receiverUrl}` });
    const delivered = log.getByRole("listitem", { name: "Ticket created, Delivered" });
    await expect(delivered).toHaveCount(1);
    await expect(delivered.getByText("HTTP 200")).toBeVisible();
    await screens(page, "webhooks-log");

    await delivered.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.body).toBe(first!.body);
    await expect(log.getByRole("listitem", { name: "Ticket created, Delivered" })).toHaveCount(2);
    await expect(log.getByText("Redelivery")).toBeVisible();

    // Send test (decision 080): a signed webhook.test now, its outcome shown at once.
    await list.getByRole("button", { name: `Send a test to ${receiverUrl}` }).click();
    await expect(list.getByText(/Test delivered: HTTP 200 in \d+ ms/)).toBeVisible();
    expect(received).toHaveLength(3);
    expect(JSON.parse(received[2]!.body)).toMatchObject({ type: "webhook.test" });

    // The change history names the new webhook.
    await page.getByRole("tab", { name: "Change history" }).click();
    await expect(page.getByText(`Added the webhook ${receiverUrl}`)).toBeVisible();

    await page.goto("/admin/settings?tab=webhooks");
    await page.getByRole("button", { name: "New webhook" }).click();
    await screens(page, "webhooks-form");
  } finally {
    await admin.close();
    await user.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
