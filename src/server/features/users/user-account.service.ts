import { randomUUID } from "node:crypto";
import type { Db } from "#server/db/client.ts";
import type { UserRow } from "#server/db/schema/index.ts";
import type { InviteUserInput } from "#shared/users/user-management.schemas.ts";
import { insertInvitedUser, insertUserChange } from "./user-management.queries.ts";

/**
 * A new account, without a password, and the history entry naming who made it, in the caller's
 * transaction; undefined when the address already has one. An invitation adds its one-time link; a person
 * an identity provider provisions over SCIM (decision 081) gets none: they sign in by single sign-on, or
 * choose a password with "Forgot password".
 */
export async function insertAccount(
  tx: Db,
  actorId: string,
  input: InviteUserInput & { status?: "Active" | "Inactive"; externalId?: string | null },
  action: "invited" | "provisioned",
): Promise<UserRow | undefined> {
  const inserted = await insertInvitedUser(tx, {
    id: randomUUID(),
    name: input.name,
    email: input.email.toLowerCase(),
    role: input.role,
    department: input.department,
    status: input.status ?? "Active",
    externalId: input.externalId ?? null,
  });
  if (!inserted) return undefined;
  await insertUserChange(tx, {
    id: randomUUID(),
    userId: inserted.id,
    actorId,
    action,
    changes: (["name", "email", "role", "department", "status"] as const).map((field) => ({
      field,
      from: null,
      to: inserted[field],
    })),
  });
  return inserted;
}
