import { Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useId, useState } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Field, Input, Textarea } from "#client/components/ui/field.tsx";
import { useCreateNotification } from "#client/features/notifications/notification.api.ts";

/**
 * /debug-notifications: creates a notification through the real API. Nothing is checked here on purpose,
 * so the server's own messages (User ID is required, Message is required) can be seen. The server takes a
 * test notification for one's own bell only (docs/security.md), so there is no type to choose.
 */
export function CreateTestNotificationForm({ userId }: { userId: string }) {
  const { t } = useLingui();
  const create = useCreateNotification();
  const [uid, setUid] = useState(userId);
  const [message, setMessage] = useState(() => t`Test notification`);
  const uidId = useId();
  const messageId = useId();

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ uid, message, type: "test" });
  }

  return (
    <form onSubmit={handleSubmit} noValidate className="flex flex-col gap-4">
      <Field label={t`User ID`} htmlFor={uidId}>
        <Input id={uidId} value={uid} onChange={(event) => setUid(event.target.value)} />
      </Field>
      <Field label={t`Message`} htmlFor={messageId}>
        <Textarea
          id={messageId}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          className="min-h-20"
        />
      </Field>
      <p className="text-sm text-slate-600">
        <Trans>A test notification, for your own bell: the server refuses anyone else's user ID.</Trans>
      </p>
      {create.isError ? <Alert>{create.error.message}</Alert> : null}
      {create.isSuccess ? (
        <p role="status" className="text-sm text-green-700">
          <Trans>Created notification {create.data.notificationId}.</Trans>
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? t`Creating…` : t`Create notification`}
        </Button>
      </div>
    </form>
  );
}
