import { and, eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { accounts } from "#server/db/schema/index.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import type { Role } from "#shared/users/roles.ts";
import { mustSetUpTwoFactor } from "#shared/users/two-factor.ts";

/**
 * Whether this signed-in person must set up two-factor sign-in before anything else (decision 046). Asks the
 * database only for staff without an authenticator app, so everyone else costs nothing more.
 */
export async function isTwoFactorPending(
  db: Db,
  person: { id: string; role: Role | null; twoFactorEnabled: boolean },
): Promise<boolean> {
  const requiredForStaff = { requiredForStaff: true };
  if (!mustSetUpTwoFactor({ ...person, hasPassword: true }, requiredForStaff)) return false;
  const settings = await readSetting(db, "two-factor");
  if (!settings.requiredForStaff) return false;
  const [password] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, person.id), eq(accounts.providerId, "credential")))
    .limit(1);
  return mustSetUpTwoFactor({ ...person, hasPassword: password !== undefined }, settings);
}
