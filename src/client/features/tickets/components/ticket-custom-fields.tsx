import { t } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import {
  ticketCustomFieldsQuery,
  useEditTicketCustomFields,
} from "#client/features/tickets/custom-fields.api.ts";
import { toast } from "#client/lib/toast.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { validationText } from "#client/lib/validation-text.ts";
import type {
  CustomFieldType,
  TicketCustomFields as TicketCustomFieldsData,
} from "#shared/custom-fields/custom-field.schemas.ts";
import {
  type CustomFieldValue,
  formatCustomFieldValue,
  valuesSchemaFor,
} from "#shared/custom-fields/custom-field-values.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import { CustomFieldInputs } from "./custom-field-inputs.tsx";

/** The ticket's custom field values (retired fields' old values too); staff edit the active ones. */
export function TicketCustomFields({ ticket }: { ticket: Ticket }) {
  const { t } = useLingui();
  const actor = useActor();
  const query = useQuery(ticketCustomFieldsQuery(ticket.ticketId));
  const [isEditing, setIsEditing] = useState(false);
  const items = query.data?.items ?? [];
  if (items.length === 0) return null;
  const mayEdit = actor ? can.editTicketDetails(actor, ticket) : false;

  return (
    <Card className="p-5" role="region" aria-label={t`Additional details`}>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-slate-900">
          <Trans>Additional details</Trans>
        </h2>
        {mayEdit && !isEditing && items.some((item) => !item.field.retired) ? (
          <Button variant="secondary" size="sm" onClick={() => setIsEditing(true)}>
            <Trans>Edit</Trans>
          </Button>
        ) : null}
      </div>
      {isEditing ? (
        <EditCustomFields ticket={ticket} items={items} onDone={() => setIsEditing(false)} />
      ) : (
        <dl className="mt-3 divide-y divide-slate-100 text-sm">
          {items.map(({ field, value }) => (
            <div key={field.id} className="flex items-center justify-between gap-4 py-2.5">
              <dt className="text-slate-500">
                {field.label}{" "}
                {field.retired ? (
                  <Badge tone="slate">
                    <Trans>Retired</Trans>
                  </Badge>
                ) : null}
              </dt>
              <dd className="text-right font-medium break-words text-slate-900">
                {formatCustomFieldValue(field, value)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** A stored value as the inputs hold it (numbers as text, nothing chosen as an empty list or unticked). */
function formValueOf(type: CustomFieldType, value: CustomFieldValue | null): unknown {
  if (value === null) return type === "multiple_choice" ? [] : type === "checkbox" ? false : "";
  return typeof value === "number" ? String(value) : value;
}

type EditForm = { customFields: Record<string, unknown> };

function EditCustomFields({
  ticket,
  items,
  onDone,
}: {
  ticket: Ticket;
  items: TicketCustomFieldsData["items"];
  onDone: () => void;
}) {
  const id = useId();
  const save = useEditTicketCustomFields(ticket.ticketId);
  const [serverError, setServerError] = useState<string | null>(null);
  const editable = items.filter((item) => !item.field.retired);
  const definitions = editable.map((item) => item.field);
  const { register, handleSubmit, setError, formState } = useForm<EditForm>({
    defaultValues: {
      customFields: Object.fromEntries(
        editable.map(({ field, value }) => [field.id, formValueOf(field.type, value)]),
      ),
    },
  });

  const handleSave = handleSubmit(async ({ customFields }) => {
    setServerError(null);
    // Only the fields asked for the ticket's category are sent (a field of another category is shown only).
    const parsed = valuesSchemaFor(definitions, ticket.category).safeParse(
      Object.fromEntries(
        Object.entries(customFields).filter(([fieldId]) =>
          definitions.some(
            (field) =>
              field.id === fieldId && (field.category === null || field.category === ticket.category),
          ),
        ),
      ),
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        setError(`customFields.${String(issue.path[0])}`, { type: "custom", message: issue.message });
      }
      return;
    }
    try {
      await save.mutateAsync(parsed.data);
      toast.success(t`Details saved`);
      onDone();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The details could not be saved`);
    }
  });

  const errors = formState.errors.customFields as
    | Record<string, { message?: string } | undefined>
    | undefined;
  return (
    <form noValidate onSubmit={handleSave} className="mt-3 grid grid-cols-1 gap-4 sm:grid-cols-3">
      <CustomFieldInputs
        fields={definitions.filter((field) => field.category === null || field.category === ticket.category)}
        register={(name) => register(name)}
        errorOf={(fieldId) => validationText(errors?.[fieldId]?.message)}
        idPrefix={`${id}-cf`}
      />
      {serverError ? (
        <div className="sm:col-span-3">
          <Alert>{serverError}</Alert>
        </div>
      ) : null}
      <div className="flex justify-end gap-2 sm:col-span-3">
        <Button variant="secondary" size="sm" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" size="sm" disabled={formState.isSubmitting}>
          <Trans>Save details</Trans>
        </Button>
      </div>
    </form>
  );
}
