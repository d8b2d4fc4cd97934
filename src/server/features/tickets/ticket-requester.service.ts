import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import { conflict, forbidden, ruleViolation } from "#server/errors.ts";
import { readSetting } from "#server/features/settings/settings.service.ts";
import { findUserByEmail, findUserById } from "#server/features/users/user.queries.ts";
import {
  insertInvitation,
  invitationMailOf,
  type UserManagementDeps,
} from "#server/features/users/user-management.service.ts";
import { queueMail } from "#server/mail/mail-outbox.queries.ts";
import { can } from "#shared/permissions.ts";

/** What inviting an unknown requester needs: the app's address, for the invitation's link. */
export type RequesterDeps = Pick<UserManagementDeps, "baseURL">;

/** The requester of a ticket being created, settled in the ticket's own transaction. */
export interface PendingRequester {
  resolve(
    tx: Db,
    ticket: { department: string; invitations?: RequesterDeps },
  ): Promise<{ userId: string; isInvited: boolean }>;
}

export const onlyStaffRaiseForOthers =
  "Only technicians and administrators can raise a ticket for someone else: leave requesterEmail out to raise it for yourself.";

/**
 * Who a new ticket is for (decision 079): the caller, or the person a staff member names with
 * `requesterEmail`. That person must have an active account; an address no account has is invited as a
 * user when Admin settings › Ticket intake allows it. A user naming anyone but themselves is refused
 * before anything about that address is looked up.
 */
export async function requesterOf(
  ctx: ServiceContext,
  requesterEmail: string | undefined,
): Promise<PendingRequester> {
  if (requesterEmail === undefined || (await isOwnAddress(ctx, requesterEmail))) {
    if (!can.createTicket(ctx.actor)) throw forbidden("You do not have permission to create tickets");
    return { resolve: async () => ({ userId: ctx.actor.id, isInvited: false }) };
  }
  if (!can.raiseTicketFor(ctx.actor)) throw forbidden(onlyStaffRaiseForOthers);
  const email = requesterEmail.toLowerCase();
  const person = await findUserByEmail(ctx.db, email);
  if (person) {
    if (person.status !== "Active") {
      throw ruleViolation(
        `The account of ${email} is deactivated: an administrator can activate it in user management.`,
      );
    }
    return { resolve: async () => ({ userId: person.id, isInvited: false }) };
  }
  const { inviteUnknownRequesters } = await readSetting(ctx.db, "ticket-intake");
  if (!inviteUnknownRequesters) {
    throw ruleViolation(
      `No account has the address ${email}. Invite the person in user management first, or ask an administrator to allow new requesters in Admin settings › Ticket intake.`,
    );
  }
  return {
    // In the ticket's transaction: a ticket refused later invites nobody, and the invitation's mail is
    // queued with it (sent after the commit, with retries) rather than sent before the ticket exists.
    resolve: async (tx, { department, invitations }) => {
      if (!invitations) throw new Error("requesterOf: inviting a requester needs the app's address");
      const invitation = await insertInvitation(tx, ctx.actor.id, {
        name: nameOfAddress(email),
        email,
        role: "user",
        department,
      });
      if (!invitation)
        throw conflict(`An account for ${email} was created meanwhile: send the ticket again.`);
      await queueMail(
        tx,
        invitation.row.id,
        "invitation",
        await invitationMailOf(tx, invitations, invitation),
      );
      return { userId: invitation.row.id, isInvited: true };
    },
  };
}

async function isOwnAddress(ctx: ServiceContext, email: string): Promise<boolean> {
  const self = await findUserById(ctx.db, ctx.actor.id);
  return self?.email.toLowerCase() === email.toLowerCase();
}

/** An invited requester's name until they change it: the address's local part ("jane.doe"). */
const nameOfAddress = (email: string) => (email.split("@")[0] || email).slice(0, 100);
