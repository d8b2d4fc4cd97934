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

let lastEventMs = -1;
let eventsInLastMs = 0;

/**
 * EVT + uppercase base-36 timestamp + a count of the events this process made in the same millisecond (two
 * base-36 characters) + 6 random ones. The timeline orders by time, then id: events one change records at
 * the same instant (a reply, then the hold it lifts) keep the order they were recorded in.
 */
export function newEventId(now = Date.now()): string {
  eventsInLastMs = now === lastEventMs ? Math.min(eventsInLastMs + 1, 36 * 36 - 1) : 0;
  lastEventMs = now;
  const count = eventsInLastMs.toString(36).toUpperCase().padStart(2, "0");
  return `EVT${now.toString(36).toUpperCase()}${count}${randomSuffix(6)}`;
}

export function newAttachmentId(now = Date.now()): string {
  return `ATT${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}

/** LNK + uppercase base-36 timestamp + random suffix: a link between two tickets (decision 074). */
export function newTicketLinkId(now = Date.now()): string {
  return `LNK${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}

/** UPD + uppercase base-36 timestamp + random suffix: a major incident's public update (decision 077). */
export function newIncidentUpdateId(now = Date.now()): string {
  return `UPD${now.toString(36).toUpperCase()}${randomSuffix(8)}`;
}
