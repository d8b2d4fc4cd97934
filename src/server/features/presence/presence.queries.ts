import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { tickets, users } from "#server/db/schema/index.ts";
import { bound, runShaped } from "#server/db/statement-shapes.ts";
import type { TicketFacts } from "#shared/permissions.ts";

/**
 * What a presence heartbeat needs, in one round trip through a statement built once (decision 066): who may
 * see the ticket, and the name the others are shown. Undefined when there is no such ticket.
 */
export async function findPresenceFacts(
  db: Db,
  ticketId: string,
  userId: string,
): Promise<{ ticket: TicketFacts; name: string } | undefined> {
  const [row] = await runShaped(
    db,
    "presence-facts",
    () =>
      db
        .select({
          createdBy: tickets.createdBy,
          assignedTo: tickets.assignedTo,
          status: tickets.status,
          name: sql<
            string | null
          >`(select ${users.name} from ${users} where ${users.id} = ${bound("userId")})`,
        })
        .from(tickets)
        .where(eq(tickets.id, bound("ticketId"))),
    { ticketId, userId },
  );
  if (!row) return undefined;
  const { name, ...ticket } = row;
  return { ticket, name: name ?? "" };
}
