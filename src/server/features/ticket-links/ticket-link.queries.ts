import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  attachments,
  ticketComments,
  ticketEvents,
  ticketFollowers,
  ticketLinks,
  tickets,
} from "#server/db/schema/index.ts";
import { newTicketLinkId } from "#server/ids.ts";
import type { StoredTicketLink } from "#shared/ticket-links/ticket-link.schemas.ts";

const involves = (ticketId: string) =>
  or(eq(ticketLinks.ticketId, ticketId), eq(ticketLinks.linkedTicketId, ticketId));

/**
 * A ticket's links from either side, oldest first, each with the other ticket's facts (title, status and
 * what the permission rules read): one statement, joined by primary key.
 */
export function findLinksOf(db: Db, ticketId: string) {
  return db
    .select({
      link: ticketLinks,
      other: {
        id: tickets.id,
        title: tickets.title,
        status: tickets.status,
        createdBy: tickets.createdBy,
        assignedTo: tickets.assignedTo,
      },
    })
    .from(ticketLinks)
    .innerJoin(
      tickets,
      sql`${tickets.id} = case when ${ticketLinks.ticketId} = ${ticketId} then ${ticketLinks.linkedTicketId} else ${ticketLinks.ticketId} end`,
    )
    .where(involves(ticketId))
    .orderBy(asc(ticketLinks.createdAt), asc(ticketLinks.id));
}

/** The link between two tickets, whichever side made it (there is at most one: ticket_links_pair_idx). */
export async function findLinkBetween(db: Db, oneId: string, otherId: string) {
  const [row] = await db
    .select()
    .from(ticketLinks)
    .where(
      or(
        and(eq(ticketLinks.ticketId, oneId), eq(ticketLinks.linkedTicketId, otherId)),
        and(eq(ticketLinks.ticketId, otherId), eq(ticketLinks.linkedTicketId, oneId)),
      ),
    );
  return row;
}

/** A link by id, only when it is one of `ticketId`'s. */
export async function findLinkOf(db: Db, ticketId: string, linkId: string) {
  const [row] = await db
    .select()
    .from(ticketLinks)
    .where(and(eq(ticketLinks.id, linkId), involves(ticketId)));
  return row;
}

export async function insertLink(db: Db, link: StoredTicketLink & { createdBy: string; createdAt: Date }) {
  const [row] = await db
    .insert(ticketLinks)
    .values({ id: newTicketLinkId(link.createdAt.getTime()), ...link })
    .returning();
  return row!;
}

export async function deleteLink(db: Db, linkId: string) {
  await db.delete(ticketLinks).where(eq(ticketLinks.id, linkId));
}

/** The parent of a ticket (the other side of its "child" row), if it has one. */
export async function findParentId(db: Db, ticketId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ parentId: ticketLinks.linkedTicketId })
    .from(ticketLinks)
    .where(and(eq(ticketLinks.ticketId, ticketId), eq(ticketLinks.kind, "child")));
  return row?.parentId;
}

/** Whether `ancestorId` is `ticketId`'s parent, its parent's parent, and so on up the tree. */
export async function isAncestor(db: Db, ancestorId: string, ticketId: string): Promise<boolean> {
  const result = await db.execute(sql`
    with recursive up(id, depth) as (
      select linked_ticket_id, 1 from ticket_links where ticket_id = ${ticketId} and kind = 'child'
      union
      select l.linked_ticket_id, up.depth + 1
        from ticket_links l join up on l.ticket_id = up.id
       where l.kind = 'child' and up.depth < 1000
    )
    select 1 as found from up where id = ${ancestorId} limit 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * Moves a merged duplicate's comments and internal notes, with their timeline entries (a comment's
 * "commented" or "internal_note" event), and its files to the target (decision 074). They keep their times:
 * the target's timeline shows them where they happened. Returns how many comments and files moved.
 */
export async function moveConversation(db: Db, fromId: string, toId: string) {
  const comments = await db
    .update(ticketComments)
    .set({ ticketId: toId })
    .where(eq(ticketComments.ticketId, fromId))
    .returning({ id: ticketComments.id });
  await db
    .update(ticketEvents)
    .set({ ticketId: toId })
    .where(and(eq(ticketEvents.ticketId, fromId), sql`${ticketEvents.commentId} is not null`));
  const files = await db
    .update(attachments)
    .set({ ticketId: toId })
    .where(eq(attachments.ticketId, fromId))
    .returning({ id: attachments.id });
  return { comments: comments.length, attachments: files.length };
}

/** Moves a ticket's followers to another ticket (one who follows both keeps one follow); returns how many. */
export async function moveFollowers(db: Db, fromId: string, toId: string): Promise<number> {
  const moved = await db
    .delete(ticketFollowers)
    .where(eq(ticketFollowers.ticketId, fromId))
    .returning({ userId: ticketFollowers.userId, createdAt: ticketFollowers.createdAt });
  if (moved.length > 0) {
    await db
      .insert(ticketFollowers)
      .values(moved.map((row) => ({ ticketId: toId, userId: row.userId, createdAt: row.createdAt })))
      .onConflictDoNothing();
  }
  return moved.length;
}

/** Closes the merged duplicate with its pointer to the target, under the caller's row lock. */
export async function closeAsMerged(db: Db, ticketId: string, targetId: string, at: Date) {
  await db
    .update(tickets)
    .set({ status: "Closed", mergedIntoId: targetId, updatedAt: at })
    .where(eq(tickets.id, ticketId));
}
