import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { Download, Search, ShieldAlert, UserPlus, Users } from "lucide-react";
import { useDeferredValue, useEffect, useId, useState } from "react";
import { Button, buttonClass } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { Input } from "#client/components/ui/field.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMoreButton } from "#client/components/ui/load-more.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { PageSpinner, Spinner } from "#client/components/ui/spinner.tsx";
import { useDepartmentNames } from "#client/features/settings/settings.api.ts";
import { ManagedUsersTable } from "#client/features/users/components/managed-users-table.tsx";
import { EditUserDialog, InviteUserDialog } from "#client/features/users/components/user-form-dialogs.tsx";
import { UserHistoryDialog } from "#client/features/users/components/user-history-dialog.tsx";
import {
  managementCountCards,
  UserSummaryCards,
} from "#client/features/users/components/user-summary-cards.tsx";
import {
  useChangeUserStatus,
  userExportPath,
  userListQuery,
  useSendPasswordReset,
} from "#client/features/users/users.api.ts";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { roleLabel } from "#client/lib/user-labels.ts";
import { can } from "#shared/permissions.ts";
import { type Role, roles } from "#shared/users/roles.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import { type ManagedUser, resetEmailSent } from "#shared/users/user-management.schemas.ts";

const roleFiltersOf = () => [
  { value: "", label: tc`All Roles` },
  ...roles.map((role) => ({ value: role, label: roleLabel(role) })),
];

/** /admin/user-management: reachable by anyone signed in; only admins get the screen. */
export default function AdminUserManagementPage() {
  const { t } = useLingui();
  const actor = useActor();
  if (actor === undefined) return <PageSpinner label={t`Loading your account`} />;
  if (!actor || !can.manageUsers(actor)) return <AccessDenied />;
  return <UserManagement actor={actor} />;
}

function AccessDenied() {
  const { t } = useLingui();
  return (
    <>
      <PageHeader title={t`User Management`} />
      <Card>
        <EmptyState
          icon={ShieldAlert}
          titleAs="h2"
          title={t`Access denied`}
          description={t`Only administrators can manage users. Ask an administrator if you need a change to an account.`}
        />
      </Card>
    </>
  );
}

type Dialogs =
  | { kind: "edit" | "history" | "deactivate"; user: ManagedUser }
  | { kind: "invite" }
  | { kind: "none" };

function UserManagement({ actor }: { actor: Me }) {
  const { t } = useLingui();
  const searchId = useId();
  const roleId = useId();
  // The command palette opens a person here with their name as the search.
  const [searchParams] = useSearchParams();
  const [search, setSearch] = useState(() => searchParams.get("q") ?? "");
  const [role, setRole] = useState<Role | "">("");
  // Typing stays responsive; the list follows the search a moment later.
  const q = useDeferredValue(search.trim());
  const [dialog, setDialog] = useState<Dialogs>({ kind: "none" });
  const close = () => setDialog({ kind: "none" });
  const departments = useDepartmentNames(dialog.kind === "invite" || dialog.kind === "edit");
  const changeStatus = useChangeUserStatus();
  const sendReset = useSendPasswordReset();

  const filters = { q: q || undefined, role: role || undefined };
  const query = useInfiniteQuery({
    ...userListQuery(filters),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (query.isError) toast.error(tc`Error loading users.`, { toastId: "users-load-failed" });
  }, [query.isError]);

  async function setStatus(user: ManagedUser, status: "Active" | "Inactive") {
    try {
      await changeStatus.mutateAsync({ userId: user.id, status });
      toast.success(status === "Active" ? t`${user.name} was activated` : t`${user.name} was deactivated`);
      close();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Failed to update the user`);
    }
  }

  async function resetPassword(user: ManagedUser) {
    try {
      await sendReset.mutateAsync(user.id);
      toast.success(resetEmailSent);
    } catch (error) {
      // A failed reset used to go only to the log; we say what went wrong instead of staying silent.
      toast.error(error instanceof Error ? error.message : t`The reset e-mail could not be sent.`);
    }
  }

  const users = query.data?.pages.flatMap((page) => page.items) ?? [];
  const matching = query.data?.pages[0]?.matching ?? 0;

  return (
    <>
      <PageHeader
        title={t`User Management`}
        description={t`Search, edit, invite and deactivate the people who use Helpdesk.`}
        actions={
          <>
            <a href={userExportPath(filters)} download className={buttonClass("secondary")}>
              <Download aria-hidden="true" className="size-4" />
              <Trans>Export CSV</Trans>
            </a>
            <Button onClick={() => setDialog({ kind: "invite" })}>
              <UserPlus aria-hidden="true" className="size-4" />
              <Trans>Add user</Trans>
            </Button>
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <UserSummaryCards cards={managementCountCards} />
        <Card>
          <div className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row sm:items-end">
            <div className="flex flex-1 flex-col gap-1.5">
              <label htmlFor={searchId} className="text-sm font-medium text-slate-700">
                <Trans>Search users</Trans>
              </label>
              <div className="relative">
                <Search
                  aria-hidden="true"
                  className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
                />
                <Input
                  id={searchId}
                  type="search"
                  value={search}
                  onChange={(event) => setSearch(event.target.value)}
                  placeholder={t`Name, email or department`}
                  className="pl-9"
                  maxLength={100}
                />
              </div>
            </div>
            <div className="flex flex-col gap-1.5 sm:w-48">
              <label htmlFor={roleId} className="text-sm font-medium text-slate-700">
                <Trans>Role</Trans>
              </label>
              <Select
                id={roleId}
                options={roleFiltersOf()}
                value={role}
                onChange={(event) => setRole(event.target.value as Role | "")}
              />
            </div>
          </div>
          {query.isPending ? (
            <div className="flex justify-center py-12">
              <Spinner label={t`Loading users`} />
            </div>
          ) : query.isError ? (
            <LoadFailed
              layout="block"
              message={t`The users could not be loaded.`}
              onRetry={() => void query.refetch()}
            />
          ) : users.length === 0 ? (
            <EmptyState icon={Users} title={t`No users found`} description={t`Try another search or role.`} />
          ) : (
            <div
              aria-busy={query.isPlaceholderData}
              className={cn("overflow-x-auto transition-opacity", query.isPlaceholderData && "opacity-60")}
            >
              <ManagedUsersTable
                users={users}
                actor={actor}
                onEdit={(user) => setDialog({ kind: "edit", user })}
                onToggleStatus={(user) =>
                  user.status === "Active"
                    ? setDialog({ kind: "deactivate", user })
                    : void setStatus(user, "Active")
                }
                onResetPassword={(user) => void resetPassword(user)}
                onHistory={(user) => setDialog({ kind: "history", user })}
              />
            </div>
          )}
          <div className="flex flex-col items-center gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:flex-row sm:justify-between">
            <p aria-live="polite">
              <Trans>
                Showing {users.length} of {matching} users
              </Trans>
            </p>
            {query.hasNextPage ? <LoadMoreButton query={query} /> : null}
          </div>
        </Card>
      </div>
      {dialog.kind === "invite" ? <InviteUserDialog departments={departments} onClose={close} /> : null}
      {dialog.kind === "edit" ? (
        <EditUserDialog user={dialog.user} departments={departments} onClose={close} />
      ) : null}
      {dialog.kind === "history" ? <UserHistoryDialog user={dialog.user} onClose={close} /> : null}
      {dialog.kind === "deactivate" ? (
        <Dialog title={t`Deactivate ${dialog.user.name}?`} onClose={close}>
          <p className="text-sm text-slate-600">
            <Trans>
              They are signed out at once and cannot sign in again until an administrator activates them.
            </Trans>
          </p>
          <div className="mt-5 flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              variant="danger"
              disabled={changeStatus.isPending}
              onClick={() => void setStatus(dialog.user, "Inactive")}
            >
              <Trans>Deactivate</Trans>
            </Button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
