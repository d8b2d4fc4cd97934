import { and, eq, lt } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type InboundMailOutcome, inboundMessages } from "#server/db/schema/index.ts";

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
      set: { receivedAt: values.receivedAt, toAddress: values.toAddress, claimedBy: values.claimedBy },
      setWhere: and(eq(inboundMessages.outcome, "processing"), lt(inboundMessages.receivedAt, staleBefore)),
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
    processedAt: Date;
  },
) {
  await db
    .update(inboundMessages)
    .set({ ...values, claimedBy: null })
    .where(eq(inboundMessages.id, id));
}

/** A failed attempt gives the message back, so that the sending server's retry processes it again. */
export async function releaseInboundMessage(db: Db, id: bigint) {
  await db
    .delete(inboundMessages)
    .where(and(eq(inboundMessages.id, id), eq(inboundMessages.outcome, "processing")));
}
