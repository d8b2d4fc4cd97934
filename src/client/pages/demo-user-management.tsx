import { t as tc } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { FlaskConical, Search, ShieldCheck, UserCheck, UserPlus, Users, Wrench } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Field, Input } from "#client/components/ui/field.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { StatCard } from "#client/components/ui/stat-card.tsx";
import {
  DemoPasswordDialog,
  type PasswordNotice,
} from "#client/features/demo-users/components/demo-password-dialog.tsx";
import { DemoUserFormDialog } from "#client/features/demo-users/components/demo-user-form-dialog.tsx";
import { DemoUsersTable } from "#client/features/demo-users/components/demo-users-table.tsx";
import {
  countDemoUsers,
  type DemoUser,
  filterDemoUsers,
  isEmailTaken,
  roleLabel,
  sampleDemoUsers,
} from "#client/features/demo-users/demo-users.ts";
import { Link } from "#client/lib/router/links.tsx";
import type { DemoUserInput } from "#shared/users/demo-user.schemas.ts";
import { type Role, roles } from "#shared/users/roles.ts";

const roleFilterOptionsOf = () => [
  { value: "all", label: tc`All Roles` },
  ...roles.map((role) => ({ value: role, label: roleLabel(role) })),
];

type Editing = { mode: "add" } | { mode: "edit"; user: DemoUser } | null;

/** /demo/user-management: the user management screen on ten sample users, all in this tab's memory. */
export default function DemoUserManagementPage() {
  const { t } = useLingui();
  const id = useId();
  const [users, setUsers] = useState<DemoUser[]>(() => [...sampleDemoUsers]);
  const [search, setSearch] = useState("");
  const [roleFilter, setRoleFilter] = useState<Role | "all">("all");
  const [editing, setEditing] = useState<Editing>(null);
  const [passwordNotice, setPasswordNotice] = useState<PasswordNotice | null>(null);
  const [nextId, setNextId] = useState(sampleDemoUsers.length + 1);

  const counts = countDemoUsers(users);
  const shown = filterDemoUsers(users, { search, role: roleFilter });
  const editedId = editing?.mode === "edit" ? editing.user.id : undefined;

  function handleSave(input: DemoUserInput) {
    if (editing?.mode === "edit") {
      setUsers((current) =>
        current.map((user) => (user.id === editing.user.id ? { ...user, ...input } : user)),
      );
    } else {
      // Newest first, as the real list sorts.
      setUsers((current) => [{ id: `demo-${nextId}`, ...input }, ...current]);
      setNextId((n) => n + 1);
      setPasswordNotice({ name: input.name, reason: "added" });
    }
    setEditing(null);
  }

  function handleToggleStatus(target: DemoUser) {
    setUsers((current) =>
      current.map((user) =>
        user.id === target.id ? { ...user, status: user.status === "Active" ? "Inactive" : "Active" } : user,
      ),
    );
  }

  return (
    <>
      <PageHeader
        title={t`User Management Demo`}
        description={t`Try managing user accounts on ten sample people.`}
        actions={
          <Button onClick={() => setEditing({ mode: "add" })}>
            <UserPlus aria-hidden="true" className="size-4" />
            <Trans>Add User</Trans>
          </Button>
        }
      />

      <aside
        aria-label={t`About this demo`}
        className="mb-6 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
      >
        <FlaskConical aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600" />
        <div>
          <p className="font-semibold">
            <Trans>Demo: sample data, nothing is saved</Trans>
          </p>
          <p className="mt-1">
            <Trans>
              Changes stay in this browser tab and are gone when you reload. Administrators manage real
              accounts in{" "}
              <Link
                to="/admin/user-management"
                className="font-medium text-amber-950 underline underline-offset-2 hover:text-amber-700 focus-visible:outline-2 focus-visible:outline-amber-700"
              >
                User Management
              </Link>
              .
            </Trans>
          </p>
        </div>
      </aside>

      <section aria-label={t`User counts`} className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard label={t`Total`} value={counts.total} icon={Users} tone="indigo" />
        <StatCard label={t`Active`} value={counts.active} icon={UserCheck} tone="green" />
        <StatCard label={t`Technicians`} value={counts.technicians} icon={Wrench} tone="amber" />
        <StatCard label={t`Admins`} value={counts.admins} icon={ShieldCheck} tone="blue" />
      </section>

      <Card className="overflow-hidden">
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-end">
          <Field label={t`Search users`} htmlFor={`${id}-search`} className="flex-1">
            <div className="relative">
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
              />
              <Input
                id={`${id}-search`}
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder={t`Name, email or department`}
                className="pl-9"
              />
            </div>
          </Field>
          <Field label={t`Filter by role`} htmlFor={`${id}-role`} className="sm:w-48">
            <Select
              id={`${id}-role`}
              value={roleFilter}
              onChange={(event) => setRoleFilter(event.target.value as Role | "all")}
              options={roleFilterOptionsOf()}
            />
          </Field>
        </div>
        <DemoUsersTable
          users={shown}
          onEdit={(user) => setEditing({ mode: "edit", user })}
          onToggleStatus={handleToggleStatus}
          onResetPassword={(user) => setPasswordNotice({ name: user.name, reason: "reset" })}
        />
        <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-500" aria-live="polite">
          <Trans>
            Showing {shown.length} of {users.length} users
          </Trans>
        </p>
      </Card>

      {editing ? (
        <DemoUserFormDialog
          user={editing.mode === "edit" ? editing.user : undefined}
          isEmailTaken={(email) => isEmailTaken(users, email, editedId)}
          onSave={handleSave}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {passwordNotice ? (
        <DemoPasswordDialog notice={passwordNotice} onClose={() => setPasswordNotice(null)} />
      ) : null}
    </>
  );
}
