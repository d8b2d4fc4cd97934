import { PageHeader } from "../components/ui/page-header.tsx";
import { SoundTestPanel } from "../features/notifications/components/sound-test-panel.tsx";

/** /test-notifications: a developer page to hear the notification sounds. */
export default function TestNotificationsPage() {
  return (
    <>
      <PageHeader
        title="Test Notifications"
        description="Play each notification sound. These play even when sounds are muted in your profile."
      />
      <SoundTestPanel />
    </>
  );
}
