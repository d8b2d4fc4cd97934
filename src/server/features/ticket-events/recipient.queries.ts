import { and, eq, inArray, or } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { users } from "#server/db/schema/index.ts";

/**
 * Who hears of a ticket's warning or breach by name: the assignee and every admin, Active only, each once
 * (an admin who is the assignee too is one person). While it is unassigned the technicians hear of it as a
 * whole: a notification addressed to them (decision 068), not a list.
 */
export async function findEscalationRecipients(db: Db, assignedTo: string | null): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.status, "Active"),
        inArray(users.role, ["technician", "admin"]),
        or(eq(users.role, "admin"), assignedTo === null ? undefined : eq(users.id, assignedTo)),
      ),
    );
  return rows.map((row) => row.id);
}
