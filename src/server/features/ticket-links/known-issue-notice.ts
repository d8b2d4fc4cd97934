import type { Db } from "#server/db/client.ts";
import { insertNotifications } from "#server/features/notifications/notification.queries.ts";
import { findActiveSubscriberIds } from "./incident.queries.ts";

/** How much of an update a notification quotes, as a comment's preview does. */
const previewLength = 100;

/**
 * Tells the people who follow a known issue (decision 077) of an update or of its resolution, but the one
 * who wrote it: one `known_issue` notification each, in the app (no e-mail: it would point at a ticket they
 * may not open). The row names no ticket, so the stream's per-ticket sight check does not hide it; the
 * reader's app links it to the public face, /known-issues/:ticketId.
 */
export async function notifySubscribers(
  db: Db,
  notice: {
    incidentId: string;
    headline: string;
    text: string;
    resolved: boolean;
    actorId: string;
    at: Date;
  },
) {
  const ids = (await findActiveSubscriberIds(db, notice.incidentId)).filter((id) => id !== notice.actorId);
  const preview = notice.text.replace(/\s+/g, " ").trim().slice(0, previewLength);
  const message = notice.resolved
    ? `Known issue resolved: ${notice.headline}: ${preview}`
    : `Update on the known issue ${notice.headline}: ${preview}`;
  await insertNotifications(
    db,
    ids.map((userId) => ({
      userId,
      type: "known_issue" as const,
      message,
      params: {
        kind: "known_issue" as const,
        title: notice.headline,
        incidentId: notice.incidentId,
        preview,
        resolved: notice.resolved,
      },
      ticketId: null,
      eventId: null,
      broadcast: false,
      createdAt: notice.at,
    })),
  );
  return ids;
}
