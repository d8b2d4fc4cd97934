import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Copy, Plus, Webhook as WebhookIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { toast } from "react-toastify/unstyled";
import {
  createWebhookInputSchema,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookWithSecret,
  webhookDescriptionMaxLength,
  webhookEventLabels,
  webhookEventTypes,
  webhookUrlMaxLength,
} from "#shared/webhooks/webhook.schemas.ts";
import { Alert } from "../../../components/ui/alert.tsx";
import { Badge, type BadgeTone } from "../../../components/ui/badge.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { Field, TextField } from "../../../components/ui/field.tsx";
import { LoadFailed } from "../../../components/ui/load-failed.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliverWebhook,
  useRotateWebhookSecret,
  useUpdateWebhook,
  webhookDeliveriesQuery,
  webhookListQuery,
} from "../webhooks.api.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : "Something went wrong.");

type DialogState =
  | { kind: "create" }
  | { kind: "edit"; webhook: Webhook }
  | { kind: "secret"; created: WebhookWithSecret; isNew: boolean }
  | { kind: "rotate"; webhook: Webhook }
  | { kind: "delete"; webhook: Webhook };

/** Admin settings → Webhooks: endpoints that hear about ticket changes, and what was sent to each (decision 029). */
export function WebhookSettings() {
  const query = useQuery(webhookListQuery());
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [openLog, setOpenLog] = useState<string | null>(null);
  const close = () => setDialog(null);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-xl text-sm text-slate-600">
          Helpdesk POSTs signed JSON to these addresses when tickets change. Receivers check the signature
          with the endpoint's secret (see the API documentation, "Webhooks"). Internal notes are never sent.
        </p>
        <Button size="sm" onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          New webhook
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading webhooks" />
        </div>
      ) : query.isError ? (
        <LoadFailed message="The webhooks could not be loaded." onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-500">No webhooks yet.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Webhooks">
          {query.data.map((webhook) => (
            <li key={webhook.id} className="rounded-lg border border-slate-200 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <WebhookIcon aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                    <span className="break-all font-mono text-xs sm:text-sm">{webhook.url}</span>
                    {webhook.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Paused</Badge>}
                  </p>
                  {webhook.description ? <p className="mt-1 text-slate-600">{webhook.description}</p> : null}
                  <p className="mt-1 flex flex-wrap gap-1">
                    {webhook.events.map((event) => (
                      <Badge key={event} tone="indigo">
                        {webhookEventLabels[event]}
                      </Badge>
                    ))}
                  </p>
                  <p className="mt-1 text-xs text-slate-500">
                    Secret <span className="font-mono">{webhook.secretHint}</span> · Added{" "}
                    {formatDateTime(webhook.createdAt)}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-expanded={openLog === webhook.id}
                    aria-label={`Deliveries of ${webhook.url}`}
                    onClick={() => setOpenLog(openLog === webhook.id ? null : webhook.id)}
                  >
                    Deliveries
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Edit ${webhook.url}`}
                    onClick={() => setDialog({ kind: "edit", webhook })}
                  >
                    Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Rotate the secret of ${webhook.url}`}
                    onClick={() => setDialog({ kind: "rotate", webhook })}
                  >
                    Rotate secret
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${webhook.url}`}
                    onClick={() => setDialog({ kind: "delete", webhook })}
                  >
                    Delete
                  </Button>
                </div>
              </div>
              {openLog === webhook.id ? <DeliveryLog webhook={webhook} /> : null}
            </li>
          ))}
        </ul>
      )}
      {dialog?.kind === "create" || dialog?.kind === "edit" ? (
        <WebhookDialog
          webhook={dialog.kind === "edit" ? dialog.webhook : null}
          onClose={close}
          onCreated={(created) => setDialog({ kind: "secret", created, isNew: true })}
        />
      ) : null}
      {dialog?.kind === "secret" ? <SecretDialog {...dialog} onClose={close} /> : null}
      {dialog?.kind === "rotate" ? (
        <RotateDialog
          webhook={dialog.webhook}
          onClose={close}
          onRotated={(created) => setDialog({ kind: "secret", created, isNew: false })}
        />
      ) : null}
      {dialog?.kind === "delete" ? <DeleteDialog webhook={dialog.webhook} onClose={close} /> : null}
    </div>
  );
}

function WebhookDialog({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: Webhook | null;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const id = useId();
  const [url, setUrl] = useState(webhook?.url ?? "");
  const [description, setDescription] = useState(webhook?.description ?? "");
  const [events, setEvents] = useState<WebhookEventType[]>(webhook?.events ?? ["ticket.created"]);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [errors, setErrors] = useState<{ url?: string; description?: string; events?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);

  const toggle = (event: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, event] : current.filter((e) => e !== event)));

  async function handleSubmit(submit: FormEvent) {
    submit.preventDefault();
    const parsed = createWebhookInputSchema.safeParse({ url, description, events, active });
    if (!parsed.success) {
      const about = (field: string) => parsed.error.issues.find((issue) => issue.path[0] === field)?.message;
      setErrors({ url: about("url"), description: about("description"), events: about("events") });
      return;
    }
    setErrors({});
    setServerError(null);
    try {
      if (webhook) {
        await update.mutateAsync({ id: webhook.id, input: parsed.data });
        toast.success("Webhook saved");
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
      title={webhook ? "Edit webhook" : "New webhook"}
      description="Helpdesk will POST signed JSON to this address when the chosen events happen."
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        {serverError ? <Alert>{serverError}</Alert> : null}
        <TextField
          label="URL"
          type="url"
          error={errors.url}
          autoComplete="off"
          placeholder="https://chat.example.com/hooks/helpdesk"
          maxLength={webhookUrlMaxLength}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
        />
        <TextField
          label="Description"
          error={errors.description}
          autoComplete="off"
          placeholder="Team chat"
          maxLength={webhookDescriptionMaxLength}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <fieldset aria-describedby={errors.events ? `${id}-events-error` : undefined}>
          <legend className="text-sm font-medium text-slate-700">Events</legend>
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
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={active}
            onChange={(event) => setActive(event.target.checked)}
          />
          Active (send deliveries)
        </label>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {webhook ? "Save webhook" : "Add webhook"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function SecretDialog({
  created,
  isNew,
  onClose,
}: {
  created: WebhookWithSecret;
  isNew: boolean;
  onClose: () => void;
}) {
  const secretId = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast.success("Secret copied");
    } catch {
      toast.error("The browser did not allow copying. Select the secret and copy it.");
    }
  }
  return (
    <Dialog
      title={isNew ? "Webhook added" : "New secret"}
      description="Copy the signing secret now: it is shown only once. Your receiver needs it to check each delivery's signature."
      onClose={onClose}
    >
      <div className="flex flex-col gap-4">
        <Field label="Signing secret" htmlFor={secretId}>
          <div className="flex gap-2">
            <input
              id={secretId}
              readOnly
              value={created.secret}
              onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900"
            />
            <Button variant="secondary" onClick={() => void copy()}>
              <Copy aria-hidden="true" className="size-4" />
              Copy
            </Button>
          </div>
        </Field>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    </Dialog>
  );
}

function RotateDialog({
  webhook,
  onClose,
  onRotated,
}: {
  webhook: Webhook;
  onClose: () => void;
  onRotated: (created: WebhookWithSecret) => void;
}) {
  const rotate = useRotateWebhookSecret();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      title="Rotate the secret?"
      description={`Deliveries to ${webhook.url} are signed with a new secret from now on, retries included. Update the receiver right away.`}
      onClose={onClose}
    >
      {error ? <Alert>{error}</Alert> : null}
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
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
          Rotate secret
        </Button>
      </div>
    </Dialog>
  );
}

function DeleteDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const remove = useDeleteWebhook();
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      title="Delete this webhook?"
      description={`Nothing more is sent to ${webhook.url}, and its delivery log is deleted with it.`}
      onClose={onClose}
    >
      {error ? <Alert>{error}</Alert> : null}
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={remove.isPending}
          onClick={async () => {
            try {
              await remove.mutateAsync(webhook.id);
              toast.success("Webhook deleted");
              onClose();
            } catch (failure) {
              setError(messageOf(failure));
            }
          }}
        >
          Delete
        </Button>
      </div>
    </Dialog>
  );
}

const statusTone: Record<WebhookDelivery["status"], BadgeTone> = {
  pending: "amber",
  delivered: "green",
  failed: "red",
};
const statusLabel: Record<WebhookDelivery["status"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
};

function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const query = useInfiniteQuery({ ...webhookDeliveriesQuery(webhook.id), refetchInterval: 5_000 });
  const redeliver = useRedeliverWebhook();
  const deliveries = query.data?.pages.flatMap((page) => page.items) ?? [];

  async function handleRedeliver(delivery: WebhookDelivery) {
    try {
      await redeliver.mutateAsync({ webhookId: webhook.id, deliveryId: delivery.id });
      toast.success("Redelivery queued");
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  return (
    <section aria-label={`Deliveries to ${webhook.url}`} className="mt-4 border-t border-slate-100 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">Deliveries</h3>
      {query.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner label="Loading deliveries" />
        </div>
      ) : query.isError ? (
        <LoadFailed message="The deliveries could not be loaded." onRetry={() => void query.refetch()} />
      ) : deliveries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">Nothing sent yet.</p>
      ) : (
        <>
          <ul className="mt-2 flex flex-col divide-y divide-slate-100">
            {deliveries.map((delivery) => (
              <li
                key={delivery.id}
                className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm"
                aria-label={`${webhookEventLabels[delivery.eventType]}, ${statusLabel[delivery.status]}`}
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <Badge tone={statusTone[delivery.status]}>{statusLabel[delivery.status]}</Badge>
                    <span className="font-medium text-slate-900">
                      {webhookEventLabels[delivery.eventType]}
                    </span>
                    {delivery.responseStatus !== null ? (
                      <span className="font-mono text-xs text-slate-700">HTTP {delivery.responseStatus}</span>
                    ) : null}
                    {delivery.redeliveryOf ? <Badge tone="slate">Redelivery</Badge> : null}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time> ·{" "}
                    {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"}
                    {delivery.nextAttemptAt
                      ? ` · next attempt ${formatDateTime(delivery.nextAttemptAt)}`
                      : ""}
                  </p>
                  {delivery.error ? (
                    <p className="mt-0.5 break-words text-xs text-red-700">{delivery.error}</p>
                  ) : null}
                  {delivery.responseBody ? (
                    <details className="mt-0.5 text-xs text-slate-600">
                      <summary className="cursor-pointer">Response</summary>
                      <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 font-mono">
                        {delivery.responseBody}
                      </pre>
                    </details>
                  ) : null}
                </div>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={redeliver.isPending}
                  onClick={() => void handleRedeliver(delivery)}
                >
                  Redeliver
                </Button>
              </li>
            ))}
          </ul>
          {query.hasNextPage ? (
            <Button
              size="sm"
              variant="ghost"
              className="mt-2"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              Show older deliveries
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
