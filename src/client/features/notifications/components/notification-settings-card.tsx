import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId } from "react";
import { Alert } from "#client/components/ui/alert.tsx";
import { Card } from "#client/components/ui/card.tsx";
import { cn } from "#client/components/ui/cn.ts";
import { LoadFailed } from "#client/components/ui/load-failed.tsx";
import { Spinner } from "#client/components/ui/spinner.tsx";
import {
  notificationSettingsQuery,
  useUpdateNotificationSettings,
} from "#client/features/notifications/notification.api.ts";
import { rememberSoundsMuted } from "#client/features/notifications/notification-preferences.ts";
import { notificationTypeLabels } from "#client/features/notifications/notification-type-labels.ts";
import {
  type EmailableNotificationType,
  emailableNotificationTypes,
  type NotificationSettings,
} from "#shared/notifications/notification.schemas.ts";
import { emailTypesAvailableTo } from "#shared/notifications/notification-email.ts";
import type { Role } from "#shared/users/roles.ts";

/** /profile: which notifications also arrive by e-mail, and whether alerts make a sound. Saved on change. */
export function NotificationSettingsCard({ userId, role }: { userId: string; role: Role | null }) {
  const { t, i18n } = useLingui();
  const query = useQuery(notificationSettingsQuery());
  const update = useUpdateNotificationSettings();
  const headingId = useId();
  const muteLabelId = useId();
  // While a change is being saved, show it; if it fails, the saved settings come back.
  const settings = update.isPending ? update.variables : query.data;

  useEffect(() => {
    if (query.data) rememberSoundsMuted(userId, query.data.soundsMuted);
  }, [query.data, userId]);

  function save(next: NotificationSettings) {
    update.mutate(next, { onSuccess: (saved) => rememberSoundsMuted(userId, saved.soundsMuted) });
  }

  function toggleEmailType(type: EmailableNotificationType, isOn: boolean) {
    if (!settings) return;
    const others = settings.emailTypes.filter((chosen) => chosen !== type);
    // Kept in the list's order so the saved value does not depend on the order of clicks.
    const emailTypes = emailableNotificationTypes.filter(
      (candidate) => others.includes(candidate) || (isOn && candidate === type),
    );
    save({ ...settings, emailTypes });
  }

  return (
    <Card className="mt-6 max-w-2xl" aria-labelledby={headingId} role="region">
      <div className="border-b border-slate-100 px-6 py-4">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          <Trans>Notifications</Trans>
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">
          <Trans>Changes are saved as you make them.</Trans>
        </p>
      </div>
      {query.isPending ? (
        <div className="flex justify-center p-6">
          <Spinner label={t`Loading notification settings`} />
        </div>
      ) : query.isError || !settings ? (
        <LoadFailed
          className="p-6"
          message={t`Your notification settings could not be loaded.`}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <div className="flex flex-col gap-6 p-6">
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">
              <Trans>Also send me an e-mail for</Trans>
            </legend>
            <div className="mt-3 flex flex-col gap-2.5">
              {emailTypesAvailableTo(role).map((type) => (
                <label key={type} className="flex items-center gap-3 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="size-4 rounded border-slate-300 accent-indigo-600"
                    checked={settings.emailTypes.includes(type)}
                    disabled={update.isPending}
                    onChange={(event) => toggleEmailType(type, event.target.checked)}
                  />
                  {i18n._(notificationTypeLabels[type])}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex items-center justify-between gap-4 border-t border-slate-100 pt-5">
            <div>
              <p id={muteLabelId} className="text-sm font-medium text-slate-900">
                <Trans>Mute notification sounds</Trans>
              </p>
              <p className="text-sm text-slate-500">
                <Trans>Alerts still show on screen, without a sound.</Trans>
              </p>
            </div>
            <button
              type="button"
              role="switch"
              aria-checked={settings.soundsMuted}
              aria-labelledby={muteLabelId}
              disabled={update.isPending}
              onClick={() => save({ ...settings, soundsMuted: !settings.soundsMuted })}
              className={cn(
                "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60",
                settings.soundsMuted ? "bg-indigo-600" : "bg-slate-300",
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  "inline-block size-5 rounded-full bg-white shadow transition-transform",
                  settings.soundsMuted ? "translate-x-5.5" : "translate-x-0.5",
                )}
              />
            </button>
          </div>
          {update.isError ? <Alert>{update.error.message}</Alert> : null}
          <p aria-live="polite" className="sr-only">
            {update.isSuccess ? t`Notification settings saved` : ""}
          </p>
        </div>
      )}
    </Card>
  );
}
