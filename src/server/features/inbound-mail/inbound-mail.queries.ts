import { and, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  type InboundMailOutcome,
  inboundMessages,
  mailOutbox,
  ticketComments,
  tickets,
} from "#server/db/schema/index.ts";

/**
 * Claims a message for processing: inserts its row, or takes over one left "processing" since before
 * `staleBefore` (an instance that died mid-way; its claim is given back sooner when it is found dead,
 * decision 041). Null when another delivery of it has it or had it: the
 * message is a duplicate and nothing more is done. One statement, so two deliveries at once cannot both win.
 */
export async function claimInboundMessage(
  db: Db,
  values: {
    messageId: string;
    fromAddress: string;
    toAddress: string;
    subject: string;
    receivedAt: Date;
    claimedBy: string | null;
  },
  staleBefore: Date,
): Promise<bigint | null> {
  const [row] = await db
    .insert(inboundMessages)
    .values({ ...values, outcome: "processing" })
    .onConflictDoUpdate({
      target: [inboundMessages.messageId, inboundMessages.fromAddress],
      set: {
        receivedAt: values.receivedAt,
        toAddress: values.toAddress,
        subject: values.subject,
        claimedBy: values.claimedBy,
        outcome: "processing",
        detail: null,
        refusedInAnswer: false,
        processedAt: null,
      },
      // A message refused in the SMTP answer was not accepted: its next delivery is judged again.
      setWhere: or(
        and(eq(inboundMessages.outcome, "processing"), lt(inboundMessages.receivedAt, staleBefore)),
        eq(inboundMessages.refusedInAnswer, true),
      ),
    })
    .returning({ id: inboundMessages.id });
  return row?.id ?? null;
}

export async function recordInboundOutcome(
  db: Db,
  id: bigint,
  values: {
    outcome: Exclude<InboundMailOutcome, "processing">;
    detail?: string | null;
    ticketId?: string | null;
    commentId?: string | null;
    userId?: string | null;
    refusedInAnswer?: boolean;
    processedAt: Date;
  },
) {
  await db
    .update(inboundMessages)
    .set({ ...values, claimedBy: null })
    .where(eq(inboundMessages.id, id));
}

/**
 * The tickets that messages with these Message-IDs are about (decision 083): mail the helpdesk sent about a
 * ticket, and mail it received that became a ticket or a comment. A merged ticket leads to its target.
 */
export async function findThreadedMessages(
  db: Db,
  messageIds: string[],
): Promise<Array<{ messageId: string; ticketId: string; isInternal: boolean }>> {
  const ids = sql.param(messageIds);
  const result = await db.execute<{ message_id: string; ticket_id: string; is_internal: boolean }>(sql`
    select found.message_id, coalesce(t.merged_into_id, t.id) as ticket_id, found.is_internal
    from (
      select o.message_id, o.ticket_id, o.is_internal
      from ${mailOutbox} o
      where o.message_id = any(${ids}::text[]) and o.ticket_id is not null
      union all
      select i.message_id, i.ticket_id, coalesce(c.is_internal, false)
      from ${inboundMessages} i
      left join ${ticketComments} c on c.id = i.comment_id
      where i.message_id = any(${ids}::text[]) and i.ticket_id is not null
        and i.outcome in ('ticket_created', 'comment_added')
    ) found
    join ${tickets} t on t.id = found.ticket_id`);
  return (
    result as unknown as { rows: Array<{ message_id: string; ticket_id: string; is_internal: boolean }> }
  ).rows.map((row) => ({ messageId: row.message_id, ticketId: row.ticket_id, isInternal: row.is_internal }));
}

/** The ticket a subject's tag names, or the one it was merged into; null when there is no such ticket. */
export async function findTaggedTicket(db: Db, ticketId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: sql<string>`coalesce(${tickets.mergedIntoId}, ${tickets.id})` })
    .from(tickets)
    .where(eq(tickets.id, ticketId));
  return row?.id ?? null;
}

/** A failed attempt gives the message back, so that the sending server's retry processes it again. */
export async function releaseInboundMessage(db: Db, id: bigint) {
  await db
    .delete(inboundMessages)
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.outcome, "processing")));
}

/** The received messages, newest first, a page after `after` (the last one shown), for the admins' page. */
export function findInboundMessages(
  db: Db,
  {
    outcomes,
    after,
    limit,
  }: { outcomes?: readonly InboundMailOutcome[]; after?: { createdAt: Date; id: string }; limit: number },
) {
  const conditions: SQL[] = [];
  if (outcomes) conditions.push(inArray(inboundMessages.outcome, [...outcomes]));
  if (after) {
    conditions.push(
      sql`(${inboundMessages.receivedAt}, ${inboundMessages.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::bigint)`,
    );
  }
  return db
    .select()
    .from(inboundMessages)
    .where(and(...conditions))
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(limit);
}
