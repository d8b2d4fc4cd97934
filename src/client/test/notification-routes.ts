import type { Notification } from "#shared/notifications/notification.schemas.ts";
import { countsOf, notificationPage } from "./fixtures.ts";

type Answer = { status?: number; body?: unknown };

/**
 * stubFetch routes for the notifications API over an in-memory list: the list by filter, the counts,
 * Mark as read and Mark All as Read change what later calls answer, as the server would.
 */
export function notificationRoutes(initial: Notification[]) {
  const items = initial.map((item) => ({ ...item }));
  const filterOf = (url: string) => new URL(url, "http://localhost").searchParams.get("filter") ?? "all";
  return {
    items,
    routes: {
      "GET /api/notifications": ({ url }: { url: string }): Answer => {
        const filter = filterOf(url);
        return {
          body: notificationPage(
            items.filter((item) => filter === "all" || item.read === (filter === "read")),
          ),
        };
      },
      "GET /api/notifications/counts": (): Answer => ({ body: countsOf(items) }),
      "POST /api/notifications/read-all": (): Answer => {
        const unread = items.filter((item) => !item.read);
        for (const item of unread) item.read = true;
        return { body: { updated: unread.length } };
      },
    } as Record<string, (request: { url: string }) => Answer>,
    /** POST /api/notifications/:id/read, whose path varies by id. */
    markReadRoute: (id: string) => ({
      [`POST /api/notifications/${id}/read`]: (): Answer => {
        const item = items.find((candidate) => candidate.notificationId === id);
        if (!item) return { status: 404, body: { code: "not_found", message: "Notification not found" } };
        item.read = true;
        return { body: item };
      },
    }),
  };
}
