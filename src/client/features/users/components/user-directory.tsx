import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useEffect } from "react";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import { userListQuery } from "#client/features/users/users.api.ts";
import { formatDateTime } from "#client/lib/format.ts";
import { toast } from "#client/lib/toast.ts";
import { RoleBadge } from "./user-badges.tsx";

/** The admin dashboard's User Management tab: name, email, role and created date, newest first. */
export function UserDirectory() {
  const { t } = useLingui();
  const query = useInfiniteQuery(userListQuery({}));

  useEffect(() => {
    if (query.isError) toast.error(tc`Error loading users.`, { toastId: "users-load-failed" });
  }, [query.isError]);

  if (query.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner label={t`Loading users`} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadFailed
        layout="block"
        message={t`The users could not be loaded.`}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const users = query.data.pages.flatMap((page) => page.items);
  if (users.length === 0) return <EmptyState icon={Users} title={t`No users found`} />;

  return (
    <div>
      {/*
        Below the sm breakpoint each row is a card: the name with its role, then the e-mail and the date, so
        nothing is cut or hidden sideways on a phone. One table in the DOM either way (as the user
        management table, managed-users-table.tsx).
      */}
      <table className="block w-full text-left text-sm sm:table">
        <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase sm:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              <Trans>Name</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <Trans>Email</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <Trans>Role</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <Trans>Created</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-100 sm:table-row-group">
          {users.map((user) => (
            <tr
              key={user.id}
              className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-4 py-3 sm:table-row sm:p-0"
            >
              <td className="min-w-0 font-medium break-words text-slate-900 sm:table-cell sm:px-4 sm:py-3">
                {user.name}
              </td>
              <td className="col-span-2 row-start-2 min-w-0 break-all text-slate-600 sm:table-cell sm:px-4 sm:py-3 sm:break-normal">
                {user.email}
              </td>
              <td className="justify-self-end sm:table-cell sm:px-4 sm:py-3">
                <RoleBadge role={user.role} />
              </td>
              <td className="col-span-2 text-xs text-slate-500 sm:table-cell sm:px-4 sm:py-3 sm:text-sm sm:whitespace-nowrap sm:text-slate-600">
                <span className="sm:hidden">
                  <Trans>Created</Trans>{" "}
                </span>
                <time dateTime={user.createdAt}>{formatDateTime(user.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore query={query} />
    </div>
  );
}
