import type { UserChangeRow, UserRow } from "#server/db/schema/index.ts";
import { roleOf, userStatuses } from "#shared/users/roles.ts";
import type { ManagedUser, UserChange } from "#shared/users/user-management.schemas.ts";

export function toManagedUserDto(row: UserRow): ManagedUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleOf(row.role),
    department: row.department,
    status: userStatuses.find((s) => s === row.status) ?? "Active",
    createdAt: row.createdAt.toISOString(),
    lastLogin: row.lastLogin ? row.lastLogin.toISOString() : null,
  };
}

export function toUserChangeDto(row: UserChangeRow & { actorName: string | null }): UserChange {
  return {
    id: row.id,
    action: row.action,
    actorId: row.actorId,
    actorName: row.actorName,
    changes: row.changes,
    at: row.createdAt.toISOString(),
  };
}
