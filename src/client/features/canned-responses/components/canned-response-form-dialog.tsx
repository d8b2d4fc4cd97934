import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import {
  type CannedResponse,
  type CannedResponseScope,
  cannedResponseBodyMaxLength,
  cannedResponseTitleMaxLength,
  createCannedResponseInputSchema,
} from "#shared/canned-responses/canned-response.schemas.ts";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { Field, Textarea, TextField } from "../../../components/ui/field.tsx";
import { toast } from "../../../lib/toast.ts";
import { useCreateCannedResponse, useUpdateCannedResponse } from "../canned-responses.api.ts";
import { PlaceholderHelp, UnknownPlaceholderWarning } from "./placeholder-help.tsx";

// The scope is not a field of the form: it comes from the tab (or the response being edited).
const formSchema = createCannedResponseInputSchema.pick({ title: true, body: true });
interface FormValues {
  title: string;
  body: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : "Something went wrong.");

/**
 * Create (`response` absent, in `scope`) or edit a response. The scope is chosen by the tab it is created
 * from and never changes afterwards; the server has the last word on who may write it.
 */
export function CannedResponseFormDialog({
  response,
  scope,
  onClose,
}: {
  response?: CannedResponse;
  scope: CannedResponseScope;
  onClose: () => void;
}) {
  const id = useId();
  const create = useCreateCannedResponse();
  const update = useUpdateCannedResponse(response?.id ?? "");
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { title: response?.title ?? "", body: response?.body ?? "" },
  });
  const isShared = (response?.scope ?? scope) === "shared";

  const handleSave = handleSubmit(async ({ title, body }) => {
    setServerError(null);
    try {
      if (response) {
        await update.mutateAsync({ title, body });
        toast.success("Response saved");
      } else {
        await create.mutateAsync({ title, body, scope });
        toast.success("Response created");
      }
      onClose();
    } catch (error) {
      setServerError(messageOf(error));
    }
  });

  const what = isShared ? "shared response" : "personal response";
  return (
    <Dialog
      title={response ? `Edit ${what}` : `New ${what}`}
      description={
        isShared ? "Every technician and administrator can insert it." : "Only you can see and insert it."
      }
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSave} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label="Title"
          error={errors.title?.message}
          autoComplete="off"
          maxLength={cannedResponseTitleMaxLength}
          {...register("title")}
        />
        <Field label="Text" htmlFor={`${id}-body`} error={errors.body?.message}>
          <Textarea
            id={`${id}-body`}
            invalid={errors.body !== undefined}
            rows={7}
            maxLength={cannedResponseBodyMaxLength}
            aria-describedby={errors.body ? undefined : `${id}-help`}
            placeholder={"Hi {{creator.firstName}},\n\nthanks for reporting {{ticket.id}}…"}
            {...register("body")}
          />
        </Field>
        <UnknownPlaceholderWarning body={watch("body")} />
        <PlaceholderHelp id={`${id}-help`} />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {response ? "Save" : "Create response"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
