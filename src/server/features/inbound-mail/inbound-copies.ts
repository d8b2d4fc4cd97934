import type { AddressObject, EmailAddress } from "mailparser";
import type { ServiceContext } from "#server/context.ts";
import { insertFollower } from "#server/features/followers/follower.queries.ts";
import { findTicketById } from "#server/features/ticket-records/ticket.queries.ts";
import { findPeopleByEmails } from "#server/features/users/user.queries.ts";
import { can } from "#shared/permissions.ts";
import { roleOf } from "#shared/users/roles.ts";
import { classifyRecipient } from "./inbound-addresses.ts";
import type { InboundMailDeps, Incoming } from "./inbound-mail.types.ts";

// A message copied to a whole department is not a reason to look up hundreds of people.
const maxCopied = 20;

const addressesIn = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) =>
    object.value.flatMap((entry: EmailAddress) => [
      ...(entry.address ? [entry.address] : []),
      ...(entry.group ?? []).flatMap((member) => (member.address ? [member.address] : [])),
    ]),
  );

/**
 * The people copied on a message (Cc, and To beside the helpdesk) who have an account follow its ticket
 * (decision 083), each as if they had pressed Follow themselves: only who may see the ticket, since
 * following never grants sight (decision 014). Their replies then count like the sender's: a reply to
 * this message names it in In-Reply-To. Returns what was done, for the inbound outcome's detail.
 */
export async function followersFromCopies(
  deps: InboundMailDeps,
  ctx: ServiceContext,
  { parsed, fromAddress }: Incoming,
  ticketId: string,
): Promise<string | null> {
  const ours = new Set(deps.settings.ownAddresses.map((address) => address.toLowerCase()));
  const copied = [
    ...new Set([...addressesIn(parsed.to), ...addressesIn(parsed.cc)].map((a) => a.trim().toLowerCase())),
  ].filter(
    (address) =>
      address !== fromAddress &&
      !ours.has(address) &&
      classifyRecipient(deps.secret, deps.settings, address).kind === "unknown",
  );
  if (copied.length === 0) return null;
  const considered = copied.slice(0, maxCopied);
  const people = new Map((await findPeopleByEmails(deps.db, considered)).map((p) => [p.email, p]));
  // Read once: each person is then judged by the rule Follow applies (can.followTicket), without a read each.
  const ticket = await findTicketById(ctx.db, ticketId);
  const at = new Date();
  const followed: string[] = [];
  const refused: string[] = [];
  const strangers: string[] = [];
  for (const address of considered) {
    const person = people.get(address);
    const role = person ? roleOf(person.role) : null;
    if (!person) strangers.push(address);
    else if (person.status !== "Active" || role === null || !ticket) refused.push(address);
    else if (!can.followTicket({ id: person.id, role }, ticket)) refused.push(address);
    else {
      await insertFollower(ctx.db, ticketId, person.id, at);
      followed.push(address);
    }
  }
  return [
    followed.length > 0 ? `copied people who follow it now: ${followed.join(", ")}` : null,
    refused.length > 0 ? `copied people who may not see it, not made followers: ${refused.join(", ")}` : null,
    strangers.length > 0 ? `copied addresses without an account: ${strangers.join(", ")}` : null,
    copied.length > maxCopied ? `${copied.length - maxCopied} more copied addresses not looked at` : null,
  ]
    .filter(Boolean)
    .join("; ");
}
