import type { Headers, HeaderValue } from "mailparser";

const headerText = (value: HeaderValue | undefined): string => {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => headerText(v as HeaderValue)).join(", ");
  if (typeof value === "object" && "value" in value) return String(value.value);
  return String(value);
};

/**
 * Why a message is machine-written and must get no ticket, no comment and no answer (decision 028), or
 * null for mail a person wrote. Answering an auto-reply is how two systems mail each other forever.
 */
export function autoReplyReason(headers: Headers, envelopeFrom: string | null): string | null {
  const autoSubmitted = headerText(headers.get("auto-submitted")).split(";")[0]!.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== "no") return `Auto-Submitted: ${autoSubmitted}`;
  const precedence = headerText(headers.get("precedence")).trim().toLowerCase();
  if (["bulk", "junk", "list", "auto_reply"].includes(precedence)) return `Precedence: ${precedence}`;
  for (const name of ["x-autoreply", "x-autorespond", "x-auto-response-suppress"]) {
    if (headers.has(name)) return `${name}: ${headerText(headers.get(name)).trim()}`;
  }
  const contentType = headers.get("content-type");
  if (contentType && typeof contentType === "object" && "value" in contentType) {
    if (String(contentType.value).toLowerCase() === "multipart/report") return "a delivery report";
  }
  // A bounce or delivery notice has an empty return path (RFC 5321 §4.5.5).
  if (envelopeFrom === null) return "an empty return path (a bounce)";
  return null;
}
