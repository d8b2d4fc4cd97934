import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { SoundTestPanel } from "#client/features/notifications/components/sound-test-panel.tsx";

/** /test-notifications: a developer page to hear the notification sounds. */
export default function TestNotificationsPage() {
  const { t } = useLingui();
  return (
    <>
      <PageHeader
        title={t`Test Notifications`}
        description={t`Play each notification sound. These play even when sounds are muted in your profile.`}
      />
      <SoundTestPanel />
    </>
  );
}
