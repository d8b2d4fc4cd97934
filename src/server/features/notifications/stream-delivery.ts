import type { Db } from "#server/db/client.ts";
import type { NotificationRow } from "#server/db/schema/index.ts";
import { findTicketFacts } from "#server/features/ticket-records/ticket.queries.ts";
import { findUserById } from "#server/features/users/user.queries.ts";
import type { BusMessage } from "#server/realtime/bus.ts";
import { can } from "#shared/permissions.ts";
import { findNotificationsByIds, findNotificationsOfEvent } from "./notification.queries.ts";
import {
  audienceRowFor,
  findAudienceMembersAmong,
  type ReaderNotification,
} from "./notification-audience.queries.ts";
import { frame, notificationFrames } from "./stream-frames.ts";
import type { StreamEntry, StreamRegistry } from "./stream-registry.ts";
import { findLiveSessionIds } from "./stream-session.queries.ts";

/**
 * An event's rows by reader: a row addressed to an audience once for each of its members connected here
 * (the membership as the database keeps it, decision 068: those who had joined when it was sent), but the
 * one who caused it.
 */
async function readerRowsOf(db: Db, rows: NotificationRow[], connected: readonly string[]) {
  const byReader: ReaderNotification[] = [];
  for (const row of rows) {
    if (row.userId !== null) {
      byReader.push(row as ReaderNotification);
      continue;
    }
    if (row.audience === null || connected.length === 0) continue;
    for (const userId of await findAudienceMembersAmong(db, row.audience, row.id, connected))
      if (userId !== row.exceptUserId) byReader.push(audienceRowFor(row, userId));
  }
  return byReader;
}

/**
 * A ticket event: each connected recipient's rows, then "ticket changed" to every stream whose person may
 * see the ticket, all of a stream's frames in one write. One write is one system call per stream, and a new
 * ticket's fan-out is about nothing else (two writes a technician before: notification, then ticket).
 */
async function deliverTicketEvent(
  db: Db,
  streams: StreamRegistry,
  message: Extract<BusMessage, { kind: "ticket-event" }>,
) {
  const { byUser, byClient } = streams;
  // Nobody this event notified is connected here: no rows to read.
  const people = message.recipients ? message.recipients.filter((id) => byUser.has(id)) : [...byUser.keys()];
  const [rows, ticket] = await Promise.all([
    people.length > 0 ? findNotificationsOfEvent(db, message.eventId, people) : [],
    message.ticket ?? findTicketFacts(db, message.ticketId),
  ]);
  const chunks = new Map<StreamEntry, string>();
  const notificationFrame = notificationFrames();
  for (const row of await readerRowsOf(db, rows, people)) {
    let text: string | undefined;
    for (const entry of byUser.get(row.userId) ?? []) {
      if (entry.replayed?.has(row.id)) continue;
      if (entry.pending) {
        entry.pending.push(row);
        continue;
      }
      text ??= notificationFrame(row);
      chunks.set(entry, (chunks.get(entry) ?? "") + text);
    }
  }
  if (ticket) {
    const changed = frame("ticket", { ticketId: message.ticketId });
    for (const entry of byClient.values()) {
      const { actor } = entry.client;
      if (can.viewTicket(actor, ticket) && (!message.staffOnly || can.seeInternal(actor)))
        chunks.set(entry, (chunks.get(entry) ?? "") + changed);
    }
  }
  for (const [entry, text] of chunks) streams.write(entry, text);
}

/** Ends the streams among `entries` whose session expired, was deleted, or whose person became inactive. */
export async function endDeadSessions(db: Db, streams: StreamRegistry, entries: StreamEntry[]) {
  const live = await findLiveSessionIds(db, [...new Set(entries.map((e) => e.client.sessionId))], new Date());
  for (const entry of entries) if (!live.has(entry.client.sessionId)) streams.end(entry);
}

/** Writes what one bus message means to the streams open here; reads only for the people connected. */
export async function deliverBusMessage(db: Db, streams: StreamRegistry, message: BusMessage) {
  const { byUser, byClient } = streams;
  const people = [...byUser.keys()];
  if (people.length === 0) return;
  if (message.kind === "session-ended") {
    const entries = [...(byUser.get(message.userId) ?? [])];
    // A stream decides what its person may see by the role it opened with: after a role change it
    // closes, and the browser's reconnect opens one with the new role.
    const person = entries.length > 0 ? await findUserById(db, message.userId) : undefined;
    for (const entry of entries) if (entry.client.actor.role !== (person?.role ?? null)) streams.end(entry);
    await endDeadSessions(
      db,
      streams,
      entries.filter((entry) => byClient.has(entry.client)),
    );
    return;
  }
  // Sessions are looked up again at their next request; an open stream keeps what it was opened with.
  // Presence has its own hub (features/presence), which writes through StreamHub.sendTo.
  if (
    message.kind === "sessions-changed" ||
    message.kind === "settings-changed" ||
    message.kind === "presence"
  )
    return;
  if (message.kind === "notifications") {
    const rows = await findNotificationsByIds(db, message.ids, people);
    for (const row of rows) for (const entry of byUser.get(row.userId) ?? []) streams.send(entry, row);
    return;
  }
  await deliverTicketEvent(db, streams, message);
}
