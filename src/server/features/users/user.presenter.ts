import type { UserRow } from "#server/db/schema/index.ts";
import { roleOf, userStatuses } from "#shared/users/roles.ts";
import { localeChoices, type Me, themes } from "#shared/users/user.schemas.ts";

/** `mustSetUpTwoFactor` is only ever true for GET /api/me: every other route refuses such a person first. */
export function toMeDto(row: UserRow, mustSetUpTwoFactor = false): Me {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: roleOf(row.role),
    department: row.department,
    status: userStatuses.find((s) => s === row.status) ?? "Active",
    theme: themes.find((theme) => theme === row.theme) ?? "system",
    locale: localeChoices.find((locale) => locale === row.locale) ?? "browser",
    twoFactorEnabled: row.twoFactorEnabled,
    mustSetUpTwoFactor,
    awaySince: row.awaySince?.toISOString() ?? null,
  };
}
