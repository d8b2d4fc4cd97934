import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { userHistoryQuery } from "#client/features/users/users.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import type { ManagedUser, UserChange } from "#shared/users/user-management.schemas.ts";

const actionLabels: Record<UserChange["action"], MessageDescriptor> = {
  invited: msg`Invited`,
  edited: msg`Edited`,
  deactivated: msg`Deactivated`,
  activated: msg`Activated`,
  password_reset_sent: msg`Password reset e-mail sent`,
  role_from_sign_in: msg`Role given by single sign-on`,
  provisioned: msg`Created by provisioning (SCIM)`,
};

const fieldLabels: Record<UserChange["changes"][number]["field"], MessageDescriptor> = {
  name: msg`Name`,
  email: msg`Email`,
  role: msg`Role`,
  department: msg`Department`,
  status: msg`Status`,
};

/** Who changed what about this person, and when, newest first. */
export function UserHistoryDialog({ user, onClose }: { user: ManagedUser; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const query = useInfiniteQuery(userHistoryQuery(user.id));
  const changes = query.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Dialog title={t`History of ${user.name}`} onClose={onClose}>
      {query.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner label={t`Loading history`} />
        </div>
      ) : query.isError ? (
        <LoadFailed message={t`The history could not be loaded.`} onRetry={() => void query.refetch()} />
      ) : changes.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No changes recorded yet.</Trans>
        </p>
      ) : (
        <ol className="flex flex-col divide-y divide-slate-100" aria-label={t`Changes`}>
          {changes.map((change) => (
            <li key={change.id} className="py-3">
              <p className="text-sm font-medium text-slate-900">{i18n._(actionLabels[change.action])}</p>
              <p className="text-xs text-slate-500">
                {change.action === "role_from_sign_in"
                  ? t`The identity provider, at sign-in`
                  : (change.actorName ?? t`Someone no longer registered`)}{" "}
                · <time dateTime={change.at}>{formatDateTime(change.at)}</time>
              </p>
              {change.changes.length > 0 ? (
                <ul className="mt-1.5 flex flex-col gap-0.5 text-sm text-slate-700">
                  {change.changes.map((field) => (
                    <li key={field.field}>
                      {i18n._(fieldLabels[field.field])}:{" "}
                      {field.from === null ? (
                        ""
                      ) : (
                        <span className="text-slate-500 line-through">{field.from}</span>
                      )}
                      {field.from === null ? "" : " → "}
                      <span>{field.to ?? "—"}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <LoadMore query={query} showsLoading={false} className="mt-3 flex justify-center" />
    </Dialog>
  );
}
