import { toNotificationDto } from "./notification.presenter.ts";
import type { ReaderNotification } from "./notification-audience.queries.ts";

/** One Server-Sent Events frame. */
export const frame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The `notification` frame of one row, its id the row's (what Last-Event-ID replays from). */
export const notificationFrame = (row: ReaderNotification) =>
  frame("notification", toNotificationDto(row), row.id);

/**
 * `notification` frames for rows in id order. The rows of one event say the same thing to each recipient
 * (a broadcast to 1,000 technicians: the same text 1,000 times) but for their id and recipient: that common
 * part is serialised once and each frame is only its id and person in front of it. Byte for byte what
 * `notificationFrame(row)` would be.
 */
export function notificationFrames() {
  let last: ReaderNotification | null = null;
  let lastParams = "";
  let tail = "";
  // Rows of their own each have params of their own (jsonb, parsed): compared by their text, one
  // serialisation a row. An audience's row (decision 068) is one row for all its readers, params and all:
  // the same object is not serialised again.
  const sameContent = (a: ReaderNotification, b: ReaderNotification, bParams: string) =>
    a.type === b.type &&
    a.message === b.message &&
    a.ticketId === b.ticketId &&
    a.broadcast === b.broadcast &&
    (a.readAt === null) === (b.readAt === null) &&
    a.createdAt.getTime() === b.createdAt.getTime() &&
    lastParams === bParams;
  return (row: ReaderNotification) => {
    const params = last && row.params === last.params ? lastParams : JSON.stringify(row.params);
    if (!last || !sameContent(last, row, params)) {
      lastParams = params;
      const { notificationId: _id, uid: _uid, ...content } = toNotificationDto(row);
      // Without its opening brace, to follow the two fields that differ (the DTO's own key order).
      tail = JSON.stringify(content).slice(1);
      last = row;
    }
    return `id: ${row.id}\nevent: notification\ndata: {"notificationId":"${row.id}","uid":${JSON.stringify(row.userId)},${tail}\n\n`;
  };
}
