import { t as tc } from "@lingui/core/macro";
import { type FormEvent, useState } from "react";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";
import { type CreateTicketInput, createTicketDefaults } from "#shared/tickets/ticket.schemas.ts";
import { type EditableTicketField, editableTicketFields } from "#shared/tickets/ticket-edit.ts";

// The Create New Ticket form posted without the app's code and drawn again with the server's answer
// (decision 065, create-ticket-form.tsx): the values it was sent with and the API's messages.

/** The fields of the form itself (a ticket's editable fields are exactly these); a custom field is `customFields.<id>`. */
export const formFields = editableTicketFields;
export type FormField = EditableTicketField;
const isFormField = (name: string): name is FormField => formFields.some((field) => field === name);

/** The form's values as a form posted without the code sent them, over its defaults. */
function startValuesOf(answer: FormAnswer | null | undefined): CreateTicketInput {
  if (!answer) return createTicketDefaults;
  const sent = (name: string) => {
    const value = answer.values[name];
    return typeof value === "string" ? value : undefined;
  };
  // A custom field's several ticked choices come as a list.
  const customFields = Object.fromEntries(
    Object.entries({ ...answer.values, ...answer.lists }).flatMap(([name, value]) =>
      name.startsWith("customFields.") ? [[name.slice("customFields.".length), value]] : [],
    ),
  );
  return {
    ...createTicketDefaults,
    ...Object.fromEntries(
      formFields.flatMap((name) => (sent(name) === undefined ? [] : [[name, sent(name)]])),
    ),
    ...(Object.keys(customFields).length > 0 ? { customFields } : {}),
  };
}

/** What the app's toast says when the API refuses the ticket (or the request fails). */
const refusalToast = (status: number) =>
  status === 403
    ? tc`You do not have permission to create tickets`
    : status >= 400 && status < 500
      ? tc`Failed to create ticket`
      : tc`Error creating ticket`;

/** An answer the form cannot show at its fields alone: no field named, or one it does not have. */
const isForTheWholeForm = ({ fieldErrors }: FormAnswer) =>
  !fieldErrors ||
  Object.keys(fieldErrors).some((name) => !isFormField(name) && !name.startsWith("customFields."));

/**
 * The form posted without the app's code, drawn again (decision 065): the values it starts from, the
 * API's messages at their fields until the next try, and its message for the whole form.
 */
export function useAnswered(answer: FormAnswer | null | undefined) {
  const [start] = useState(() => startValuesOf(answer));
  const [fieldErrors, setFieldErrors] = useState(() => answer?.fieldErrors ?? {});
  const formError =
    answer && isForTheWholeForm(answer) ? `${refusalToast(answer.status)}: ${answer.message}` : null;
  return {
    start,
    fieldErrors,
    formError,
    /** The form's submit handler, which drops the answer's messages first: the next try has its own. */
    clearing:
      (submit: (event: FormEvent<HTMLFormElement>) => Promise<void>) =>
      (event: FormEvent<HTMLFormElement>) => {
        setFieldErrors({});
        return submit(event);
      },
  };
}
