import { Badge, type BadgeTone } from "#client/components/ui/badge.tsx";
import { roleLabel, userStatusLabel } from "#client/lib/user-labels.ts";
import type { Role, UserStatus } from "#shared/users/roles.ts";

const roleTones: Record<Role, BadgeTone> = { user: "slate", technician: "amber", admin: "indigo" };

export function RoleBadge({ role }: { role: Role | null }) {
  return <Badge tone={role ? roleTones[role] : "slate"}>{roleLabel(role)}</Badge>;
}

export function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge tone={status === "Active" ? "green" : "red"}>{userStatusLabel(status)}</Badge>;
}
