import { z } from "zod";

/** What became of a received message, as the admins' page groups it (decision 083). */
export const inboundOutcomes = ["ticket_created", "comment_added", "ignored_auto_reply", "refused"] as const;
export type InboundOutcome = (typeof inboundOutcomes)[number];

/** The page's filter: what was accepted (a ticket or a comment), refused, or ignored as an auto-reply. */
export const inboundOutcomeFilters = ["accepted", "refused", "ignored"] as const;
export type InboundOutcomeFilter = (typeof inboundOutcomeFilters)[number];

export const inboundMessageSchema = z.object({
  id: z.string(),
  receivedAt: z.iso.datetime(),
  fromAddress: z.string(),
  /** The helpdesk's address or the reply address it came to. */
  toAddress: z.string(),
  subject: z.string(),
  /** "processing" while an instance handles it (seconds, or until a dead instance's claim is given back). */
  outcome: z.enum([...inboundOutcomes, "processing"]),
  /** Why, in words: the refusal, how a reply was placed, skipped files, copied people. */
  detail: z.string().nullable(),
  /** Refused in the SMTP answer: the sending server was told, and a later delivery is judged again. */
  refusedInAnswer: z.boolean(),
  ticketId: z.string().nullable(),
});
export type InboundMessage = z.infer<typeof inboundMessageSchema>;

export const inboundMessagePageSchema = z.object({
  items: z.array(inboundMessageSchema),
  nextCursor: z.string().nullable(),
});
export type InboundMessagePage = z.infer<typeof inboundMessagePageSchema>;

export const inboundMessageQuerySchema = z.object({
  outcome: z.enum(inboundOutcomeFilters).optional(),
  cursor: z.string().max(400).optional(),
});
