import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { ParsedMail } from "mailparser";
import type { Clock } from "#server/clock.ts";
import type { ServiceContext } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { UserRow } from "#server/db/schema/index.ts";
import { AppError, isChangedMeanwhile } from "#server/errors.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import { uploadAttachment } from "#server/features/attachments/upload-attachment.service.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment } from "#server/features/tickets/ticket-activity.service.ts";
import { findUserByEmail } from "#server/features/users/user.queries.ts";
import { countAttempt } from "#server/http/rate-limit.ts";
import type { MailMessage } from "#server/mail/mailer.ts";
import { accountFromEmailMail, inboundRefusalMail } from "#server/mail/templates.ts";
import { maxAttachmentsPerItem } from "#shared/attachments/attachment.schemas.ts";
import { type Actor, can } from "#shared/permissions.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { type CreateTicketInput, createTicketDefaults } from "#shared/tickets/ticket.schemas.ts";
import { roleOf } from "#shared/users/roles.ts";
import { autoReplyReason } from "./auto-reply.ts";
import { createAccountFor, invitationValidHours } from "./inbound-account.ts";
import {
  classifyRecipient,
  type InboundMailSettings,
  type RecipientVerdict,
  splitAddress,
} from "./inbound-addresses.ts";
import {
  claimInboundMessage,
  insertOutboxMail,
  recordInboundOutcome,
  releaseInboundMessage,
} from "./inbound-mail.queries.ts";
import { bodyTextOf, cut, descriptionFrom, fileNameOf, storable, titleFromSubject } from "./inbound-text.ts";
import { isReplyLocalPart, type ReplyTarget } from "./reply-address.ts";
import { replySenderRefusal } from "./reply-sender.ts";
import { replyTextOf } from "./reply-text.ts";

export type { InboundMailSettings } from "./inbound-addresses.ts";

export interface InboundMailDeps {
  db: Db;
  dispatcher: Dispatcher;
  clock: Clock;
  /** The auth secret: reply addresses are signed with a key derived from it. */
  secret: string;
  baseURL: string;
  attachmentMaxBytes: number;
  settings: InboundMailSettings;
  /** Sends what was queued in the mail outbox (the mail dispatcher's wake). */
  wakeMail: () => void;
  /** This instance's id (decision 041): its claim on a message under way is given back if it dies. */
  instanceId?: string;
  log: { info: (data: object, message: string) => void; warn: (data: object, message: string) => void };
}

export interface InboundEnvelope {
  /** MAIL FROM; null for the empty return path of bounces and delivery reports. */
  from: string | null;
  /** The accepted RCPT TO addresses (the listener refuses any other). */
  recipients: readonly string[];
}

export type InboundResult =
  | { outcome: "duplicate"; messageId: string }
  | {
      outcome: "ticket_created" | "comment_added" | "ignored_auto_reply" | "refused";
      messageId: string;
      ticketId?: string;
      commentId?: string;
      detail?: string;
      /** A refusal told in the SMTP answer (550 with this text) rather than by mail (decision 057). */
      smtpRefusal?: string;
    };

/**
 * Answers per address per hour at most: a loop with a system that ignores Auto-Submitted stays short.
 * Counted in the shared rate_limits table, whose rows are pruned only after the longest sign-in window
 * (at least an hour), so a counter lives as long as this window.
 */
const bounceLimit = { window: 60 * 60, max: 3 };
/** A delivery that died mid-way (its instance stopped) may be taken over after this long. */
const staleClaimMs = 10 * 60_000;

/**
 * Turns one received message into a ticket or a comment through the same services the web app uses, or
 * ignores or refuses it, and records which (decision 028). Throws only for an unexpected failure: the
 * listener then answers 451 and the sending server tries again later (the claim is given back).
 */
export async function receiveInboundMail(
  deps: InboundMailDeps,
  envelope: InboundEnvelope,
  raw: Buffer,
): Promise<InboundResult> {
  // Imported on the first message, not at start (decision 044).
  const { simpleParser } = await import("mailparser");
  const parsed = await simpleParser(raw, { skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  const sender = parsed.from?.value[0];
  const fromAddress = (sender?.address ?? envelope.from ?? "").trim().toLowerCase();
  const subject = storable(parsed.subject ?? "").slice(0, 500);
  // Without a Message-ID, the bytes themselves identify a redelivery.
  const messageId = parsed.messageId ?? `<sha256.${createHash("sha256").update(raw).digest("hex")}@inbound>`;
  const verdicts = envelope.recipients.map((address) => ({
    address,
    verdict: classifyRecipient(deps.secret, deps.settings, address),
  }));
  // A reply address wins over the helpdesk's own when a message is sent to both.
  const chosen =
    verdicts.find((v) => v.verdict.kind === "reply") ??
    verdicts.find((v) => v.verdict.kind === "helpdesk") ??
    verdicts[0];
  const toAddress = chosen?.address ?? deps.settings.address;
  const now = deps.clock.now();
  const claimId = await claimInboundMessage(
    deps.db,
    {
      messageId: cut(messageId, 500),
      fromAddress,
      toAddress,
      subject: cut(subject, 200),
      receivedAt: now,
      claimedBy: deps.instanceId ?? null,
    },
    new Date(now.getTime() - staleClaimMs),
  );
  if (claimId === null) {
    deps.log.info({ inbound: { messageId, from: fromAddress } }, "inbound mail: duplicate, already handled");
    return { outcome: "duplicate", messageId };
  }
  try {
    const result = await decide(deps, { envelope, parsed, fromAddress, subject, messageId, chosen });
    if (result.smtpRefusal) {
      // Refused in the SMTP answer: the message was not accepted, so it leaves no claim behind (a later
      // delivery of it is judged again) and only the log tells of it, like a refusal at RCPT.
      await releaseInboundMessage(deps.db, claimId);
      deps.log.info(
        {
          inbound: { messageId, from: fromAddress, to: toAddress, outcome: "refused", detail: result.detail },
        },
        "inbound mail: refused in the SMTP answer",
      );
      return { outcome: "refused", messageId, detail: result.detail, smtpRefusal: result.smtpRefusal };
    }
    await recordInboundOutcome(deps.db, claimId, {
      outcome: result.outcome,
      detail: result.detail ?? null,
      ticketId: result.ticketId ?? null,
      commentId: result.commentId ?? null,
      userId: result.userId ?? null,
      processedAt: deps.clock.now(),
    });
    deps.log.info(
      {
        inbound: {
          messageId,
          from: fromAddress,
          to: toAddress,
          outcome: result.outcome,
          ticketId: result.ticketId,
          detail: result.detail,
        },
      },
      `inbound mail: ${result.outcome}`,
    );
    const { userId: _userId, ...reported } = result;
    return { ...reported, messageId };
  } catch (error) {
    await releaseInboundMessage(deps.db, claimId);
    throw error;
  }
}

interface Decision {
  outcome: "ticket_created" | "comment_added" | "ignored_auto_reply" | "refused";
  detail?: string;
  ticketId?: string;
  commentId?: string;
  userId?: string;
  smtpRefusal?: string;
}

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

interface Incoming {
  envelope: InboundEnvelope;
  parsed: ParsedMail;
  fromAddress: string;
  subject: string;
  messageId: string;
  chosen: { address: string; verdict: RecipientVerdict } | undefined;
}

async function decide(deps: InboundMailDeps, incoming: Incoming): Promise<Decision> {
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
  const target = chosen.verdict.kind === "reply" ? chosen.verdict.target : null;
  if (target) {
    // The listener asked at RCPT with the envelope sender; the From header is known only now.
    const refusal = await replySenderRefusal(deps.db, target, {
      envelope: envelope.from,
      header: fromAddress,
    });
    if (refusal) return refusedInAnswer(refusal);
  }
  let user = await findUserByEmail(deps.db, fromAddress);
  let createdAccount: { token: string } | null = null;
  if (!user) {
    if (target || deps.settings.unknownSenders !== "create-account") {
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
  const ctx: ServiceContext = { db: deps.db, actor, dispatcher: deps.dispatcher, clock: deps.clock };
  try {
    if (target) return await addReply(deps, ctx, incoming, user, target, refuse);
    if (!can.createTicket(actor)) {
      return refuse(
        "Technicians do not raise tickets: users and administrators do. A reply to a notification e-mail does become a comment on its ticket.",
        user.id,
      );
    }
    const decision = await raiseTicket(deps, ctx, incoming, user);
    if (createdAccount && decision.ticketId) {
      await queueMail(
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

/** Stores the message's files through the attachments service (its type allowlist and size cap). */
async function uploadFiles(deps: InboundMailDeps, ctx: ServiceContext, parsed: ParsedMail) {
  const ids: string[] = [];
  const skipped: string[] = [];
  for (const [index, file] of parsed.attachments.entries()) {
    const fileName = fileNameOf(file, index);
    if (ids.length >= maxAttachmentsPerItem) {
      skipped.push(`${fileName} (at most ${maxAttachmentsPerItem} files per ticket or comment)`);
      continue;
    }
    try {
      const uploaded = await uploadAttachment(
        ctx,
        { fileName, body: Readable.from([file.content]), declaredLength: file.content.length },
        { maxBytes: deps.attachmentMaxBytes },
      );
      ids.push(uploaded.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      skipped.push(`${fileName} (${error.message})`);
    }
  }
  const notes = skipped.length > 0 ? [`[Not attached from the e-mail: ${skipped.join("; ")}]`] : [];
  return { ids, skipped, notes };
}

async function raiseTicket(
  deps: InboundMailDeps,
  ctx: ServiceContext,
  { parsed, subject }: Incoming,
  user: UserRow,
): Promise<Decision> {
  const files = await uploadFiles(deps, ctx, parsed);
  const input: CreateTicketInput = {
    ...createTicketDefaults,
    title: titleFromSubject(subject),
    description: descriptionFrom(bodyTextOf(parsed), files.notes),
    // Nobody chose these: "Other" and the form's default priority, the sender's own department, and
    // "Not given" where the form would ask (decision 028). Staff correct them (can.editTicketDetails).
    category: "Other",
    priority: createTicketDefaults.priority,
    department: cut(storable(user.department).trim() || "General", 100),
    floor: "Not given",
    officeNumber: "Not given",
    attachmentIds: files.ids.length > 0 ? files.ids : undefined,
  };
  const ticket = await createTicket(ctx, input);
  return {
    outcome: "ticket_created",
    ticketId: ticket.ticketId,
    userId: user.id,
    detail: files.skipped.length > 0 ? `skipped attachments: ${files.skipped.join("; ")}` : undefined,
  };
}

async function addReply(
  deps: InboundMailDeps,
  ctx: ServiceContext,
  { parsed }: Incoming,
  user: UserRow,
  target: ReplyTarget,
  refuse: (reason: string, userId?: string) => Promise<Decision>,
): Promise<Decision> {
  const own = storable(replyTextOf(bodyTextOf(parsed)));
  if (!own && parsed.attachments.length === 0) {
    return refuse(
      `Your reply had no text of its own (only the quoted e-mail), so nothing was added to ticket ${target.ticketId}.`,
      user.id,
    );
  }
  const files = await uploadFiles(deps, ctx, parsed);
  const notes = files.notes.join("\n");
  const room = commentMaxLength - (notes ? notes.length + 2 : 0);
  const text = own || "(Files sent by e-mail.)";
  const message = [text.length > room ? `${text.slice(0, room - 1)}…` : text, notes]
    .filter(Boolean)
    .join("\n\n");
  const comment = await addComment(ctx, target.ticketId, {
    message,
    isInternal: target.isInternal,
    attachmentIds: files.ids.length > 0 ? files.ids : undefined,
  });
  return {
    outcome: "comment_added",
    ticketId: target.ticketId,
    commentId: comment.commentId,
    userId: user.id,
    detail:
      [
        target.isInternal ? "internal note" : null,
        files.skipped.length > 0 ? `skipped attachments: ${files.skipped.join("; ")}` : null,
      ]
        .filter(Boolean)
        .join("; ") || undefined,
  };
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
  await queueMail(
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

async function queueMail(deps: InboundMailDeps, userId: string | null, kind: string, mail: MailMessage) {
  await insertOutboxMail(deps.db, {
    userId,
    toAddress: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    link: mail.link,
    headers: mail.headers ?? {},
    kind,
  });
  deps.wakeMail();
}
