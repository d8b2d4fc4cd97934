import type { ServiceContext } from "#server/context.ts";
import { AppError, isChangedMeanwhile } from "#server/errors.ts";
import { findUserByEmail } from "#server/features/users/user.queries.ts";
import { queueMail } from "#server/mail/mail-outbox.queries.ts";
import type { MailMessage } from "#server/mail/mailer.ts";
import { accountFromEmailMail, inboundRefusalMail } from "#server/mail/templates.ts";
import { countAttempt } from "#server/rate-limit.ts";
import { type Actor, can, isStaff } from "#shared/permissions.ts";
import { roleOf } from "#shared/users/roles.ts";
import { autoReplyReason } from "./auto-reply.ts";
import { createAccountFor, invitationValidHours } from "./inbound-account.ts";
import { splitAddress } from "./inbound-addresses.ts";
import { followersFromCopies } from "./inbound-copies.ts";
import type { Decision, InboundMailDeps, Incoming } from "./inbound-mail.types.ts";
import { addReply, raiseTicket } from "./inbound-writes.ts";
import { findThread, type ThreadMatch } from "./mail-thread.ts";
import type { ReplyTarget } from "./reply-address.ts";
import { isReplyLocalPart } from "./reply-address.ts";
import { replySenderRefusal } from "./reply-sender.ts";

/**
 * Answers per address per hour at most: a loop with a system that ignores Auto-Submitted stays short.
 * Counted in the shared rate_limits table, whose rows are pruned only after the longest sign-in window
 * (at least an hour), so a counter lives as long as this window.
 */
const bounceLimit = { window: 60 * 60, max: 3 };

// An SMTP reply is one line of printable ASCII.
const notSmtpText = /[^\x20-\x7E]/g;

/** A refusal told in the SMTP answer: one line of printable ASCII, short enough for any client. */
const refusedInAnswer = (text: string, userId?: string): Decision => {
  const line = text.replace(notSmtpText, "?");
  return {
    outcome: "refused",
    detail: `${text} (refused in the SMTP answer)`,
    smtpRefusal: line.length > 400 ? `${line.slice(0, 397)}...` : line,
    userId,
  };
};

/**
 * What to do with a message: ignore an auto-reply, refuse (in the SMTP answer or by mail), or raise a
 * ticket or add a reply as its sender.
 */
export async function decide(deps: InboundMailDeps, incoming: Incoming): Promise<Decision> {
  const { envelope, parsed, fromAddress, chosen } = incoming;
  const own = deps.settings.ownAddresses.map((a) => a.toLowerCase());
  const helpdeskDomain = splitAddress(deps.settings.address).domain.toLowerCase();
  const fromParts = splitAddress(fromAddress);
  const isFromUs =
    own.includes(fromAddress) ||
    fromAddress === deps.settings.address.toLowerCase() ||
    (fromParts.domain === helpdeskDomain && isReplyLocalPart(fromParts.local));
  const autoReason = isFromUs
    ? "sent by the helpdesk itself"
    : /^(mailer-daemon|postmaster)$/i.test(fromParts.local)
      ? "sent by a mail system"
      : autoReplyReason(parsed.headers, envelope.from);
  // Never answered, or two programs would mail each other forever.
  if (autoReason) return { outcome: "ignored_auto_reply", detail: autoReason };

  // Answered by mail only for an account holder writing from their own mailbox (envelope sender and From
  // agree): a deactivated account, a technician raising a ticket, a reply with no text of its own. Anyone
  // else is told in the SMTP answer, so no mail of ours goes to an address someone forged (decision 057).
  const isOwnMailbox = envelope.from?.trim().toLowerCase() === fromAddress;
  const refuse = async (reason: string, userId?: string): Promise<Decision> => {
    if (!userId || !isOwnMailbox) return refusedInAnswer(`5.7.1 ${reason}`, userId);
    const bounced = await bounce(deps, incoming, reason);
    return {
      outcome: "refused",
      detail: bounced
        ? reason
        : `${reason} (no answer sent: ${bounced === null ? "no return path" : "answer limit reached"})`,
      userId,
    };
  };

  if (!fromAddress) return { outcome: "refused", detail: "The message names no sender." };
  if (!chosen || chosen.verdict.kind === "unknown" || chosen.verdict.kind === "forged") {
    // The listener refuses these recipients before DATA; kept here for callers that skip it.
    return { outcome: "refused", detail: `Not an address of this helpdesk: ${chosen?.address ?? "(none)"}` };
  }
  const signed = chosen.verdict.kind === "reply" ? chosen.verdict.target : null;
  if (signed) {
    // The listener asked at RCPT with the envelope sender; the From header is known only now.
    const refusal = await replySenderRefusal(deps.db, signed, {
      envelope: envelope.from,
      header: fromAddress,
    });
    if (refusal) return refusedInAnswer(refusal);
  }
  // Sent to the helpdesk's own address, it may still answer a ticket's mail (decision 083).
  const thread = signed ? null : await findThread(deps.db, parsed, incoming.subject);
  let user = await findUserByEmail(deps.db, fromAddress);
  let createdAccount: { token: string } | null = null;
  if (!user) {
    if (signed || thread || deps.settings.unknownSenders !== "create-account") {
      return refuse(
        `The address ${fromAddress} has no Helpdesk account, and only people with an account can raise tickets or reply by e-mail. Ask your IT department for an account, or sign up at ${deps.baseURL}/sign-up, and then write again from the address of your account.`,
      );
    }
    if (!isOwnMailbox) {
      // The invitation would be mailed to the From address: only when the envelope sender is that address too.
      return refusedInAnswer(
        "5.7.1 An account is made by e-mail only for mail whose envelope sender and From address are the same. Write from your own mailbox, or sign up in Helpdesk.",
      );
    }
    const created = await createAccountFor(deps, fromAddress, parsed.from?.value[0]?.name ?? "");
    user = created.user;
    if (created.token) createdAccount = { token: created.token };
  }
  if (user.status !== "Active") {
    return refuse(
      "The Helpdesk account of this address is deactivated, so it cannot raise tickets or comment. If you think this is a mistake, ask an administrator.",
      user.id,
    );
  }
  const actor: Actor = { id: user.id, role: roleOf(user.role) };
  if (actor.role === null) {
    return refuse(
      `Your Helpdesk account is not set up yet. Sign in at ${deps.baseURL} and choose your role first.`,
      user.id,
    );
  }
  const ctx: ServiceContext = {
    db: deps.db,
    actor,
    dispatcher: deps.dispatcher,
    clock: deps.clock,
    automation: deps.automation,
  };
  const target = signed ?? (thread ? threadTarget(thread, user.id, actor) : null);
  try {
    if (target) {
      const reply = await addReply(deps, ctx, incoming, user, target, refuse);
      return await withCopies(deps, ctx, incoming, reply, thread ? `placed by ${thread.via}` : null);
    }
    if (!can.createTicket(actor)) {
      return refuse(
        "Technicians do not raise tickets: users and administrators do. A reply to a notification e-mail does become a comment on its ticket.",
        user.id,
      );
    }
    const decision = await withCopies(deps, ctx, incoming, await raiseTicket(deps, ctx, incoming, user));
    if (createdAccount && decision.ticketId) {
      await queueMailAndWake(
        deps,
        user.id,
        "inbound_account",
        accountFromEmailMail({
          to: user.email,
          name: user.name,
          ticketId: decision.ticketId,
          url: `${deps.baseURL}/api/auth/reset-password/${createdAccount.token}?callbackURL=${encodeURIComponent("/reset-password")}`,
          validForHours: invitationValidHours,
        }),
      );
      return {
        ...decision,
        detail: [decision.detail, "account created for the sender"].filter(Boolean).join("; "),
      };
    }
    return decision;
  } catch (error) {
    // The services' own refusals (a ticket they may not see, a required custom field): told, not retried.
    // A write that met another on the same ticket is not a refusal: the sender's server tries again.
    if (
      error instanceof AppError &&
      error.code !== "internal" &&
      error.code !== "unavailable" &&
      !isChangedMeanwhile(error)
    ) {
      const what = target
        ? `Your reply could not be added to ticket ${target.ticketId}`
        : "Your e-mail could not be raised as a ticket";
      return refuse(
        `${what}: ${error.message.replace(/\.$/, "")}. You can still use Helpdesk at ${deps.baseURL}.`,
        user.id,
      );
    }
    throw error;
  }
}

/**
 * A reply placed by its thread rather than its address. A staff member's reply placed only by the subject's
 * tag becomes an internal note: nothing from a mail whose context is unknown reaches the requester unseen.
 */
const threadTarget = (thread: ThreadMatch, userId: string, actor: Actor): ReplyTarget => ({
  ticketId: thread.ticketId,
  userId,
  isInternal: thread.isInternal || (thread.via === "subject tag" && isStaff(actor)),
});

/** After a ticket or comment from mail: the people it was copied to follow the ticket (decision 083). */
async function withCopies(
  deps: InboundMailDeps,
  ctx: ServiceContext,
  incoming: Incoming,
  decision: Decision,
  placed: string | null = null,
): Promise<Decision> {
  if (decision.outcome === "refused" || !decision.ticketId) return decision;
  const copies = await followersFromCopies(deps, ctx, incoming, decision.ticketId);
  const detail = [placed, decision.detail, copies].filter(Boolean).join("; ");
  return { ...decision, detail: detail || undefined };
}

/**
 * Queues the polite refusal for the return path (RFC 3834 §3.1.1), at most a few per address per hour.
 * True when queued, false when over the limit, null when there is nowhere to send it.
 */
async function bounce(deps: InboundMailDeps, incoming: Incoming, reason: string): Promise<boolean | null> {
  const to = incoming.envelope.from?.trim().toLowerCase();
  if (!to) return null;
  const { count } = await countAttempt(deps.db, `inbound-bounce|${to}`, bounceLimit.window);
  if (count > bounceLimit.max) return false;
  await queueMailAndWake(
    deps,
    null,
    "inbound_refusal",
    inboundRefusalMail({
      to,
      originalSubject: incoming.subject,
      originalMessageId: incoming.parsed.messageId ?? null,
      reason,
      helpdeskUrl: deps.baseURL,
    }),
  );
  return true;
}

async function queueMailAndWake(
  deps: InboundMailDeps,
  userId: string | null,
  kind: string,
  mail: MailMessage,
) {
  await queueMail(deps.db, userId, kind, mail);
  deps.wakeMail();
}
