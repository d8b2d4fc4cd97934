import { zodResolver } from "@hookform/resolvers/zod";
import { t } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { LoaderCircle, PencilLine } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { useEditTicket } from "#client/features/tickets/ticket.api.ts";
import { priorityLabels } from "#client/features/tickets/ticket-labels.ts";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import { toast } from "#client/lib/toast.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { validationText } from "#client/lib/validation-text.ts";
import { can } from "#shared/permissions.ts";
import { type Ticket, ticketCategories, ticketPriorities } from "#shared/tickets/ticket.schemas.ts";
import {
  type DescriptionForm,
  descriptionFormSchema,
  type EditTicketInput,
  type TicketDetailsForm,
  ticketDetailFields,
  ticketDetailsFormSchema,
} from "#shared/tickets/ticket-edit.ts";

/**
 * "Edit" for staff (can.editTicketDetails) and "Edit description" for the creator while the ticket is
 * Open (can.editDescription). Each opens a dialog with the create form's fields and labels.
 */
export function TicketEditButtons({ ticket }: { ticket: Ticket }) {
  const actor = useActor();
  const [open, setOpen] = useState<"details" | "description" | null>(null);
  if (!actor) return null;
  const canEditDetails = can.editTicketDetails(actor, ticket);
  const canEditDescription = can.editDescription(actor, ticket);
  if (!canEditDetails && !canEditDescription) return null;
  const close = () => setOpen(null);

  return (
    <div className="flex flex-wrap gap-2">
      {canEditDetails ? (
        <Button variant="secondary" size="sm" onClick={() => setOpen("details")}>
          <PencilLine aria-hidden="true" className="size-4" />
          <Trans>Edit</Trans>
        </Button>
      ) : null}
      {canEditDescription ? (
        <Button variant="secondary" size="sm" onClick={() => setOpen("description")}>
          <PencilLine aria-hidden="true" className="size-4" />
          <Trans>Edit description</Trans>
        </Button>
      ) : null}
      {open === "details" ? <EditDetailsDialog ticket={ticket} onClose={close} /> : null}
      {open === "description" ? <EditDescriptionDialog ticket={ticket} onClose={close} /> : null}
    </div>
  );
}

interface DialogProps {
  ticket: Ticket;
  onClose: () => void;
}

/** Sends what the person changed: a field someone else changed meanwhile is never reverted by this form. */
function useSaveChanges(ticket: Ticket, onClose: () => void) {
  const edit = useEditTicket(ticket.ticketId);
  const [serverError, setServerError] = useState<string | null>(null);
  const save = async (changes: EditTicketInput) => {
    setServerError(null);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    try {
      await edit.mutateAsync(changes);
      toast.success(t`Ticket updated`);
      onClose();
    } catch (error) {
      setServerError(error instanceof Error ? error.message : t`The ticket could not be updated.`);
    }
  };
  return { save, serverError };
}

function EditDetailsDialog({ ticket, onClose }: DialogProps) {
  const { t } = useLingui();
  const id = useId();
  const { save, serverError } = useSaveChanges(ticket, onClose);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TicketDetailsForm>({
    resolver: zodResolver(ticketDetailsFormSchema),
    defaultValues: Object.fromEntries(ticketDetailFields.map((field) => [field, ticket[field]])),
  });

  const handleSave = handleSubmit((values) =>
    save(
      Object.fromEntries(
        ticketDetailFields.flatMap((f) => (values[f] === ticket[f] ? [] : [[f, values[f]]])),
      ),
    ),
  );

  return (
    <Dialog title={t`Edit ticket`} description={ticket.ticketId} onClose={onClose}>
      <form noValidate onSubmit={handleSave} className="grid grid-cols-1 gap-4 sm:grid-cols-6">
        <TextField
          label={t`Title`}
          error={validationText(errors.title?.message)}
          className="sm:col-span-6"
          autoComplete="off"
          {...register("title")}
        />
        <Field
          label={t`Category`}
          htmlFor={`${id}-category`}
          error={validationText(errors.category?.message)}
          className="sm:col-span-3"
        >
          <Select
            id={`${id}-category`}
            {...register("category")}
            options={labelledOptions(ticketCategories, categoryLabels)}
          />
        </Field>
        <Field
          label={t`Priority`}
          htmlFor={`${id}-priority`}
          error={validationText(errors.priority?.message)}
          className="sm:col-span-3"
        >
          <Select
            id={`${id}-priority`}
            {...register("priority")}
            options={labelledOptions(ticketPriorities, priorityLabels)}
          />
        </Field>
        <TextField
          label={t`Department`}
          error={validationText(errors.department?.message)}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("department")}
        />
        <TextField
          label={t`Floor`}
          error={validationText(errors.floor?.message)}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("floor")}
        />
        <TextField
          label={t`Office Number`}
          error={validationText(errors.officeNumber?.message)}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("officeNumber")}
        />
        <FormEnd serverError={serverError} isSubmitting={isSubmitting} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function EditDescriptionDialog({ ticket, onClose }: DialogProps) {
  const { t } = useLingui();
  const id = useId();
  const { save, serverError } = useSaveChanges(ticket, onClose);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DescriptionForm>({
    resolver: zodResolver(descriptionFormSchema),
    defaultValues: { description: ticket.description },
  });
  const handleSave = handleSubmit(({ description }) =>
    save(description === ticket.description ? {} : { description }),
  );

  return (
    <Dialog
      title={t`Edit description`}
      description={t`You can change the description until a technician starts on the ticket.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSave} className="flex flex-col gap-4">
        <Field
          label={t`Description`}
          htmlFor={`${id}-description`}
          error={validationText(errors.description?.message)}
        >
          <Textarea
            id={`${id}-description`}
            invalid={errors.description !== undefined}
            rows={6}
            {...register("description")}
          />
        </Field>
        <FormEnd serverError={serverError} isSubmitting={isSubmitting} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function FormEnd({
  serverError,
  isSubmitting,
  onCancel,
}: {
  serverError: string | null;
  isSubmitting: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {serverError ? (
        <div className="sm:col-span-6">
          <Alert>{serverError}</Alert>
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3 sm:col-span-6">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          <Trans>Save changes</Trans>
        </Button>
      </div>
    </>
  );
}
