import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Users } from "lucide-react";
import { useEffect } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { EmptyState } from "../../../components/ui/empty-state.tsx";
import { LoadFailed } from "../../../components/ui/load-failed.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { formatDateTime } from "../../../lib/format.ts";
import { toast } from "../../../lib/toast.ts";
import { userListQuery } from "../users.api.ts";
import { RoleBadge } from "./user-labels.tsx";

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
      {/* Four short columns: at 375 px the table scrolls sideways rather than squeezing the e-mail. */}
      <div className="overflow-x-auto">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase">
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
          <tbody className="divide-y divide-slate-100">
            {users.map((user) => (
              <tr key={user.id}>
                <td className="px-4 py-3 font-medium text-slate-900">{user.name}</td>
                <td className="px-4 py-3 text-slate-600">{user.email}</td>
                <td className="px-4 py-3">
                  <RoleBadge role={user.role} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-600">
                  <time dateTime={user.createdAt}>{formatDateTime(user.createdAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {query.hasNextPage ? (
        <div className="flex justify-center border-t border-slate-100 p-4">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage ? t`Loading…` : t`Load more`}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
