import type { ParsedMail } from "mailparser";
import type { Clock } from "#server/clock.ts";
import type { TicketAutomation } from "#server/context.ts";
import type { Db } from "#server/db/client.ts";
import type { Dispatcher } from "#server/events/dispatcher.ts";
import type { InboundMailSettings, RecipientVerdict } from "./inbound-addresses.ts";

export interface InboundMailDeps {
  db: Db;
  dispatcher: Dispatcher;
  /** Automation rules (decision 076), run after the ticket or reply a message makes. */
  automation?: TicketAutomation;
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

/** What became of a message: the outcome recorded in inbound_messages, and whose account it was. */
export interface Decision {
  outcome: "ticket_created" | "comment_added" | "ignored_auto_reply" | "refused";
  detail?: string;
  ticketId?: string;
  commentId?: string;
  userId?: string;
  smtpRefusal?: string;
}

/** One received message, parsed, with the recipient it was judged by. */
export interface Incoming {
  envelope: InboundEnvelope;
  parsed: ParsedMail;
  fromAddress: string;
  subject: string;
  messageId: string;
  chosen: { address: string; verdict: RecipientVerdict } | undefined;
}
