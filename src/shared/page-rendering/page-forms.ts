// The forms that work without the app's code (decision 065), as the pages that draw them and the server's
// handlers that answer them (src/server/http/page-form-list.ts) both name them. Kept out of
// server-rendered.ts, which the app's entry imports: what only the pages use stays in their chunks.

/**
 * The hidden field that says which form was posted, where a page has several (the ticket page's comment,
 * status and assignment forms): a form's `name` attribute is not sent.
 */
export const formNameField = "form";

/** The ticket forms, by their `name` attribute, which their hidden field formNameField also sends. */
export const ticketFormNames = {
  createTicket: "create-ticket",
  comment: "ticket-comment",
  status: "ticket-status",
  assign: "ticket-assign",
} as const;

/**
 * A form posted without the app's code that went through is answered with a redirect (decision 065); the
 * page it lands on says what the app's toast would have said, once, from this parameter
 * (src/client/lib/form-done.ts): `?done=comment-added`.
 */
export const formDoneParam = "done";

export const formDone = {
  ticketCreated: "ticket-created",
  commentAdded: "comment-added",
  noteAdded: "note-added",
  statusUpdated: "status-updated",
  ticketAssigned: "ticket-assigned",
  registered: "registered",
} as const;
export type FormDone = (typeof formDone)[keyof typeof formDone];

const isFormDone = (value: string | null): value is FormDone =>
  Object.values(formDone).some((done) => done === value);

/** What went through, from a page's parameters; null when nothing was said, or something unknown. */
export function formDoneOf(search: URLSearchParams): FormDone | null {
  const done = search.get(formDoneParam);
  return isFormDone(done) ? done : null;
}

/** `path` (with its own parameters, if any) and `done=…`, for the redirect after a form that went through. */
export function withFormDone(path: string, done: FormDone): string {
  const [pathname, search = ""] = path.split("?", 2);
  const params = new URLSearchParams(search);
  params.set(formDoneParam, done);
  return `${pathname}?${params}`;
}
