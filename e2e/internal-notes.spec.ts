import { expect, test } from "@playwright/test";
import { unique } from "./support.ts";
import { createTicketThroughApi, signUpInNewBrowser } from "./ticket-support.ts";

// Decision 011: an internal note is invisible to the user, on their open page and after a reload.

test("an internal note is invisible to the user, while a public comment reaches them", async ({
  browser,
}) => {
  const user = await signUpInNewBrowser(browser, "Uma", "User");
  const tech = await signUpInNewBrowser(browser, "Theo", "Technician");
  const ticketId = await createTicketThroughApi(user.page, { title: `Monitor flickers ${unique("in")}` });
  await user.page.goto(`/tickets/${ticketId}`);
  const userComments = user.page.getByRole("region", { name: /Comments/ });
  await expect(userComments.getByText("No comments yet.")).toBeVisible();
  await expect(userComments.getByRole("checkbox", { name: "Internal note" })).toHaveCount(0);

  await tech.page.goto(`/tickets/${ticketId}`);
  await tech.page.getByRole("button", { name: "Assign to Me" }).click();
  await expect(tech.page.getByText("Ticket assigned successfully")).toBeVisible();
  const techComments = tech.page.getByRole("region", { name: /Comments/ });
  await techComments.getByRole("checkbox", { name: "Internal note" }).check();
  const secret = "Cable is fine; suspect the GPU driver";
  await techComments.getByLabel("Add an internal note").fill(secret);
  await techComments.getByRole("button", { name: "Add Internal Note" }).click();
  await expect(tech.page.getByText("Internal note added")).toBeVisible();
  const note = techComments.getByRole("article").filter({ hasText: secret });
  await expect(note.getByText("Internal note — not visible to the requester")).toBeVisible();

  const reply = "Could you try another cable?";
  await techComments.getByLabel("Add a comment").fill(reply);
  await techComments.getByRole("button", { name: "Add Comment" }).click();
  await expect(techComments.getByText(reply, { exact: true })).toBeVisible();

  // The public comment arrives on the user's open page by push; the note never does, not even after a reload.
  await expect(userComments.getByText(reply, { exact: true })).toBeVisible();
  await expect(user.page.getByText(secret)).toHaveCount(0);
  await user.page.reload();
  await expect(userComments.getByText(reply, { exact: true })).toBeVisible();
  await expect(user.page.getByText(secret)).toHaveCount(0);
  await expect(user.page.getByText(/internal note/i)).toHaveCount(0);

  await user.close();
  await tech.close();
});
