import type { Notification as HelpdeskNotification } from "#shared/notifications/notification.schemas.ts";

/** A system notification for a tab in the background; clicking it brings the tab back and opens the ticket. */
export function showDesktopNotification(notification: HelpdeskNotification, onOpen: () => void) {
  try {
    const shown = new Notification("Helpdesk", {
      body: notification.message,
      tag: `helpdesk-${notification.notificationId}`,
    });
    shown.onclick = () => {
      window.focus();
      onOpen();
      shown.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker: the in-page alert still shows.
  }
}
