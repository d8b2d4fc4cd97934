import { Trans, useLingui } from "@lingui/react/macro";
import { Send } from "lucide-react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { useSendTestWebhook } from "#client/features/webhooks/webhooks.api.ts";
import type { Webhook } from "#shared/webhooks/webhook.schemas.ts";

/**
 * "Send test" (decision 080): a signed `webhook.test` event now, and its outcome where the admin pressed
 * it: the receiver's status code, how long it took, and the error when it did not deliver.
 */
export function SendTestButton({ webhook }: { webhook: Webhook }) {
  const { t } = useLingui();
  const send = useSendTestWebhook();
  const result = send.data;
  const status = result?.responseStatus;
  const ms = result?.durationMs;
  const error = result?.error;
  return (
    <div className="flex flex-col items-start gap-2">
      <Button
        size="sm"
        variant="secondary"
        aria-label={t`Send a test to ${webhook.url}`}
        disabled={send.isPending}
        onClick={() => send.mutate(webhook.id)}
      >
        <Send aria-hidden="true" className="size-4" />
        {send.isPending ? t`Sending…` : t`Send test`}
      </Button>
      {send.isError ? <Alert>{send.error.message}</Alert> : null}
      {result ? (
        <p role="status" className={result.delivered ? "text-sm text-green-700" : "text-sm text-red-700"}>
          {result.delivered ? (
            <Trans>
              Test delivered: HTTP {status} in {ms} ms.
            </Trans>
          ) : status !== null ? (
            <Trans>
              Test failed: HTTP {status} in {ms} ms. {error}
            </Trans>
          ) : (
            <Trans>
              Test failed after {ms} ms: {error}
            </Trans>
          )}
        </p>
      ) : null}
    </div>
  );
}
