import { isReplyLocalPart, type ReplyTarget, verifyReplyLocalPart } from "./reply-address.ts";

export const unknownSenderPolicies = ["bounce", "create-account"] as const;
export type UnknownSenderPolicy = (typeof unknownSenderPolicies)[number];

/** INBOUND_* settings (decision 028). */
export interface InboundMailSettings {
  /** The helpdesk's address, e.g. helpdesk@example.org: a message to it raises a ticket. */
  address: string;
  maxMessageBytes: number;
  unknownSenders: UnknownSenderPolicy;
  /** Addresses our own mail leaves from (MAIL_FROM): mail from them is never processed (no loops). */
  ownAddresses: readonly string[];
}

export const splitAddress = (address: string) => {
  const at = address.lastIndexOf("@");
  return at === -1
    ? { local: address, domain: "" }
    : { local: address.slice(0, at), domain: address.slice(at + 1) };
};

/** What a recipient address is to us: the helpdesk, a validly signed reply address, or neither. */
export type RecipientVerdict =
  | { kind: "helpdesk" }
  | { kind: "reply"; target: ReplyTarget }
  | { kind: "forged" }
  | { kind: "unknown" };

export function classifyRecipient(
  secret: string,
  settings: InboundMailSettings,
  address: string,
): RecipientVerdict {
  const lower = address.trim().toLowerCase();
  if (lower === settings.address.toLowerCase()) return { kind: "helpdesk" };
  const { local, domain } = splitAddress(address.trim());
  if (domain.toLowerCase() !== splitAddress(settings.address).domain.toLowerCase())
    return { kind: "unknown" };
  if (!isReplyLocalPart(local)) return { kind: "unknown" };
  const target = verifyReplyLocalPart(secret, local);
  return target ? { kind: "reply", target } : { kind: "forged" };
}
