import { and, eq, inArray, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { users } from "#server/db/schema/index.ts";

/**
 * Who hears of a ticket's warning or breach: the assignee (or every technician while it is unassigned)
 * and every admin, Active only. Each once (an admin who is the assignee too is one person).
 */
export async function findEscalationRecipients(db: Db, assignedTo: string | null): Promise<string[]> {
  const handlers = assignedTo === null ? eq(users.role, "technician") : eq(users.id, assignedTo);
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.status, "Active"),
        inArray(users.role, ["technician", "admin"]),
        or(eq(users.role, "admin"), handlers),
      ),
    );
  return rows.map((row) => row.id);
}
