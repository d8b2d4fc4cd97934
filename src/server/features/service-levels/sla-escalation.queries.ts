import { type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import type { SlaTarget } from "#shared/service-levels/sla-escalation.ts";

export interface ClaimedTicket {
  ticketId: string;
  dueAt: Date | null;
}

/**
 * The columns of each target, as raw SQL: the claims below must repeat the partial indexes' predicates
 * word for word (tickets.ts) so the planner can use them, which drizzle's bound parameters would hide.
 */
const columns: Record<SlaTarget, { warnAt: SQL; dueAt: SQL; warnedAt: SQL; breachedAt: SQL; unmet: SQL }> = {
  first_response: {
    warnAt: sql.raw("first_response_warn_at"),
    dueAt: sql.raw("first_response_due_at"),
    warnedAt: sql.raw("first_response_warned_at"),
    breachedAt: sql.raw("first_response_breached_at"),
    unmet: sql.raw("first_responded_at is null and status in ('Open', 'In Progress')"),
  },
  resolution: {
    warnAt: sql.raw("resolution_warn_at"),
    dueAt: sql.raw("resolution_due_at"),
    warnedAt: sql.raw("resolution_warned_at"),
    breachedAt: sql.raw("resolution_breached_at"),
    // A ticket on hold waits on its requester: its resolution is paused (decision 070).
    unmet: sql.raw("status in ('Open', 'In Progress') and on_hold_since is null"),
  },
};

const rowsOf = (result: unknown) =>
  (result as { rows: Array<{ id: string; due_at: string | Date | null }> }).rows.map(
    (row): ClaimedTicket => ({ ticketId: row.id, dueAt: row.due_at === null ? null : new Date(row.due_at) }),
  );

/**
 * Claims up to `limit` tickets whose target was missed by `now` and not yet announced: stamps breachedAt
 * (and warnedAt, so a warning the job never got to send is not sent late) and returns them. Rows another
 * transaction holds are skipped (SKIP LOCKED, in the lock mode every ticket writer takes first: decision
 * 053), and the stamp is the claim: once it commits, no instance picks the ticket again. Must be the first
 * statement of the transaction that records the notifications.
 */
export async function claimBreachedTickets(
  tx: Db,
  target: SlaTarget,
  { now, limit }: { now: Date; limit: number },
): Promise<ClaimedTicket[]> {
  const c = columns[target];
  const at = now.toISOString();
  return rowsOf(
    await tx.execute(sql`
      with due as (
        select id from tickets
        where ${c.dueAt} <= ${at}::timestamptz and ${c.breachedAt} is null and ${c.unmet}
        order by ${c.dueAt}, id
        limit ${limit}
        for no key update skip locked
      )
      update tickets set ${c.breachedAt} = ${at}::timestamptz, ${c.warnedAt} = coalesce(${c.warnedAt}, ${at}::timestamptz)
      from due
      where tickets.id = due.id and tickets.${c.breachedAt} is null
      returning tickets.id, tickets.${c.dueAt} as due_at`),
  );
}

/**
 * Claims up to `limit` tickets past their warning time whose target is still unmet and not yet due, and
 * not yet warned: stamps warnedAt and returns them (same claim rules as claimBreachedTickets).
 */
export async function claimWarnedTickets(
  tx: Db,
  target: SlaTarget,
  { now, limit }: { now: Date; limit: number },
): Promise<ClaimedTicket[]> {
  const c = columns[target];
  const at = now.toISOString();
  return rowsOf(
    await tx.execute(sql`
      with due as (
        select id from tickets
        where ${c.warnAt} <= ${at}::timestamptz and ${c.warnedAt} is null and ${c.unmet}
          and (${c.dueAt} is null or ${c.dueAt} > ${at}::timestamptz)
        order by ${c.warnAt}, id
        limit ${limit}
        for no key update skip locked
      )
      update tickets set ${c.warnedAt} = ${at}::timestamptz
      from due
      where tickets.id = due.id and tickets.${c.warnedAt} is null
      returning tickets.id, tickets.${c.dueAt} as due_at`),
  );
}
