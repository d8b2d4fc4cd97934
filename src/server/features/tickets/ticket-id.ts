import { randomInt } from "node:crypto";

const base36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** TKT + uppercase base-36 timestamp + 8 cryptographically random base-36 characters (~41 bits). */
export function newTicketId(now = Date.now()): string {
  let suffix = "";
  for (let i = 0; i < 8; i++) suffix += base36[randomInt(36)];
  return `TKT${now.toString(36).toUpperCase()}${suffix}`;
}
