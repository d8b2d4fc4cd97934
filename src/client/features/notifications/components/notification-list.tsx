import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useInfiniteQuery } from "@tanstack/react-query";
import { BellOff } from "lucide-react";
import { useEffect } from "react";
import { EmptyState } from "#client/components/ui/empty-state.tsx";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { LoadMore } from "#client/components/ui/load-more.tsx";
import { notificationListQuery } from "#client/features/notifications/notification.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { toast } from "#client/lib/toast.ts";
import type { NotificationFilter } from "#shared/notifications/notification.schemas.ts";
import { notificationListErrorText } from "#shared/notifications/notification-alerts.ts";
import { NotificationItem } from "./notification-item.tsx";

interface NotificationListProps {
  filter: NotificationFilter;
  /** compact: inside the bell (first page only, plain texts); full: /notifications with Load more. */
  variant?: "compact" | "full";
  onOpen?: () => void;
  emptyText?: string;
}

export function NotificationList({ filter, variant = "full", onOpen, emptyText }: NotificationListProps) {
  const query = useInfiniteQuery(notificationListQuery(filter));
  const isCompact = variant === "compact";

  useEffect(() => {
    if (query.isError)
      toast.error(t`Failed to fetch notifications`, { toastId: "notifications-load-failed" });
  }, [query.isError]);

  if (query.isPending) {
    return (
      <p role="status" className="px-4 py-8 text-center text-sm text-slate-500">
        <Trans>Loading notifications...</Trans>
      </p>
    );
  }
  if (query.isError) {
    const { error } = query;
    const message = notificationListErrorText(
      isApiError(error) ? { code: error.code, status: error.status, message: error.message } : error,
    );
    return (
      <LoadFailed
        layout={isCompact ? "inline" : "block"}
        className={isCompact ? "px-4 py-4" : undefined}
        message={message}
        onRetry={() => void query.refetch()}
      />
    );
  }

  const notifications = query.data.pages.flatMap((page) => page.items);
  if (notifications.length === 0) {
    const empty = emptyText ?? t`No notifications`;
    return isCompact ? (
      <p className="px-4 py-8 text-center text-sm text-slate-500">{empty}</p>
    ) : (
      <EmptyState icon={BellOff} title={empty} />
    );
  }

  return (
    <div>
      <ul className="divide-y divide-slate-100">
        {notifications.map((notification) => (
          <NotificationItem
            key={notification.notificationId}
            notification={notification}
            onOpen={onOpen}
            isCompact={isCompact}
          />
        ))}
      </ul>
      {isCompact ? null : <LoadMore query={query} />}
    </div>
  );
}
