import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Monitor } from "lucide-react";
import { useId, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { ConfirmDialog } from "#client/components/ui/confirm-dialog.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  describeUserAgent,
  mySessionsQuery,
  useRevokeOtherSessions,
  useRevokeSession,
} from "#client/features/sessions/sessions.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { MySession } from "#shared/users/session.schemas.ts";

/**
 * /profile's "Where you're signed in": every browser holding a session of this person, with Revoke for each
 * other one and "End all other sessions" (sign out everywhere else). This browser is ended with the page's Sign Out.
 */
export function SessionsCard() {
  const { t } = useLingui();
  const query = useQuery(mySessionsQuery());
  const headingId = useId();
  const [dialog, setDialog] = useState<{ kind: "one"; session: MySession } | { kind: "others" } | null>(null);
  const close = () => setDialog(null);
  const others = query.data?.filter((session) => !session.isCurrent) ?? [];

  return (
    <Card className="mt-6 max-w-2xl" aria-labelledby={headingId} role="region">
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-100 px-6 py-4">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            <Trans>Where you're signed in</Trans>
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            <Trans>Revoke a browser you don't recognise or no longer use; it is signed out at once.</Trans>
          </p>
        </div>
        <Button
          size="sm"
          variant="secondary"
          disabled={others.length === 0}
          onClick={() => setDialog({ kind: "others" })}
        >
          <Trans>End all other sessions</Trans>
        </Button>
      </div>
      {query.isPending ? (
        <div className="flex justify-center p-6">
          <Spinner label={t`Loading your sessions`} />
        </div>
      ) : query.isError ? (
        <LoadFailed
          className="p-6"
          message={t`Your sessions could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ul className="divide-y divide-slate-100">
          {query.data.map((session) => {
            const name = deviceName(session, t`Unknown browser`);
            return (
              <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 px-6 py-4">
                <div className="min-w-0 text-sm">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <Monitor aria-hidden="true" className="size-4 text-slate-400" />
                    <span className="break-words">{name}</span>
                    {session.isCurrent ? (
                      <Badge tone="green">
                        <Trans>This device</Trans>
                      </Badge>
                    ) : null}
                  </p>
                  <p className="mt-1 text-xs text-slate-500">
                    {session.ipAddress ? `${session.ipAddress} · ` : ""}
                    {t`Signed in ${formatDateTime(session.createdAt)} · Last active ${formatDateTime(session.lastActiveAt)}`}
                  </p>
                </div>
                {session.isCurrent ? null : (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={t`Revoke ${name}, signed in ${formatDateTime(session.createdAt)}`}
                    onClick={() => setDialog({ kind: "one", session })}
                  >
                    <Trans>Revoke</Trans>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {dialog?.kind === "one" ? <RevokeSessionDialog session={dialog.session} onClose={close} /> : null}
      {dialog?.kind === "others" ? <RevokeOthersDialog count={others.length} onClose={close} /> : null}
    </Card>
  );
}

function deviceName(session: MySession, unknown: string) {
  const described = describeUserAgent(session.userAgent);
  if (described) return `${described.browser} · ${described.system}`;
  return session.userAgent ? session.userAgent.slice(0, 80) : unknown;
}

function RevokeSessionDialog({ session, onClose }: { session: MySession; onClose: () => void }) {
  const { t } = useLingui();
  const revoke = useRevokeSession();
  return (
    <ConfirmDialog
      title={t`Sign out this browser?`}
      description={t`${deviceName(session, t`Unknown browser`)} will have to sign in again.`}
      confirmLabel={t`Revoke`}
      successMessage={t`Session revoked`}
      onConfirm={() => revoke.mutateAsync(session.id)}
      onClose={onClose}
    />
  );
}

function RevokeOthersDialog({ count, onClose }: { count: number; onClose: () => void }) {
  const { t } = useLingui();
  const revoke = useRevokeOtherSessions();
  return (
    <ConfirmDialog
      title={t`End all other sessions?`}
      description={t`Every other browser (${count}) will have to sign in again. This one stays signed in.`}
      confirmLabel={t`End all other sessions`}
      successMessage={t`Other sessions ended`}
      onConfirm={() => revoke.mutateAsync()}
      onClose={onClose}
    />
  );
}
