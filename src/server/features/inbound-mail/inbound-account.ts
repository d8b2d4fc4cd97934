import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "#server/clock.ts";
import type { Db } from "#server/db/client.ts";
import { findUserByEmail } from "#server/features/users/user.queries.ts";
import {
  insertInvitedUser,
  insertPasswordToken,
  insertUserChange,
} from "#server/features/users/user-management.queries.ts";
import { splitAddress } from "./inbound-addresses.ts";
import { cut, storable } from "./inbound-text.ts";

/** How long the mailed "choose your password" link works, like an invitation's. */
export const invitationValidHours = 72;

/** INBOUND_UNKNOWN_SENDERS=create-account: an Active user, who chooses a password from a mailed link. */
export async function createAccountFor(deps: { db: Db; clock: Clock }, email: string, displayName: string) {
  const name = cut(storable(displayName).replace(/\s+/g, " ").trim() || splitAddress(email).local, 100);
  const token = randomBytes(24).toString("base64url");
  const user = await deps.db.transaction(async (tx) => {
    const inserted = await insertInvitedUser(tx, {
      id: randomUUID(),
      name,
      email,
      role: "user",
      department: "General",
      status: "Active",
    });
    // Someone created the account a moment ago (another delivery, an admin): use theirs.
    if (!inserted) return { user: (await findUserByEmail(tx, email))!, isNew: false };
    await insertPasswordToken(tx, {
      token,
      userId: inserted.id,
      expiresAt: new Date(deps.clock.now().getTime() + invitationValidHours * 60 * 60_000),
    });
    await insertUserChange(tx, {
      id: randomUUID(),
      userId: inserted.id,
      actorId: null,
      action: "invited",
      changes: (["name", "email", "role", "department", "status"] as const).map((field) => ({
        field,
        from: null,
        to: inserted[field],
      })),
    });
    return { user: inserted, isNew: true };
  });
  return { user: user.user, token: user.isNew ? token : null };
}
