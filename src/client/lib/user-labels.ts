import { i18n, type MessageDescriptor } from "@lingui/core";
import { msg, t } from "@lingui/core/macro";
import type { Role, UserStatus } from "#shared/users/roles.ts";

const roleLabels: Record<Role, MessageDescriptor> = {
  user: msg`User`,
  technician: msg`Technician`,
  admin: msg`Admin`,
};

/** Roles are shown capitalised in user management (in the active language, decision 038). */
export const roleLabel = (role: Role | null) => (role ? i18n._(roleLabels[role]) : t`No role yet`);

const statusLabels: Record<UserStatus, MessageDescriptor> = { Active: msg`Active`, Inactive: msg`Inactive` };

/** An account's status in the active language; the API's values stay English. */
export const userStatusLabel = (status: UserStatus) => i18n._(statusLabels[status]);
