import { t } from "@lingui/core/macro";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { NotificationCenter } from "#client/features/notifications/components/notification-center.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";
import { type NotificationFilter, notificationFilters } from "#shared/notifications/notification.schemas.ts";

const filterFrom = (value: string | null): NotificationFilter =>
  notificationFilters.find((filter) => filter === value) ?? "all";

/** /notifications: the tab is in the address (?filter=unread), so it survives a reload. */
export default function NotificationsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams.get("filter"));

  return (
    <>
      <PageHeader title={t`Notifications`} description={t`Newest first. Select one to open its ticket.`} />
      <NotificationCenter
        filter={filter}
        onFilterChange={(next) => setSearchParams(next === "all" ? {} : { filter: next }, { replace: true })}
      />
    </>
  );
}
