import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CheckCheck } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { Tabs, tabIdFor, tabPanelIdFor } from "#client/components/ui/tabs.tsx";
import {
  notificationCountsQuery,
  useMarkAllNotificationsRead,
} from "#client/features/notifications/notification.api.ts";
import { toast } from "#client/lib/toast.ts";
import type { NotificationFilter } from "#shared/notifications/notification.schemas.ts";
import { NotificationList } from "./notification-list.tsx";

const tabNames: Record<NotificationFilter, MessageDescriptor> = {
  all: msg`All`,
  unread: msg`Unread`,
  read: msg`Read`,
};
const emptyTexts: Record<NotificationFilter, MessageDescriptor> = {
  all: msg`No notifications`,
  unread: msg`No unread notifications`,
  read: msg`No read notifications`,
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
  const { t, i18n } = useLingui();
  const tabs = (Object.keys(tabNames) as NotificationFilter[]).map((value) => ({
    value,
    label: counts ? `${i18n._(tabNames[value])} (${counts[value]})` : i18n._(tabNames[value]),
  }));

  function handleMarkAll() {
    markAll.mutate(undefined, {
      onSuccess: () => toast.success(t`All notifications marked as read`),
      onError: () => toast.error(t`Error updating notifications`),
    });
  }

  return (
    <Card>
      <div className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
        <Tabs
          label={t`Notifications`}
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
          <Trans>Mark All as Read</Trans>
        </Button>
      </div>
      <div role="tabpanel" id={tabPanelIdFor(idPrefix)} aria-labelledby={tabIdFor(idPrefix, filter)}>
        <NotificationList key={filter} filter={filter} emptyText={i18n._(emptyTexts[filter])} />
      </div>
    </Card>
  );
}
