import { useQuery } from "@tanstack/react-query";
import { CheckCheck } from "lucide-react";
import type { NotificationFilter } from "#shared/notifications/notification.schemas.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "../../../components/ui/tabs.tsx";
import { toast } from "../../../lib/toast.ts";
import { notificationCountsQuery, useMarkAllNotificationsRead } from "../notification.api.ts";
import { NotificationList } from "./notification-list.tsx";

const tabNames: Record<NotificationFilter, string> = { all: "All", unread: "Unread", read: "Read" };
const emptyTexts: Record<NotificationFilter, string> = {
  all: "No notifications",
  unread: "No unread notifications",
  read: "No read notifications",
};
const idPrefix = "notifications";

interface NotificationCenterProps {
  filter: NotificationFilter;
  onFilterChange: (filter: NotificationFilter) => void;
}

/** /notifications: tabs All, Unread, Read with their counts, Mark All as Read, and the list. */
export function NotificationCenter({ filter, onFilterChange }: NotificationCenterProps) {
  const { data: counts } = useQuery(notificationCountsQuery());
  const markAll = useMarkAllNotificationsRead();
  const tabs = (Object.keys(tabNames) as NotificationFilter[]).map((value) => ({
    value,
    label: counts ? `${tabNames[value]} (${counts[value]})` : tabNames[value],
  }));

  function handleMarkAll() {
    markAll.mutate(undefined, {
      onSuccess: () => toast.success("All notifications marked as read"),
      onError: () => toast.error("Error updating notifications"),
    });
  }

  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <Tabs
          label="Notifications"
          idPrefix={idPrefix}
          tabs={tabs}
          value={filter}
          onChange={onFilterChange}
        />
        <Button
          variant="secondary"
          size="sm"
          onClick={handleMarkAll}
          disabled={markAll.isPending || counts?.unread === 0}
        >
          <CheckCheck aria-hidden="true" className="size-4" />
          Mark All as Read
        </Button>
      </div>
      <div role="tabpanel" id={tabPanelIdFor(idPrefix)} aria-labelledby={tabIdFor(idPrefix, filter)}>
        <NotificationList key={filter} filter={filter} emptyText={emptyTexts[filter]} />
      </div>
    </Card>
  );
}
