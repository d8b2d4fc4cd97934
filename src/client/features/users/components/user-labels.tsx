import type { Role, UserStatus } from "#shared/users/roles.ts";
import { Badge, type BadgeTone } from "../../../components/ui/badge.tsx";

/** Spec §3: roles are shown capitalised in user management. */
export const roleLabel = (role: Role | null) =>
  role ? `${role.charAt(0).toUpperCase()}${role.slice(1)}` : "No role yet";

const roleTones: Record<Role, BadgeTone> = { user: "slate", technician: "amber", admin: "indigo" };

export function RoleBadge({ role }: { role: Role | null }) {
  return <Badge tone={role ? roleTones[role] : "slate"}>{roleLabel(role)}</Badge>;
}

export function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge tone={status === "Active" ? "green" : "red"}>{status}</Badge>;
}
