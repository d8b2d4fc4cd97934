import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { useMarkNotificationRead } from "#client/features/notifications/notification.api.ts";
import { formatDateTime, formatRelativeTime } from "#client/lib/format.ts";
import { Link } from "#client/lib/router/links.tsx";
import { toast } from "#client/lib/toast.ts";
import type { Notification } from "#shared/notifications/notification.schemas.ts";
import { notificationText } from "./notification-text.ts";

interface NotificationItemProps {
  notification: Notification;
  /** Called when the person follows the notification to its ticket (the bell closes). */
  onOpen?: () => void;
  isCompact?: boolean;
}

/** One notification: its text in the reader's language (a link to its ticket), how long ago, and Mark as read while unread. */
export function NotificationItem({ notification, onOpen, isCompact = false }: NotificationItemProps) {
  const markRead = useMarkNotificationRead();
  const { notificationId, ticketId, read: isRead, timestamp } = notification;

  function handleMarkRead() {
    markRead.mutate(notificationId, {
      onSuccess: () => toast.success(t`Notification marked as read`),
      onError: () => toast.error(t`Failed to mark notification as read`),
    });
  }

  const text = (
    <span
      className={cn("block break-words text-sm", isRead ? "text-slate-600" : "font-medium text-slate-900")}
    >
      {notificationText(notification)}
    </span>
  );

  return (
    <li
      className={cn(
        "flex items-start gap-3",
        isCompact ? "px-4 py-3" : "px-5 py-4",
        !isRead && "bg-indigo-50/70",
      )}
      data-unread={!isRead || undefined}
    >
      <span
        aria-hidden="true"
        className={cn("mt-1.5 size-2 shrink-0 rounded-full", isRead ? "bg-transparent" : "bg-indigo-600")}
      />
      <div className="min-w-0 flex-1">
        {!isRead ? <span className="sr-only">{t`Unread:`} </span> : null}
        {ticketId ||
        notification.params?.kind === "known_issue" ||
        notification.params?.kind === "webhook_disabled" ? (
          <Link
            to={
              // A known issue's follower reads its public face (decision 077), not the ticket; a webhook
              // switched off is mended on the webhook page (decision 080).
              notification.params?.kind === "known_issue"
                ? `/known-issues/${encodeURIComponent(notification.params.incidentId)}`
                : notification.params?.kind === "webhook_disabled"
                  ? "/admin/settings?tab=webhooks"
                  : `/tickets/${encodeURIComponent(ticketId ?? "")}`
            }
            onClick={onOpen}
            className="rounded-sm hover:text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            {text}
          </Link>
        ) : (
          text
        )}
        <time
          dateTime={timestamp}
          title={formatDateTime(timestamp)}
          className="mt-1 block text-xs text-slate-600"
        >
          {formatRelativeTime(timestamp)}
        </time>
      </div>
      {!isRead ? (
        <Button
          variant="ghost"
          size="sm"
          className="shrink-0"
          onClick={handleMarkRead}
          disabled={markRead.isPending}
        >
          <Trans>Mark as read</Trans>
        </Button>
      ) : null}
    </li>
  );
}
