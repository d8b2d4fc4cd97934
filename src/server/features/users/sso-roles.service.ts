import { randomUUID } from "node:crypto";
import type { OidcRoleMapping } from "#server/auth/oidc-roles.ts";
import type { Db } from "#server/db/client.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { type Role, roleOf } from "#shared/users/roles.ts";
import { hasSsoRoleMapping, roleFromClaims } from "#shared/users/sso-roles.ts";
import { hasAccountWith, updateUser } from "./user.queries.ts";
import { insertUserChange, lockActiveAdminsAnd } from "./user-management.queries.ts";

export interface OidcRoleMappingDeps {
  /** After commit, when someone's role changed: their session caches and live streams let go. */
  onRoleChanged: (userId: string) => void;
  /** Told when the mapping would have demoted the last active admin (who stays admin). */
  warn: (message: string) => void;
}

/**
 * Admin settings › Single sign-on (decision 082): the role each OIDC sign-in gives, read from the saved
 * mapping at every sign-in, and given the way user management changes a role.
 */
export function createOidcRoleMapping(db: Db, deps: OidcRoleMappingDeps): OidcRoleMapping {
  return {
    async roleFor(claims) {
      const settings = await readSetting(db, "sso-roles");
      return hasSsoRoleMapping(settings) ? roleFromClaims(settings, claims) : null;
    },
    apply: (userId, role) => giveMappedRole(db, userId, role, deps),
  };
}

/**
 * Gives the person the role, under the same lock as user management's edits: the last active admin is
 * never demoted by a sign-in (they stay admin and the operator is warned), so an identity provider that
 * stops sending the admin group cannot leave the help desk without one. The change is recorded in the
 * person's history with no actor (the identity provider decided), and, as an admin's role change does,
 * their sessions stay but every instance reads them again at the next request.
 */
async function giveMappedRole(
  db: Db,
  userId: string,
  role: Role,
  { onRoleChanged, warn }: OidcRoleMappingDeps,
): Promise<Role | null> {
  const outcome = await db.transaction(async (tx) => {
    const { target, activeAdminIds } = await lockActiveAdminsAnd(tx, userId);
    if (!target) return { held: null, changed: false };
    const before = roleOf(target.role);
    if (before === role) return { held: before, changed: false };
    const isLastActiveAdmin = before === "admin" && target.status === "Active" && activeAdminIds.length <= 1;
    if (isLastActiveAdmin) {
      warn(
        `Single sign-on would make ${target.email} a ${role}, but they are the last active administrator: ` +
          "they stay an administrator. Add them to the admin group at the identity provider, or make someone else an administrator first.",
      );
      return { held: before, changed: false };
    }
    await updateUser(tx, userId, { role });
    await insertUserChange(tx, {
      id: randomUUID(),
      userId,
      actorId: null,
      action: "role_from_sign_in",
      changes: [{ field: "role", from: before, to: role }],
    });
    return { held: role, changed: true };
  });
  if (outcome.changed) onRoleChanged(userId);
  return outcome.held;
}

/**
 * Whether the person must take the role their sign-in gives rather than choose one: a mapping is saved
 * and they sign in through the OIDC provider.
 */
export async function roleComesFromMapping(db: Db, userId: string, providerId: string): Promise<boolean> {
  const settings = await readSetting(db, "sso-roles");
  return hasSsoRoleMapping(settings) && (await hasAccountWith(db, userId, providerId));
}
