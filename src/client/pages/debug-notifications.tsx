import { NotAvailable } from "../components/ui/not-available.tsx";

/** /debug-notifications */
export default function DebugNotificationsPage() {
  return (
    <NotAvailable
      title="Debug Notifications"
      description="The notification debugging page is coming in a later release."
    />
  );
}
