import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { TextField } from "#client/components/ui/field.tsx";
import { ShownOnceDialog } from "#client/components/ui/shown-once-dialog.tsx";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useUpdateWebhook,
} from "#client/features/webhooks/webhooks.api.ts";
import { toast } from "#client/lib/toast.ts";
import {
  createWebhookInputSchema,
  defaultWebhookFailureLimit,
  maxWebhookFailureLimit,
  type Webhook,
  type WebhookEventType,
  type WebhookWithSecret,
  webhookDescriptionMaxLength,
  webhookEventLabels,
  webhookEventTypes,
  webhookUrlMaxLength,
} from "#shared/webhooks/webhook.schemas.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

/** Adding (webhook null) or editing an endpoint. */
export function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: Webhook | null;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const { t } = useLingui();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const id = useId();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [description, setDescription] = useState(webhook?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.events ?? ["ticket.created"]);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [failureLimit, setFailureLimit] = useState(
    String(webhook?.failureLimit ?? defaultWebhookFailureLimit),
  );
  const [errors, setErrors] = useState<{
    url?: string;
    description?: string;
    events?: string;
    failureLimit?: string;
  }>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const toggle = (event: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));

  async function handleSubmit(submit: FormEvent) {
    submit.preventDefault();
    const parsed = createWebhookInputSchema.safeParse({
      url,
      description,
      events,
      active,
      // An empty box is not 0 ("never"): it is refused as not a number.
      failureLimit: failureLimit.trim() === "" ? Number.NaN : Number(failureLimit),
    });
    if (!parsed.success) {
      const about = (field: string) => parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setErrors({
        url: about("url"),
        description: about("description"),
        events: about("events"),
        failureLimit: about("failureLimit"),
      });
      return;
    }
    setErrors({});
    setServerError(null);
    try {
      if (webhook) {
        await update.mutateAsync({ id: webhook.id, input: parsed.data });
        toast.success(t`Webhook saved`);
        onClose();
      } else {
        onCreated(await create.mutateAsync(parsed.data));
      }
    } catch (error) {
      const message = messageOf(error);
      // The server's target check (private addresses, names that do not resolve) names the URL field.
      if (message.startsWith("url: ")) setErrors({ url: message.slice(5) });
      else setServerError(message);
    }
  }

  return (
    <Dialog
      title={webhook ? t`Edit webhook` : t`New webhook`}
      description={t`Helpdesk will POST signed JSON to this address when the chosen events happen.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label={t`URL`}
          type="url"
          error={errors.url}
          autoComplete="off"
          placeholder="https://chat.example.com/hooks/helpdesk"
          maxLength={webhookUrlMaxLength}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <TextField
          label={t`Description`}
          error={errors.description}
          autoComplete="off"
          placeholder={t`Team chat`}
          maxLength={webhookDescriptionMaxLength}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset aria-describedby={errors.events ? `${id}-events-error` : undefined}>
          <legend className="text-sm font-medium text-slate-700">
            <Trans>Events</Trans>
          </legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {webhookEventTypes.map((event) => (
              <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300"
                  checked={events.includes(event)}
                  onChange={(change) => toggle(event, change.target.checked)}
                />
                {webhookEventLabels[event]}
              </label>
            ))}
          </div>
          {errors.events ? (
            <p id={`${id}-events-error`} className="mt-1 text-sm text-red-600">
              {errors.events}
            </p>
          ) : null}
        </fieldset>
        <TextField
          label={t`Switch off after this many failed deliveries in a row (0: never)`}
          type="number"
          inputMode="numeric"
          min={0}
          max={maxWebhookFailureLimit}
          error={errors.failureLimit}
          value={failureLimit}
          onChange={(event) => setFailureLimit(event.target.value)}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={active}
            onChange={(event) => setActive(event.target.checked)}
          />
          <Trans>Active (send deliveries)</Trans>
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {webhook ? t`Save webhook` : t`Add webhook`}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The signing secret, shown once after adding an endpoint or rotating its secret. */
export function SecretDialog({
  created,
  isNew,
  onClose,
}: {
  created: WebhookWithSecret;
  isNew: boolean;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ShownOnceDialog
      title={isNew ? t`Webhook added` : t`New secret`}
      description={t`Copy the signing secret now: it is shown only once. Your receiver needs it to check each delivery's signature.`}
      label={t`Signing secret`}
      value={created.secret}
      copiedMessage={t`Secret copied`}
      copyRefusedMessage={t`The browser did not allow copying. Select the secret and copy it.`}
      onClose={onClose}
    />
  );
}

export function RotateDialog({
  webhook,
  onClose,
  onRotated,
}: {
  webhook: Webhook;
  onClose: () => void;
  onRotated: (created: WebhookWithSecret) => void;
}) {
  const { t } = useLingui();
  const rotate = useRotateWebhookSecret();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      title={t`Rotate the secret?`}
      description={t`Deliveries to ${webhook.url} are signed with a new secret from now on, retries included. Update the receiver right away.`}
      onClose={onClose}
    >
      {error ? <Alert>{error}</Alert> : null}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          disabled={rotate.isPending}
          onClick={async () => {
            try {
              onRotated(await rotate.mutateAsync(webhook.id));
            } catch (failure) {
              setError(messageOf(failure));
            }
          }}
        >
          <Trans>Rotate secret</Trans>
        </Button>
      </div>
    </Dialog>
  );
}

export function DeleteDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t } = useLingui();
  const remove = useDeleteWebhook();
  return (
    <ConfirmDialog
      title={t`Delete this webhook?`}
      description={t`Nothing more is sent to ${webhook.url}, and its delivery log is deleted with it.`}
      confirmLabel={t`Delete`}
      successMessage={t`Webhook deleted`}
      onConfirm={() => remove.mutateAsync(webhook.id)}
      onClose={onClose}
    />
  );
}
