import { zodResolver } from "@hookform/resolvers/zod";
import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, Textarea, TextField } from "#client/components/ui/field.tsx";
import {
  useCreateCannedResponse,
  useUpdateCannedResponse,
} from "#client/features/canned-responses/canned-responses.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  type CannedResponse,
  type CannedResponseScope,
  cannedResponseBodyMaxLength,
  cannedResponseTitleMaxLength,
  createCannedResponseInputSchema,
} from "#shared/canned-responses/canned-response.schemas.ts";
import { PlaceholderHelp, UnknownPlaceholderWarning } from "./placeholder-help.tsx";

// The scope is not a field of the form: it comes from the tab (or the response being edited).
// The example shows placeholders as typed: passed as values, so the message format leaves their braces alone.
const firstNamePlaceholder = "{{creator.firstName}}";
const ticketIdPlaceholder = "{{ticket.id}}";

const formSchema = createCannedResponseInputSchema.pick({ title: true, body: true });
interface FormValues {
  title: string;
  body: string;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

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
  const { t } = useLingui();
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
        toast.success(t`Response saved`);
      } else {
        await create.mutateAsync({ title, body, scope });
        toast.success(t`Response created`);
      }
      onClose();
    } catch (error) {
      setServerError(messageOf(error));
    }
  });

  const title = response
    ? isShared
      ? t`Edit shared response`
      : t`Edit personal response`
    : isShared
      ? t`New shared response`
      : t`New personal response`;
  return (
    <Dialog
      title={title}
      description={
        isShared ? t`Every technician and administrator can insert it.` : t`Only you can see and insert it.`
      }
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSave} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`Title`}
          error={errors.title?.message}
          autoComplete="off"
          maxLength={cannedResponseTitleMaxLength}
          {...register("title")}
        />
        <Field label={t`Text`} htmlFor={`${id}-body`} error={errors.body?.message}>
          <Textarea
            id={`${id}-body`}
            invalid={errors.body !== undefined}
            rows={7}
            maxLength={cannedResponseBodyMaxLength}
            aria-describedby={errors.body ? undefined : `${id}-help`}
            placeholder={t`Hi ${firstNamePlaceholder},\n\nthanks for reporting ${ticketIdPlaceholder}…`}
            {...register("body")}
          />
        </Field>
        <UnknownPlaceholderWarning body={watch("body")} />
        <PlaceholderHelp id={`${id}-help`} />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {response ? t`Save` : t`Create response`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
