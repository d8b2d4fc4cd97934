import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { Cell } from "#client/components/ui/cell.tsx";
import { type DemoUser, roleLabel } from "#client/features/demo-users/demo-users.ts";
import { userStatusLabel } from "#client/lib/user-labels.ts";

const columns = [msg`Full Name`, msg`Email`, msg`Role`, msg`Department`, msg`Status`, msg`Actions`];
const roleTones: Record<DemoUser["role"], BadgeTone> = {
  user: "slate",
  technician: "amber",
  admin: "indigo",
};

interface DemoUsersTableProps {
  users: readonly DemoUser[];
  onEdit: (user: DemoUser) => void;
  onToggleStatus: (user: DemoUser) => void;
  onResetPassword: (user: DemoUser) => void;
}

/**
 * Full Name, Email, Role, Department, Status, Actions. Below the md breakpoint each row becomes a card:
 * one table in the DOM either way, each cell then carrying its own label.
 */
export function DemoUsersTable({ users, onEdit, onToggleStatus, onResetPassword }: DemoUsersTableProps) {
  const { t, i18n } = useLingui();
  return (
    <table className="block w-full text-left text-sm md:table">
      <thead className="hidden border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase md:table-header-group">
        <tr>
          {columns.map((column) => (
            <th key={column.id} scope="col" className="px-4 py-3 font-medium">
              {i18n._(column)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block divide-y divide-slate-100 md:table-row-group">
        {users.length === 0 ? (
          <tr className="block md:table-row">
            <td
              colSpan={columns.length}
              className="block px-4 py-10 text-center text-slate-500 md:table-cell"
            >
              <Trans>No users match your search.</Trans>
            </td>
          </tr>
        ) : null}
        {users.map((user) => (
          <tr key={user.id} className="grid grid-cols-3 gap-x-3 gap-y-2 px-4 py-4 md:table-row md:p-0">
            <Cell label={t`Full Name`} className="col-span-3 font-medium text-slate-900">
              {user.name}
            </Cell>
            <Cell label={t`Email`} className="col-span-3 break-all text-slate-600">
              {user.email}
            </Cell>
            <Cell label={t`Role`}>
              <Badge tone={roleTones[user.role]}>{roleLabel(user.role)}</Badge>
            </Cell>
            <Cell label={t`Department`} className="break-words text-slate-600">
              {user.department}
            </Cell>
            <Cell label={t`Status`}>
              <Badge tone={user.status === "Active" ? "green" : "red"}>{userStatusLabel(user.status)}</Badge>
            </Cell>
            <Cell label={t`Actions`} className="col-span-3">
              <div className="flex flex-wrap gap-1.5">
                <Button size="sm" variant="secondary" onClick={() => onEdit(user)}>
                  <Trans>
                    Edit <span className="sr-only">{user.name}</span>
                  </Trans>
                </Button>
                {/* One button whose label flips, so focus stays on it after the change. */}
                <Button size="sm" variant="secondary" onClick={() => onToggleStatus(user)}>
                  {user.status === "Active" ? (
                    <Trans>
                      Deactivate <span className="sr-only">{user.name}</span>
                    </Trans>
                  ) : (
                    <Trans>
                      Activate <span className="sr-only">{user.name}</span>
                    </Trans>
                  )}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => onResetPassword(user)}>
                  <Trans>
                    Reset password <span className="sr-only">of {user.name}</span>
                  </Trans>
                </Button>
              </div>
            </Cell>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
