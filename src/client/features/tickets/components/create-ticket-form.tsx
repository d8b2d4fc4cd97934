import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { type ReactNode, type RefObject, useId, useRef, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import { FileDropZone } from "#client/components/ui/file-drop-zone.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { activeCustomFieldsQuery } from "#client/features/tickets/custom-fields.api.ts";
import { useCreateTicket } from "#client/features/tickets/ticket.api.ts";
import { priorityLabels } from "#client/features/tickets/ticket-labels.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { handlePastedFiles } from "#client/lib/attachment-upload.ts";
import { categoryLabels, labelledOptions } from "#client/lib/ticket-value-labels.ts";
import { toast } from "#client/lib/toast.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { validationText } from "#client/lib/validation-text.ts";
import type { CustomField } from "#shared/custom-fields/custom-field.schemas.ts";
import {
  fieldsForCategory,
  pickValuesFor,
  valuesSchemaFor,
} from "#shared/custom-fields/custom-field-values.ts";
import { formNameField, ticketFormNames } from "#shared/page-rendering/page-forms.ts";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";
import { can } from "#shared/permissions.ts";
import {
  type CreateTicketInput,
  createTicketDefaults,
  createTicketInputSchema,
  type Ticket,
  ticketCategories,
  ticketPriorities,
} from "#shared/tickets/ticket.schemas.ts";
import { AttachmentPicker } from "./attachment-picker.tsx";
import { type FormField, useAnswered } from "./create-ticket-answer.ts";
import { CustomFieldInputs } from "./custom-field-inputs.tsx";
import { useAttachmentUploads } from "./use-attachment-uploads.ts";

interface CreateTicketFormProps {
  onCreated?: (ticket: Ticket) => void;
  onCancel?: () => void;
  /**
   * The server's answer to this form posted without the app's code (decision 065): the form starts from
   * the values sent, with the API's messages at their fields. The page reads it (useFormAnswer) and hands
   * it on, as this form's code arrives after the page's.
   */
  answer?: FormAnswer | null;
  /** The id of a form that closes this one without the app's code (the page's toggle): Cancel submits it. */
  closeForm?: string;
  /** The departments admins keep, offered as suggestions; any other department can still be typed. */
  departments?: readonly string[];
  /**
   * Shown under the title as it is typed (the page passes the knowledge base's suggestions, decision 030);
   * `ticketsCreated` counts the tickets this form created, so a visit that ended in one is told apart.
   */
  titleAssist?: (props: { title: string; ticketsCreated: RefObject<number> }) => ReactNode;
}

/** Every field required; Hardware, Low, General and floor 1 to start with. */
export function CreateTicketForm({
  onCreated,
  onCancel,
  answer,
  closeForm,
  departments,
  titleAssist,
}: CreateTicketFormProps) {
  const { t } = useLingui();
  const actor = useActor();
  const headingId = useId();

  let body: ReactNode;
  if (actor === undefined) {
    body = (
      <p className="flex items-center gap-2 text-sm text-slate-500">
        <Spinner label={t`Loading`} /> <Trans>Loading user permissions</Trans>
      </p>
    );
  } else if (actor === null || !can.createTicket(actor)) {
    body = (
      <p className="text-sm text-slate-600">
        <Trans>Only users and administrators can create tickets</Trans>
      </p>
    );
  } else {
    body = (
      <TicketFields
        onCreated={onCreated}
        onCancel={onCancel}
        answer={answer}
        closeForm={closeForm}
        departments={departments}
        titleAssist={titleAssist}
      />
    );
  }

  return (
    <Card className="p-6" aria-labelledby={headingId} role="region">
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        <Trans>Create New Ticket</Trans>
      </h2>
      <p className="mt-1 mb-5 text-sm text-slate-500">
        <Trans>Describe the problem and where we can find you.</Trans>
      </p>
      {body}
    </Card>
  );
}

const baseResolver = zodResolver(createTicketInputSchema);

/**
 * The create form's rules plus the custom fields asked for the chosen category, checked by the same
 * builder the server uses (valuesSchemaFor); values typed for another category are left out.
 */
const resolverWithCustomFields =
  (definitions: readonly CustomField[]): Resolver<CreateTicketInput> =>
  async (values, context, options) => {
    const result = await baseResolver(values, context, options);
    const custom = valuesSchemaFor(definitions, values.category).safeParse(
      pickValuesFor(definitions, values.category, values.customFields),
    );
    if (custom.success) {
      if (Object.keys(result.errors).length > 0) return result;
      const { customFields: _typed, ...parsed } = result.values as CreateTicketInput;
      const hasValues = Object.keys(custom.data).length > 0;
      return { values: hasValues ? { ...parsed, customFields: custom.data } : parsed, errors: {} };
    }
    const customErrors = Object.fromEntries(
      custom.error.issues.map((issue) => [String(issue.path[0]), { type: "custom", message: issue.message }]),
    );
    return { values: {}, errors: { ...result.errors, customFields: customErrors } } as Awaited<
      ReturnType<Resolver<CreateTicketInput>>
    >;
  };

function TicketFields({
  onCreated,
  onCancel,
  answer,
  closeForm,
  departments,
  titleAssist,
}: CreateTicketFormProps) {
  const { t } = useLingui();
  const id = useId();
  const ticketsCreated = useRef(0);
  const createTicket = useCreateTicket();
  const answered = useAnswered(answer);
  const [serverError, setServerError] = useState<string | null>(answered.formError);
  const uploads = useAttachmentUploads();
  const definitions = useQuery(activeCustomFieldsQuery()).data?.items ?? [];
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateTicketInput>({
    resolver: resolverWithCustomFields(definitions),
    defaultValues: answered.start,
  });
  const askedFields = fieldsForCategory(definitions, watch("category"));
  const customFieldErrors = errors.customFields as
    | Record<string, { message?: string } | undefined>
    | undefined;
  const errorOf = (name: FormField) => validationText(errors[name]?.message ?? answered.fieldErrors[name]);

  const handleCreate = handleSubmit(async (input) => {
    setServerError(null);
    try {
      const ticket = await createTicket.mutateAsync(
        uploads.attachmentIds.length > 0 ? { ...input, attachmentIds: uploads.attachmentIds } : input,
      );
      // Before onCreated, which may close the form: its title assist must know the visit ended in a ticket.
      ticketsCreated.current += 1;
      toast.success(t`Ticket created successfully!`);
      reset(createTicketDefaults);
      uploads.clear();
      onCreated?.(ticket);
    } catch (error) {
      if (isApiError(error, 403)) {
        toast.error(t`You do not have permission to create tickets`);
        return;
      }
      // The server refused the ticket (4xx) vs. the request itself failed (network, 5xx): two messages.
      const refused = isApiError(error) && error.status >= 400 && error.status < 500;
      // A custom field the server refused (e.g. made required meanwhile) is shown at its field.
      const asked = new Set(askedFields.map((field) => field.id));
      for (const issue of refused ? error.issues : []) {
        const [root, fieldId] = issue.path;
        if (root === "customFields" && fieldId && asked.has(fieldId)) {
          setError(`customFields.${fieldId}`, { type: "server", message: issue.message });
        }
      }
      toast.error(refused ? t`Failed to create ticket` : t`Error creating ticket`);
      setServerError(error instanceof Error ? error.message : t`Error creating ticket`);
    }
  });

  // The starting values written into the page too: react-hook-form puts them in only once the code runs.
  const field = (name: FormField) => ({
    id: `${id}-${name}`,
    invalid: errorOf(name) !== undefined,
    defaultValue: answered.start[name],
    ...register(name),
  });
  const textField = (name: "title" | "department" | "floor" | "officeNumber") => ({
    error: errorOf(name),
    defaultValue: answered.start[name],
    ...register(name),
  });

  return (
    <FileDropZone onFiles={uploads.add}>
      {/* Posted to the page's address without the app's code (decision 065); with it, handleCreate sends it. */}
      <form
        method="post"
        name={ticketFormNames.createTicket}
        noValidate
        onSubmit={answered.clearing(handleCreate)}
        className="grid grid-cols-1 gap-5 sm:grid-cols-6"
      >
        <input type="hidden" name={formNameField} value={ticketFormNames.createTicket} />
        <TextField
          label={t`Title`}
          className="sm:col-span-6"
          placeholder={t`e.g. Laptop does not start`}
          autoComplete="off"
          {...textField("title")}
        />
        {titleAssist?.({ title: watch("title") ?? "", ticketsCreated })}
        <Field
          label={t`Description`}
          htmlFor={`${id}-description`}
          error={errorOf("description")}
          className="sm:col-span-6"
        >
          <Textarea
            {...field("description")}
            placeholder={t`What happened, and what have you tried?`}
            rows={4}
            onPaste={handlePastedFiles(uploads.add)}
          />
        </Field>
        <div className="sm:col-span-6">
          <AttachmentPicker uploads={uploads} />
        </div>
        <Field
          label={t`Category`}
          htmlFor={`${id}-category`}
          error={errorOf("category")}
          className="sm:col-span-3"
        >
          <Select {...field("category")} options={labelledOptions(ticketCategories, categoryLabels)} />
        </Field>
        <Field
          label={t`Priority`}
          htmlFor={`${id}-priority`}
          error={errorOf("priority")}
          className="sm:col-span-3"
        >
          <Select {...field("priority")} options={labelledOptions(ticketPriorities, priorityLabels)} />
        </Field>
        <CustomFieldInputs
          fields={askedFields}
          register={(name) => register(name)}
          errorOf={(fieldId) =>
            validationText(
              customFieldErrors?.[fieldId]?.message ?? answered.fieldErrors[`customFields.${fieldId}`],
            )
          }
          idPrefix={`${id}-cf`}
          posted={answer ? { ...answer.values, ...answer.lists } : undefined}
        />
        <TextField
          label={t`Department`}
          className="sm:col-span-2"
          autoComplete="off"
          suggestions={departments}
          {...textField("department")}
        />
        <TextField label={t`Floor`} className="sm:col-span-2" autoComplete="off" {...textField("floor")} />
        <TextField
          label={t`Office Number`}
          className="sm:col-span-2"
          placeholder={t`e.g. 214`}
          autoComplete="off"
          {...textField("officeNumber")}
        />
        {serverError ? (
          <div className="sm:col-span-6">
            <Alert>{serverError}</Alert>
          </div>
        ) : null}
        <FormButtons
          onCancel={onCancel}
          closeForm={closeForm}
          isSubmitting={isSubmitting}
          isUploading={uploads.isUploading}
        />
      </form>
    </FileDropZone>
  );
}

function FormButtons({
  onCancel,
  closeForm,
  isSubmitting,
  isUploading,
}: Pick<CreateTicketFormProps, "onCancel" | "closeForm"> & { isSubmitting: boolean; isUploading: boolean }) {
  return (
    <div className="flex flex-wrap justify-end gap-3 sm:col-span-6">
      {onCancel ? (
        // Without the app's code, it submits the page's toggle, which asks for the page with the form closed.
        <Button
          variant="secondary"
          type={closeForm ? "submit" : "button"}
          form={closeForm}
          onClick={(event) => {
            event.preventDefault();
            onCancel();
          }}
        >
          <Trans>Cancel</Trans>
        </Button>
      ) : null}
      <Button type="submit" disabled={isSubmitting || isUploading}>
        {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
        <Trans>Submit Ticket</Trans>
      </Button>
    </div>
  );
}
