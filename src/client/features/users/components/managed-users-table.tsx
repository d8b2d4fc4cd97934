import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Button } from "#client/components/ui/button.tsx";
import { Cell } from "#client/components/ui/cell.tsx";
import { can } from "#shared/permissions.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import type { ManagedUser } from "#shared/users/user-management.schemas.ts";
import { RoleBadge, StatusBadge } from "./user-badges.tsx";

interface ManagedUsersTableProps {
  users: ManagedUser[];
  actor: Me;
  onEdit: (user: ManagedUser) => void;
  onToggleStatus: (user: ManagedUser) => void;
  onResetPassword: (user: ManagedUser) => void;
  onHistory: (user: ManagedUser) => void;
}

const columns = [msg`Full Name`, msg`Email`, msg`Role`, msg`Department`, msg`Status`, msg`Actions`];

/**
 * Full Name, Email, Role, Department, Status, Actions. Below the md breakpoint each row becomes a card
 * (one table in the DOM either way; each cell then carries its own label).
 */
export function ManagedUsersTable({
  users,
  actor,
  onEdit,
  onToggleStatus,
  onResetPassword,
  onHistory,
}: ManagedUsersTableProps) {
  const { t, i18n } = useLingui();
  return (
    <table className="block w-full text-left text-sm md:table">
      <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs font-medium tracking-wide text-slate-500 uppercase md:table-header-group">
        <tr>
          {columns.map((column) => (
            <th key={column.id} scope="col" className="px-4 py-3 font-medium">
              {i18n._(column)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block divide-y divide-slate-100 md:table-row-group">
        {users.map((user) => {
          const mayDeactivate = can.deactivateUser(actor, user);
          return (
            <tr key={user.id} className="grid grid-cols-2 gap-x-4 gap-y-2 px-4 py-4 md:table-row md:p-0">
              <Cell label={t`Full Name`} className="col-span-2 font-medium text-slate-900">
                {user.name}
              </Cell>
              <Cell
                label={t`Email`}
                className="col-span-2 break-all text-slate-600 md:break-normal md:whitespace-nowrap"
              >
                {user.email}
              </Cell>
              <Cell label={t`Role`}>
                <RoleBadge role={user.role} />
              </Cell>
              <Cell label={t`Department`} className="text-slate-600">
                {user.department}
              </Cell>
              <Cell label={t`Status`}>
                <StatusBadge status={user.status} />
              </Cell>
              <Cell label={t`Actions`} className="col-span-2">
                <div className="flex flex-wrap gap-1.5">
                  <Button size="sm" variant="secondary" onClick={() => onEdit(user)}>
                    <Trans>Edit</Trans>
                  </Button>
                  {/* One button whose label flips, so focus comes back to it after the change. */}
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={user.status === "Active" && !mayDeactivate}
                    title={
                      user.status === "Active" && !mayDeactivate
                        ? t`You cannot deactivate your own account.`
                        : undefined
                    }
                    onClick={() => onToggleStatus(user)}
                  >
                    {user.status === "Active" ? t`Deactivate` : t`Activate`}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => onResetPassword(user)}>
                    <Trans>Reset password</Trans>
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => onHistory(user)}>
                    <Trans>History</Trans>
                  </Button>
                </div>
              </Cell>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
