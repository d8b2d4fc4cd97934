import { Trans, useLingui } from "@lingui/react/macro";
import { MailCheck, MailX } from "lucide-react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { useUnsubscribe } from "#client/features/notifications/notification.api.ts";
import { notificationTypeLabels } from "#client/features/notifications/notification-type-labels.ts";
import { Link } from "#client/lib/router/links.tsx";

/**
 * The mailed unsubscribe link's page. It works signed out: the signed token says which address and which
 * kind of e-mail; the server answers both once it has turned that kind off.
 */
export function UnsubscribePanel({ token }: { token: string | null }) {
  const { t, i18n } = useLingui();
  const unsubscribe = useUnsubscribe();

  if (!token) {
    return (
      <Card className="mx-auto max-w-lg p-6">
        <Alert>
          <Trans>This unsubscribe link is incomplete. Please use the full link from the e-mail.</Trans>
        </Alert>
      </Card>
    );
  }

  if (unsubscribe.isSuccess) {
    const { email, type } = unsubscribe.data;
    const kind = i18n._(notificationTypeLabels[type]);
    return (
      <Card className="mx-auto max-w-lg p-6 text-center">
        <MailCheck aria-hidden="true" className="mx-auto size-10 text-green-600" />
        <h2 className="mt-3 text-lg font-semibold text-slate-900">
          <Trans>You are unsubscribed</Trans>
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          <Trans>
            {email} will no longer receive e-mails for “{kind}”. You still see these notifications in
            Helpdesk, and you can turn the e-mails back on in your{" "}
            <Link to="/profile" className="font-medium text-indigo-700 hover:underline">
              profile
            </Link>
            .
          </Trans>
        </p>
      </Card>
    );
  }

  return (
    <Card className="mx-auto max-w-lg p-6">
      <div className="flex items-start gap-4">
        <MailX aria-hidden="true" className="mt-0.5 size-8 shrink-0 text-slate-400" />
        <div>
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>Stop these e-mails?</Trans>
          </h2>
          <p className="mt-2 text-sm text-slate-600">
            <Trans>
              You will stop receiving e-mails of the kind this message was (for example, comments on your
              tickets) at the address it was sent to. Other kinds of e-mail and the notifications inside
              Helpdesk stay as they are.
            </Trans>
          </p>
        </div>
      </div>
      {unsubscribe.isError ? (
        <div className="mt-4">
          <Alert>{unsubscribe.error.message}</Alert>
        </div>
      ) : null}
      <div className="mt-6 flex justify-end">
        <Button onClick={() => unsubscribe.mutate(token)} disabled={unsubscribe.isPending}>
          {unsubscribe.isPending ? t`Unsubscribing…` : t`Unsubscribe`}
        </Button>
      </div>
    </Card>
  );
}
