import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { type TicketRow, tickets } from "#server/db/schema/index.ts";

const slaColumns = {
  status: tickets.status,
  createdBy: tickets.createdBy,
  priority: tickets.priority,
  createdAt: tickets.createdAt,
  firstResponseDueAt: tickets.firstResponseDueAt,
  firstRespondedAt: tickets.firstRespondedAt,
  resolutionDueAt: tickets.resolutionDueAt,
  resolvedAt: tickets.resolvedAt,
  slaDueAt: tickets.slaDueAt,
  firstResponseWarnAt: tickets.firstResponseWarnAt,
  resolutionWarnAt: tickets.resolutionWarnAt,
  firstResponseWarnedAt: tickets.firstResponseWarnedAt,
  firstResponseBreachedAt: tickets.firstResponseBreachedAt,
  resolutionWarnedAt: tickets.resolutionWarnedAt,
  resolutionBreachedAt: tickets.resolutionBreachedAt,
  onHoldSince: tickets.onHoldSince,
  slaPausedMinutes: tickets.slaPausedMinutes,
};
type TicketSlaRow = Pick<TicketRow, keyof typeof slaColumns>;
/** What the SLA step writes: every column but the ticket's facts and its hold (the hold's service writes it). */
export type TicketSlaColumns = Omit<
  TicketSlaRow,
  "status" | "createdBy" | "priority" | "createdAt" | "onHoldSince"
>;
export type TicketSlaValues = Partial<TicketSlaColumns>;

/**
 * Read inside the caller's transaction, after its own update, and locked: two first responses at once
 * must not both stamp the ticket. The caller locked the row first (inTicketTransaction); the same lock
 * mode again costs nothing, where FOR UPDATE would wait for every comment being inserted on the ticket
 * (their foreign key's key-share lock) while those wait for this writer: a deadlock (decision 053).
 */
export async function findTicketSlaRow(db: Db, id: string): Promise<TicketSlaRow | undefined> {
  const [row] = await db.select(slaColumns).from(tickets).where(eq(tickets.id, id)).for("no key update");
  return row;
}

export async function updateTicketSla(db: Db, id: string, values: TicketSlaValues) {
  await db.update(tickets).set(values).where(eq(tickets.id, id));
}
