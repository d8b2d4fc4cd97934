import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Card } from "#client/components/ui/card.tsx";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { CreateTestNotificationForm } from "#client/features/notifications/components/create-test-notification-form.tsx";
import { LiveStreamStatus } from "#client/features/notifications/components/live-stream-status.tsx";
import { NotificationList } from "#client/features/notifications/components/notification-list.tsx";
import { useActor } from "#client/lib/use-actor.ts";

/** /debug-notifications: create test notifications for yourself and watch them arrive. */
export default function DebugNotificationsPage() {
  const { t } = useLingui();
  const actor = useActor();
  if (!actor) return null;
  return (
    <>
      <PageHeader
        title={t`Debug Notifications`}
        description={t`Create test notifications for yourself and see how the live stream delivers them.`}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col gap-6">
          <DebugCard title={t`Create a test notification`}>
            <CreateTestNotificationForm userId={actor.id} />
          </DebugCard>
          <DebugCard title={t`Live stream`}>
            <LiveStreamStatus />
          </DebugCard>
        </div>
        <Card>
          <h2 className="border-b border-slate-100 px-5 py-4 text-base font-semibold text-slate-900">
            <Trans>Latest notifications</Trans>
          </h2>
          <NotificationList filter="all" variant="compact" />
        </Card>
      </div>
    </>
  );
}

function DebugCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-5">
      <h2 className="mb-4 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}
