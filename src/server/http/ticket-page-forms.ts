import type { CustomField, CustomFieldList } from "#shared/custom-fields/custom-field.schemas.ts";
import { fieldsForCategory } from "#shared/custom-fields/custom-field-values.ts";
import { formDone, ticketFormNames, withFormDone } from "#shared/page-rendering/page-forms.ts";
import { type TicketCategory, ticketCategories } from "#shared/tickets/ticket.schemas.ts";
import { type AskApi, type FormOutcome, type PageForm, refusedWith } from "./page-forms.ts";

// The ticket forms as plain HTML (decision 065): each is sent to the API route the app calls, and answered
// where the app would end: the same page, saying once what the app's toast says (`?done=…`,
// src/shared/page-rendering/page-forms.ts), or the page drawn again with the API's answer at the form.

type SubmitInput = Parameters<PageForm["submit"]>[0];

const isCategory = (value: string | undefined): value is TicketCategory =>
  ticketCategories.some((category) => category === value);

/**
 * The custom fields asked for the category chosen, as the app's form sends them (create-ticket-form.tsx):
 * a tick as true or false, several choices as a list, the rest as typed. The API checks them.
 */
async function customFieldsOf(
  ask: AskApi,
  posted: URLSearchParams,
  category: string | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (!isCategory(category)) return undefined;
  const answer = await ask("GET", "/api/custom-fields");
  if (answer.statusCode !== 200) return undefined;
  const asked = fieldsForCategory(answer.json<CustomFieldList>().items, category);
  if (asked.length === 0) return undefined;
  const sentValueOf = (field: CustomField) => {
    const name = `customFields.${field.id}`;
    if (field.type === "checkbox") return posted.has(name);
    if (field.type === "multiple_choice") return posted.getAll(name);
    return posted.get(name) ?? "";
  };
  return Object.fromEntries(asked.map((field) => [field.id, sentValueOf(field)]));
}

/**
 * /user-home's Create New Ticket. Gone through, the app stays on the home, says "Ticket created
 * successfully!" and closes the form, the new ticket first in the list: so does this, by a redirect to the
 * home without the form open (`?done=ticket-created`).
 */
async function createTicket({ fields, posted, url, ask }: SubmitInput): Promise<FormOutcome> {
  const customFields = await customFieldsOf(ask, posted, fields.category);
  const answer = await ask("POST", "/api/tickets", {
    title: fields.title ?? "",
    description: fields.description ?? "",
    category: fields.category ?? "",
    priority: fields.priority ?? "",
    department: fields.department ?? "",
    floor: fields.floor ?? "",
    officeNumber: fields.officeNumber ?? "",
    ...(customFields ? { customFields } : {}),
  });
  if (answer.statusCode !== 201) return refusedWith(answer);
  return { redirect: withFormDone(url.pathname, formDone.ticketCreated) };
}

const ticketApi = (params: SubmitInput["params"]) =>
  `/api/tickets/${encodeURIComponent(params.ticketId ?? "")}`;

/** A comment (or, for staff, an internal note) on the ticket; back to the ticket, which shows it. */
async function addComment({ fields, url, params, ask }: SubmitInput): Promise<FormOutcome> {
  // A ticked box sends its value; an unticked one sends nothing. A user's comment stays { message }.
  const isInternal = fields.isInternal !== undefined;
  const answer = await ask("POST", `${ticketApi(params)}/comments`, {
    message: fields.message ?? "",
    ...(isInternal ? { isInternal: true } : {}),
  });
  if (answer.statusCode !== 201) return refusedWith(answer);
  return { redirect: withFormDone(url.pathname, isInternal ? formDone.noteAdded : formDone.commentAdded) };
}

/** A status button (technicians and administrators): the button pressed sends its status. */
async function changeStatus({ fields, url, params, ask }: SubmitInput): Promise<FormOutcome> {
  const answer = await ask("PATCH", `${ticketApi(params)}/status`, { status: fields.status ?? "" });
  if (answer.statusCode !== 200) return refusedWith(answer);
  return { redirect: withFormDone(url.pathname, formDone.statusUpdated) };
}

/** Assign to Me (technicians): the technician becomes the assignee, the ticket In Progress. */
async function assignToMe({ url, params, ask }: SubmitInput): Promise<FormOutcome> {
  const answer = await ask("POST", `${ticketApi(params)}/assign`);
  if (answer.statusCode !== 200) return refusedWith(answer);
  return { redirect: withFormDone(url.pathname, formDone.ticketAssigned) };
}

export const ticketPageForms: PageForm[] = [
  { path: "/user-home", name: ticketFormNames.createTicket, submit: createTicket },
  { path: "/tickets/:ticketId", name: ticketFormNames.comment, submit: addComment },
  { path: "/tickets/:ticketId", name: ticketFormNames.status, submit: changeStatus },
  { path: "/tickets/:ticketId", name: ticketFormNames.assign, submit: assignToMe },
];
