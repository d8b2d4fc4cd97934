import { createHash } from "node:crypto";
import { classifyRecipient } from "./inbound-addresses.ts";
import { decide } from "./inbound-decision.ts";
import { claimInboundMessage, recordInboundOutcome, releaseInboundMessage } from "./inbound-mail.queries.ts";
import type { InboundEnvelope, InboundMailDeps } from "./inbound-mail.types.ts";
import { cut, storable } from "./inbound-text.ts";

export type { InboundMailSettings } from "./inbound-addresses.ts";

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
      // Refused in the SMTP answer: the message was not accepted. It is recorded for the admins' page, and
      // a later delivery of it takes the row over and is judged again (claimInboundMessage).
      await recordInboundOutcome(deps.db, claimId, {
        outcome: "refused",
        detail: result.detail ?? null,
        userId: result.userId ?? null,
        refusedInAnswer: true,
        processedAt: deps.clock.now(),
      });
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
