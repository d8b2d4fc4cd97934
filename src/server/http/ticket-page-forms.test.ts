import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import {
  createDrawingTestApp,
  drawnStateOf,
  formTagOf,
  openPageAs,
  postFormAs,
} from "#server/test/page-renderer.ts";
import { request, type TestApp } from "#server/test/test-app.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { TicketActivity } from "#shared/tickets/ticket-activity.schemas.ts";

// Raising a ticket, reading it, commenting and changing its status with the app's code off: plain HTML
// forms posted to their page, answered through the same API (decision 065), against the real page renderer.
let drawing: Awaited<ReturnType<typeof createDrawingTestApp>>;
let t: TestApp;
beforeAll(async () => {
  drawing = await createDrawingTestApp();
  ({ t } = drawing);
}, 120_000);
afterAll(() => drawing?.close());

/** A page as a browser without the app's code asks for it. */
const openPage = (url: string, cookie: string) => openPageAs(t.app, url, cookie);
const postForm = (
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) => postFormAs(t.app, url, fields, { cookie, headers });
const drawnState = (html: string) => drawnStateOf<{ formAnswer?: unknown }>(html);
const formTag = formTagOf;

/** Text as React writes it into HTML. */
const inHtml = (text: string) => text.replace(/'/g, "&#x27;");

const ticketOf = async (ticketId: string, cookie: string) =>
  (await request(t.app, { method: "GET", url: `/api/tickets/${ticketId}`, cookie })).json<Ticket>();
const commentsOf = async (ticketId: string, cookie: string) =>
  (
    await request(t.app, { method: "GET", url: `/api/tickets/${ticketId}/activity`, cookie })
  ).json<TicketActivity>().comments;
const createdBy = async (cookie: string) =>
  (await request(t.app, { method: "GET", url: "/api/tickets?scope=created", cookie })).json<{
    items: Ticket[];
  }>().items;

const newTicket = {
  form: "create-ticket",
  title: "Monitor flickers",
  description: "It flickers every few seconds since Monday.",
  category: "Hardware",
  priority: "Medium",
  department: "Finance",
  floor: "3",
  officeNumber: "312",
};

describe("raising a ticket without the app's code", () => {
  it("opens the form by asking for the home with it open, drawn as a form that posts to the page", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const closed = await openPage("/user-home", cookie);
    expect(closed.statusCode).toBe(200);
    expect(formTag(closed.body, "create-ticket")).toBeUndefined();
    // The toggle is a form asking for the page with ?new-ticket.
    expect(closed.body).toMatch(
      /<form[^>]*method="get"[^>]*><input type="hidden" name="new-ticket" value=""\/>/,
    );

    const open = await openPage("/user-home?new-ticket=", cookie);
    expect(open.statusCode).toBe(200);
    const form = formTag(open.body, "create-ticket");
    expect(form).toContain('method="post"');
    expect(form).not.toContain("action=");
    expect(open.body).toContain('<input type="hidden" name="form" value="create-ticket"/>');
    // Its defaults are in the page, not only in the code that would put them there.
    expect(open.body).toMatch(
      /<input[^>]*name="department"[^>]*value="General"|value="General"[^>]*name="department"/,
    );
    expect(open.body).toMatch(/<option value="Hardware" selected="">/);
    // Files need the code: said, rather than a picker whose file would be dropped.
    expect(open.body).toContain("Files can be attached only with JavaScript on");
  });

  it("creates the ticket through the API and comes back to the home, saying so once", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const answer = await postForm("/user-home?new-ticket=", cookie, newTicket);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe("/user-home?done=ticket-created");
    const [stored] = await createdBy(cookie);
    expect(stored).toMatchObject({
      title: "Monitor flickers",
      category: "Hardware",
      priority: "Medium",
      department: "Finance",
      floor: "3",
      officeNumber: "312",
      status: "Open",
    });

    const home = await openPage(answer.headers.location!, cookie);
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<p role="status"[^>]*>.*Ticket created successfully!/s);
    expect(home.body).toContain("Monitor flickers");
    // Closed again, as the app closes it.
    expect(formTag(home.body, "create-ticket")).toBeUndefined();
  });

  it("draws the form again for an empty title, with the client's message at the field, the values kept, nothing stored", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const page = await postForm("/user-home?new-ticket=", cookie, { ...newTicket, title: "   " });
    expect(page.statusCode).toBe(400);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(await createdBy(cookie)).toEqual([]);
    expect(formTag(page.body, "create-ticket")).toContain('method="post"');
    // The message the client's own check (the shared schema) shows at the title.
    expect(page.body).toMatch(/<p id="[^"]*-error" class="[^"]*">Title is required<\/p>/);
    expect(page.body).toContain("It flickers every few seconds since Monday.</textarea>");
    expect(page.body).toMatch(/value="Finance"/);
    expect(page.body).toMatch(/<option value="Medium" selected="">/);
    expect(drawnState(page.body).formAnswer).toMatchObject({
      form: "create-ticket",
      status: 400,
      fieldErrors: { title: "Title is required" },
      values: { title: "   ", department: "Finance" },
    });
  });

  it("refuses a ticket posted from another site, and stores nothing", async () => {
    const { cookie } = await signedInAs(t.app, t.database.db, "user");
    const answer = await postForm("/user-home", cookie, newTicket, {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(answer.statusCode).toBe(403);
    expect(await createdBy(cookie)).toEqual([]);
  });
});

describe("the ticket's pages drawn by the server", () => {
  it("draws the ticket with its comments for whoever may see it, and the list with it", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id, title: "Scanner is offline" });
    await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie,
      payload: { message: "It says 'no network' on its screen." },
    });
    const page = await openPage(`/tickets/${ticket.id}`, cookie);
    expect(page.statusCode).toBe(200);
    // Drawn into the ticket page's own file: its code is asked for with the entry, all at once.
    expect(page.body).toContain(
      '<div id="root" data-drawn data-entry="/assets/index.js" data-preload="/assets/ticket.js">',
    );
    expect(page.body).toContain("<title>Scanner is offline · Helpdesk</title>");
    expect(page.body).toContain(inHtml("It says 'no network' on its screen."));
    expect(formTag(page.body, "ticket-comment")).toContain('method="post"');
    // The send button is usable without the code, which alone would enable it again after disabling it.
    expect(page.body).toMatch(/<button type="submit"[^>]*>(?:(?!<\/button>).)*Add Comment<\/button>/s);
    expect(page.body).not.toMatch(
      /<button type="submit"[^>]*disabled=""[^>]*>(?:(?!<\/button>).)*Add Comment/s,
    );

    const { cookie: technician } = await signedInAs(t.app, t.database.db, "technician");
    const forStaff = await openPage(`/tickets/${ticket.id}`, technician);
    expect(forStaff.statusCode).toBe(200);
    expect(forStaff.body).toContain(inHtml("It says 'no network' on its screen."));
    expect(formTag(forStaff.body, "ticket-status")).toContain('method="post"');
    // Once, where the wide page has them (CSS puts them under the ticket on a narrow one): nothing moves
    // under a press when the code, which knows the width, takes the page over.
    expect(forStaff.body.match(/<form[^>]*name="ticket-status"/g)).toHaveLength(1);
    expect(forStaff.body).toMatch(/<button type="submit"(?=[^>]*name="status")[^>]*value="Resolved"/);

    const list = await openPage("/tickets", cookie);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(
      '<div id="root" data-drawn data-entry="/assets/index.js" data-preload="/assets/tickets.js">',
    );
    expect(list.body).toContain("Scanner is offline");
  });

  it("answers another user's ticket as the API does, 404, and shows none of it", async () => {
    const { user: owner } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: owner.id, title: "Payroll export fails" });
    const { cookie: other } = await signedInAs(t.app, t.database.db, "user");
    const page = await openPage(`/tickets/${ticket.id}`, other);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain("Payroll export fails");
    expect(page.body).not.toContain("data-drawn");
    // Nor can they comment on it by form.
    const answer = await postForm(`/tickets/${ticket.id}`, other, {
      form: "ticket-comment",
      message: "Mine now",
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain("Payroll export fails");
    expect(await commentsOf(ticket.id, (await signedInAs(t.app, t.database.db, "admin")).cookie)).toEqual([]);
  });
});

describe("commenting without the app's code", () => {
  it("adds the comment through the API and comes back to the ticket, saying so", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const answer = await postForm(`/tickets/${ticket.id}`, cookie, {
      form: "ticket-comment",
      message: "Still jamming today.",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/tickets/${ticket.id}?done=comment-added`);
    expect((await commentsOf(ticket.id, cookie)).map((comment) => comment.message)).toEqual([
      "Still jamming today.",
    ]);
    const page = await openPage(answer.headers.location!, cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<p role="status"[^>]*>.*Comment added successfully/s);
    expect(page.body).toContain("Still jamming today.");
  });

  it("refuses an empty comment with the message at the box, and stores nothing", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id, title: "Badge reader" });
    const page = await postForm(`/tickets/${ticket.id}`, cookie, {
      form: "ticket-comment",
      message: "  \n ",
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain("Badge reader");
    expect(page.body).toMatch(/<p id="[^"]*-error" class="[^"]*">Comment cannot be empty<\/p>/);
    expect(await commentsOf(ticket.id, cookie)).toEqual([]);
  });

  it("lets staff add an internal note by form, which the requester never sees", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const { cookie: admin } = await signedInAs(t.app, t.database.db, "admin");
    const answer = await postForm(`/tickets/${ticket.id}`, admin, {
      form: "ticket-comment",
      message: "Vendor contract expired.",
      isInternal: "on",
    });
    expect(answer.headers.location).toBe(`/tickets/${ticket.id}?done=note-added`);
    expect(await commentsOf(ticket.id, admin)).toMatchObject([{ isInternal: true }]);
    expect(await commentsOf(ticket.id, cookie)).toEqual([]);
  });

  it("refuses a comment posted from another site", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const answer = await postForm(
      `/tickets/${ticket.id}`,
      cookie,
      { form: "ticket-comment", message: "From elsewhere" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(answer.statusCode).toBe(403);
    expect(await commentsOf(ticket.id, cookie)).toEqual([]);
  });
});

describe("changing a ticket's status without the app's code", () => {
  it("lets a technician change it by the button pressed, and says so on the ticket", async () => {
    const { user } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const { cookie: technician } = await signedInAs(t.app, t.database.db, "technician");
    const answer = await postForm(`/tickets/${ticket.id}`, technician, {
      form: "ticket-status",
      status: "In Progress",
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/tickets/${ticket.id}?done=status-updated`);
    expect((await ticketOf(ticket.id, technician)).status).toBe("In Progress");
    const page = await openPage(answer.headers.location!, technician);
    expect(page.body).toMatch(/<p role="status"[^>]*>.*Ticket status updated to In Progress/s);
  });

  it("shows a user the API's refusal, 403, and changes nothing", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id, title: "Desk phone dead" });
    const page = await postForm(`/tickets/${ticket.id}`, cookie, { form: "ticket-status", status: "Closed" });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain("Desk phone dead");
    expect(page.body).toMatch(
      new RegExp(
        `<div role="alert".*Failed to update ticket status: ${inHtml("Only technicians and administrators can change a ticket's status")}`,
        "s",
      ),
    );
    expect((await ticketOf(ticket.id, cookie)).status).toBe("Open");
  });

  it("lets a technician take an open ticket with Assign to Me", async () => {
    const { user } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const { user: tech, cookie: technician } = await signedInAs(t.app, t.database.db, "technician");
    expect(formTag((await openPage(`/tickets/${ticket.id}`, technician)).body, "ticket-assign")).toContain(
      'method="post"',
    );
    const answer = await postForm(`/tickets/${ticket.id}`, technician, { form: "ticket-assign" });
    expect(answer.headers.location).toBe(`/tickets/${ticket.id}?done=ticket-assigned`);
    expect(await ticketOf(ticket.id, technician)).toMatchObject({
      assignedTo: tech.id,
      status: "In Progress",
    });
  });

  it("answers a form the page does not have with 404", async () => {
    const { user, cookie } = await signedInAs(t.app, t.database.db, "user");
    const ticket = await insertTicket(t.database.db, { createdBy: user.id });
    const answer = await postForm(`/tickets/${ticket.id}`, cookie, { form: "delete-ticket" });
    expect(answer.statusCode).toBe(404);
  });
});
