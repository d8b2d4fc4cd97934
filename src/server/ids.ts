import { randomInt } from "node:crypto";

const base36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function randomSuffix(length: number): string {
  let suffix = "";
  for (let i = 0; i < length; i++) suffix += base36[randomInt(36)];
  return suffix;
}

/** TKT + uppercase base-36 timestamp + 8 cryptographically random base-36 characters (~41 bits). */
export function newTicketId(now = Date.now()): string {
  return `TKT${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}

/** CMT + uppercase base-36 timestamp + random suffix. */
export function newCommentId(now = Date.now()): string {
  return `CMT${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}

export function newEventId(now = Date.now()): string {
  return `EVT${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}

export function newAttachmentId(now = Date.now()): string {
  return `ATT${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}
