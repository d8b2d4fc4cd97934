import type { MessageDescriptor } from "@lingui/core";
import { msg, plural, t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { useRedeliverWebhook, webhookDeliveriesQuery } from "#client/features/webhooks/webhooks.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { toast } from "#client/lib/toast.ts";
import { type Webhook, type WebhookDelivery, webhookEventLabels } from "#shared/webhooks/webhook.schemas.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : tc`Something went wrong.`);

const statusTone: Record<WebhookDelivery["status"], BadgeTone> = {
  pending: "amber",
  delivered: "green",
  failed: "red",
};
const statusLabels: Record<WebhookDelivery["status"], MessageDescriptor> = {
  pending: msg`Pending`,
  delivered: msg`Delivered`,
  failed: msg`Failed`,
};

/** One endpoint's deliveries, newest first, refreshed every 5 s while open, each with Redeliver. */
export function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const { t, i18n } = useLingui();
  const statusLabel = (status: WebhookDelivery["status"]) => i18n._(statusLabels[status]);
  const query = useInfiniteQuery({ ...webhookDeliveriesQuery(webhook.id), refetchInterval: 5_000 });
  const redeliver = useRedeliverWebhook();
  const deliveries = query.data?.pages.flatMap((page) => page.items) ?? [];

  async function handleRedeliver(delivery: WebhookDelivery) {
    try {
      await redeliver.mutateAsync({ webhookId: webhook.id, deliveryId: delivery.id });
      toast.success(t`Redelivery queued`);
    } catch (error) {
      toast.error(messageOf(error));
    }
  }

  return (
    <section aria-label={t`Deliveries to ${webhook.url}`} className="mt-4 border-t border-slate-100 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">
        <Trans>Deliveries</Trans>
      </h3>
      {query.isPending ? (
        <div className="flex justify-center py-4">
          <Spinner label={t`Loading deliveries`} />
        </div>
      ) : query.isError ? (
        <LoadFailed message={t`The deliveries could not be loaded.`} onRetry={() => void query.refetch()} />
      ) : deliveries.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">
          <Trans>Nothing sent yet.</Trans>
        </p>
      ) : (
        <>
          <ul className="mt-2 flex flex-col divide-y divide-slate-100">
            {deliveries.map((delivery) => (
              <li
                key={delivery.id}
                className="flex flex-wrap items-start justify-between gap-2 py-2 text-sm"
                aria-label={`${webhookEventLabels[delivery.eventType]}, ${statusLabel(delivery.status)}`}
              >
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <Badge tone={statusTone[delivery.status]}>{statusLabel(delivery.status)}</Badge>
                    <span className="font-medium text-slate-900">
                      {webhookEventLabels[delivery.eventType]}
                    </span>
                    {delivery.responseStatus !== null ? (
                      <span className="font-mono text-xs text-slate-700">HTTP {delivery.responseStatus}</span>
                    ) : null}
                    {delivery.redeliveryOf ? (
                      <Badge tone="slate">
                        <Trans>Redelivery</Trans>
                      </Badge>
                    ) : null}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-500">
                    <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time> ·{" "}
                    {plural(delivery.attempts, { one: "# attempt", other: "# attempts" })}
                    {delivery.nextAttemptAt
                      ? ` · ${t`next attempt ${formatDateTime(delivery.nextAttemptAt)}`}`
                      : ""}
                  </p>
                  {delivery.error ? (
                    <p className="mt-0.5 break-words text-xs text-red-700">{delivery.error}</p>
                  ) : null}
                  {delivery.responseBody ? (
                    <details className="mt-0.5 text-xs text-slate-600">
                      <summary className="cursor-pointer">
                        <Trans>Response</Trans>
                      </summary>
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
                  <Trans>Redeliver</Trans>
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
              <Trans>Show older deliveries</Trans>
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
