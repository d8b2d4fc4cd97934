import { useSearchParams } from "react-router";
import { type NotificationFilter, notificationFilters } from "#shared/notifications/notification.schemas.ts";
import { PageHeader } from "../components/ui/page-header.tsx";
import { NotificationCenter } from "../features/notifications/components/notification-center.tsx";

const filterFrom = (value: string | null): NotificationFilter =>
  notificationFilters.find((filter) => filter === value) ?? "all";

/** /notifications: the tab is in the address (?filter=unread), so it survives a reload. */
export default function NotificationsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = filterFrom(searchParams.get("filter"));

  return (
    <>
      <PageHeader title="Notifications" description="Newest first. Select one to open its ticket." />
      <NotificationCenter
        filter={filter}
        onFilterChange={(next) => setSearchParams(next === "all" ? {} : { filter: next }, { replace: true })}
      />
    </>
  );
}
