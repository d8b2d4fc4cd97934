import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Plus, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { webhookListQuery } from "#client/features/webhooks/webhooks.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import {
  type Webhook,
  type WebhookWithSecret,
  webhookEventLabels,
} from "#shared/webhooks/webhook.schemas.ts";
import { DeliveryLog } from "./webhook-delivery-log.tsx";
import { DeleteDialog, RotateDialog, SecretDialog, WebhookDialog } from "./webhook-dialogs.tsx";
import { SendTestButton } from "./webhook-send-test.tsx";

/**
 * Why the app switched an endpoint off (decision 080), or how close it is: the failures in a row against
 * the endpoint's limit.
 */
function FailureNote({ webhook }: { webhook: Webhook }) {
  const { disabledAt, disabledReason, consecutiveFailures: failures, failureLimit: limit } = webhook;
  if (!webhook.active && disabledAt) {
    const when = formatDateTime(disabledAt);
    return (
      <div className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
        <p className="font-medium">
          <Trans>Switched off automatically on {when}.</Trans>
        </p>
        {disabledReason ? <p>{disabledReason}</p> : null}
        <p className="mt-1 text-red-600">
          <Trans>Mend the receiver, send a test, then switch the webhook on again (Edit, Active).</Trans>
        </p>
      </div>
    );
  }
  if (failures > 0 && limit > 0) {
    return (
      <p className="mt-1 text-xs text-amber-700">
        {plural(failures, {
          one: `# delivery failed in a row; it is switched off after ${limit}.`,
          other: `# deliveries failed in a row; it is switched off after ${limit}.`,
        })}
      </p>
    );
  }
  return null;
}

type DialogState =
  | { kind: "create" }
  | { kind: "edit"; webhook: Webhook }
  | { kind: "secret"; created: WebhookWithSecret; isNew: boolean }
  | { kind: "rotate"; webhook: Webhook }
  | { kind: "delete"; webhook: Webhook };

/** Admin settings → Webhooks: endpoints that hear about ticket changes, and what was sent to each (decision 029). */
export function WebhookSettings() {
  const { t } = useLingui();
  const query = useQuery(webhookListQuery());
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [openLog, setOpenLog] = useState<string | null>(null);
  const close = () => setDialog(null);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-xl text-sm text-slate-600">
          <Trans>
            Helpdesk POSTs signed JSON to these addresses when tickets change. Receivers check the signature
            with the endpoint's secret (see the API documentation, "Webhooks"). Internal notes are sent only
            to endpoints that choose them.
          </Trans>
        </p>
        <Button size="sm" onClick={() => setDialog({ kind: "create" })}>
          <Plus aria-hidden="true" className="size-4" />
          <Trans>New webhook</Trans>
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={t`Loading webhooks`} />
        </div>
      ) : query.isError ? (
        <LoadFailed message={t`The webhooks could not be loaded.`} onRetry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-slate-500">
          <Trans>No webhooks yet.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={t`Webhooks`}>
          {query.data.map((webhook) => (
            <li key={webhook.id} className="rounded-lg border border-slate-200 p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <WebhookIcon aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                    <span className="break-all font-mono text-xs sm:text-sm">{webhook.url}</span>
                    {webhook.active ? (
                      <Badge tone="green">
                        <Trans>Active</Trans>
                      </Badge>
                    ) : webhook.disabledAt ? (
                      <Badge tone="red">
                        <Trans>Switched off</Trans>
                      </Badge>
                    ) : (
                      <Badge tone="slate">
                        <Trans>Paused</Trans>
                      </Badge>
                    )}
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
                    <Trans>
                      Secret <span className="font-mono">{webhook.secretHint}</span> · Added{" "}
                      {formatDateTime(webhook.createdAt)}
                    </Trans>
                  </p>
                  <FailureNote webhook={webhook} />
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-expanded={openLog === webhook.id}
                    aria-label={t`Deliveries of ${webhook.url}`}
                    onClick={() => setOpenLog(openLog === webhook.id ? null : webhook.id)}
                  >
                    <Trans>Deliveries</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t`Edit ${webhook.url}`}
                    onClick={() => setDialog({ kind: "edit", webhook })}
                  >
                    <Trans>Edit</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t`Rotate the secret of ${webhook.url}`}
                    onClick={() => setDialog({ kind: "rotate", webhook })}
                  >
                    <Trans>Rotate secret</Trans>
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={t`Delete ${webhook.url}`}
                    onClick={() => setDialog({ kind: "delete", webhook })}
                  >
                    <Trans>Delete</Trans>
                  </Button>
                </div>
              </div>
              <div className="mt-3">
                <SendTestButton webhook={webhook} />
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
