import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { forbidden } from "#server/errors.ts";
import { findPeopleByIds } from "#server/features/users/user.queries.ts";
import {
  type MentionOutcome,
  type MentionRefusal,
  mentionableRoles,
  type StaffDirectoryQuery,
  type StaffMember,
} from "#shared/mentions/mention.schemas.ts";
import { mentionsToPlainText, parseMentions } from "#shared/mentions/mentions.ts";
import { can, type TicketFacts } from "#shared/permissions.ts";
import { roleOf } from "#shared/users/roles.ts";
import { findActiveStaff } from "./mention.queries.ts";

const isStaffRole = (role: string | null): role is StaffMember["role"] =>
  mentionableRoles.some((r) => r === role);

/** GET /api/staff?q=: the @-autocomplete's choices; staff only (a user cannot mention, nor list staff). */
export async function listStaff(ctx: ServiceContext, query: StaffDirectoryQuery): Promise<StaffMember[]> {
  if (!can.mention(ctx.actor)) throw forbidden("Only technicians and administrators can look up staff");
  const rows = await findActiveStaff(ctx.db, query);
  return rows.flatMap((row) =>
    isStaffRole(row.role) ? [{ id: row.id, name: row.name, role: row.role }] : [],
  );
}

export interface ResolvedMentions {
  /** The text to store: a user's tokens become plain "@Name" text (they cannot mention). */
  message: string;
  /** Who gets a `mentioned` notification (recordTicketEvent checks them again at write time). */
  notifyIds: string[];
  outcome: MentionOutcome;
}

/**
 * Decision 014: a mention notifies an active technician or administrator who may see the ticket now;
 * it never grants access. The others are reported back to the author; the comment is saved either way.
 */
export async function resolveMentions(
  db: Db,
  author: ServiceContext["actor"],
  ticket: TicketFacts,
  message: string,
): Promise<ResolvedMentions> {
  const none: MentionOutcome = { notified: [], notNotified: [] };
  if (!can.mention(author)) return { message: mentionsToPlainText(message), notifyIds: [], outcome: none };
  const mentions = parseMentions(message).filter((mention) => mention.userId !== author.id);
  if (mentions.length === 0) return { message, notifyIds: [], outcome: none };
  const people = new Map(
    (
      await findPeopleByIds(
        db,
        mentions.map((m) => m.userId),
      )
    ).map((p) => [p.id, p]),
  );
  const outcome: MentionOutcome = { notified: [], notNotified: [] };
  for (const mention of mentions) {
    const person = people.get(mention.userId);
    const refusal: MentionRefusal | null = !person
      ? "unknown"
      : !isStaffRole(person.role)
        ? "not_staff"
        : person.status !== "Active"
          ? "inactive"
          : !can.viewTicket({ id: person.id, role: roleOf(person.role) }, ticket)
            ? "cannot_see_ticket"
            : null;
    const name = person?.name ?? mention.name;
    if (refusal) outcome.notNotified.push({ userId: mention.userId, name, reason: refusal });
    else outcome.notified.push({ userId: mention.userId, name });
  }
  return { message, notifyIds: outcome.notified.map((p) => p.userId), outcome };
}
