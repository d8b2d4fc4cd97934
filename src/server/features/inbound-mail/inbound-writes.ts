import { Readable } from "node:stream";
import type { ParsedMail } from "mailparser";
import type { ServiceContext } from "#server/context.ts";
import type { UserRow } from "#server/db/schema/index.ts";
import { AppError } from "#server/errors.ts";
import { uploadAttachment } from "#server/features/attachments/upload-attachment.service.ts";
import { createTicket } from "#server/features/tickets/ticket.service.ts";
import { addComment } from "#server/features/tickets/ticket-activity.service.ts";
import { maxAttachmentsPerItem } from "#shared/attachments/attachment.schemas.ts";
import { commentMaxLength } from "#shared/tickets/comment-length.ts";
import { type CreateTicketInput, createTicketDefaults } from "#shared/tickets/ticket.schemas.ts";
import type { Decision, InboundMailDeps, Incoming } from "./inbound-mail.types.ts";
import { bodyTextOf, cut, descriptionFrom, fileNameOf, storable, titleFromSubject } from "./inbound-text.ts";
import type { ReplyTarget } from "./reply-address.ts";
import { replyTextOf } from "./reply-text.ts";

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

/** A new ticket from the message, raised as its sender through the same service the web form uses. */
export async function raiseTicket(
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

/** A comment on the ticket the reply address names, added as the sender through the same service. */
export async function addReply(
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
