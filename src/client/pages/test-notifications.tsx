import { NotAvailable } from "../components/ui/not-available.tsx";

/** /test-notifications */
export default function TestNotificationsPage() {
  return (
    <NotAvailable
      title="Test Notifications"
      description="The notification sound test page is coming in a later release."
    />
  );
}
