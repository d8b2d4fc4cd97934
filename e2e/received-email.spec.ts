import { expect, test } from "@playwright/test";
import nodemailer from "nodemailer";
import { e2eSettings } from "./settings.mjs";
import { screens, unique } from "./support.ts";
import { adminInNewBrowser, signUpInNewBrowser } from "./ticket-support.ts";

// Decisions 028 and 083: a person mails the helpdesk's address over real SMTP, then answers their own
// message with Reply All (to the helpdesk's address, not a reply address): the reply is placed on the
// ticket by In-Reply-To. The admin reads both, and a refused stranger, on Admin settings › Received e-mail.

const settings = e2eSettings();

test("mail raises a ticket, a Reply All lands on it, and the admin sees what became of each message", async ({
  browser,
}) => {
  const admin = await adminInNewBrowser(browser, "Ada");
  const user = await signUpInNewBrowser(browser, "Una", "User");
  const smtp = nodemailer.createTransport({
    host: "127.0.0.1",
    port: settings.inboundPort,
    secure: false,
    ignoreTLS: true,
  });
  try {
    const subject = `Projector in ${unique("room")} shows nothing`;
    const first = `<${unique("first")}@example.test>`;
    await smtp.sendMail({
      from: user.email,
      to: settings.inboundAddress,
      subject,
      text: "No picture since this morning.",
      messageId: first,
    });
    await smtp.sendMail({
      from: user.email,
      to: settings.inboundAddress,
      subject: `Re: ${subject}`,
      inReplyTo: first,
      references: [first],
      text: "It works again after a restart.\n\nOn Monday Una wrote:\n> No picture since this morning.",
    });
    const stranger = `${unique("stranger")}@elsewhere.test`;
    await expect(
      smtp.sendMail({ from: stranger, to: settings.inboundAddress, subject: "Hello", text: "Hi" }),
    ).rejects.toMatchObject({ responseCode: 550 });

    const page = admin.page;
    await page.goto("/admin/settings?tab=inbound-mail");
    const list = page.getByRole("list", { name: "Received e-mail" });
    const raised = list.getByRole("listitem").filter({ hasText: subject }).filter({ hasNotText: "Re:" });
    const reply = list.getByRole("listitem").filter({ hasText: `Re: ${subject}` });
    await expect(raised).toContainText("Ticket raised");
    await expect(reply).toContainText("Reply added");
    await expect(reply).toContainText("placed by In-Reply-To");
    const ticketId = (await raised.getByRole("link").textContent())!.trim();
    await expect(reply.getByRole("link")).toHaveText(ticketId);
    await screens(page, "received-email");

    await page.getByLabel("Show").selectOption({ label: "Refused" });
    const refused = list.getByRole("listitem").filter({ hasText: stranger });
    await expect(refused).toContainText("has no Helpdesk account");
    await expect(refused).toContainText("Told in the SMTP answer");
    await expect(list.getByRole("listitem").filter({ hasText: subject })).toHaveCount(0);

    // One ticket, and the reply on it as the person's comment, without the quoted mail.
    await user.page.goto(`/tickets/${ticketId}`);
    await expect(user.page.getByRole("heading", { name: subject })).toBeVisible();
    await expect(user.page.getByText("It works again after a restart.", { exact: true })).toBeVisible();
    await expect(user.page.getByText("On Monday Una wrote:")).toHaveCount(0);
  } finally {
    smtp.close();
    await admin.close();
    await user.close();
  }
});
