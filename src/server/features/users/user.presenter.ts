import { roles, userStatuses } from "#shared/users/roles.ts";
import type { Me } from "#shared/users/user.schemas.ts";
import type { UserRow } from "../../db/schema/index.ts";

export function toMeDto(row: UserRow): Me {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roles.find((r) => r === row.role) ?? null,
    department: row.department,
    status: userStatuses.find((s) => s === row.status) ?? "Active",
  };
}
