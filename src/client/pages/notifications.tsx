import { NotAvailable } from "../components/ui/not-available.tsx";

/** /notifications */
export default function NotificationsPage() {
  return (
    <NotAvailable
      title="Notifications"
      description="Your notifications will be listed here in a later release."
    />
  );
}
