import { Trans, useLingui } from "@lingui/react/macro";
import { BellRing, Play, Square, Volume2 } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/card.tsx";
import {
  type Playback,
  playTechnicianAlertSound,
  playTone,
} from "#client/features/notifications/alerts/alert-audio.ts";
import { raiseAlert, showTechnicianAlert } from "#client/features/notifications/alerts/raise-alert.tsx";
import { technicianAlert, testBeep, userAlert } from "#shared/notifications/notification-alerts.ts";

/** /test-notifications: plays each alert sound on demand (a click also lets the browser play audio). */
export function SoundTestPanel() {
  const { t } = useLingui();
  const technicianSound = useRef<Playback | null>(null);
  useEffect(() => () => technicianSound.current?.stop(), []);

  function playTechnicianAlert() {
    technicianSound.current?.stop();
    const sound = playTechnicianAlertSound();
    technicianSound.current = sound;
    showTechnicianAlert(
      { notificationId: `test-${Date.now()}`, type: "new_ticket", message: "NEW TICKET CREATED" },
      sound,
    );
  }

  return (
    <div className="grid gap-4 md:grid-cols-3">
      <SoundCard
        icon={Volume2}
        title={t`Test beep`}
        description={t`${testBeep.durationMs} ms, ${testBeep.frequency} Hz ${testBeep.type} tone, gain ${testBeep.gain}.`}
      >
        <Button onClick={() => playTone(testBeep)}>
          <Play aria-hidden="true" className="size-4" />
          <Trans>Play test beep</Trans>
        </Button>
      </SoundCard>
      <SoundCard
        icon={BellRing}
        title={t`Technician alert`}
        description={t`The alert sound at full volume for up to ${technicianAlert.soundMaxMs / 1000} s, and the red toast for ${technicianAlert.toastMs / 1000} s.`}
      >
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" onClick={playTechnicianAlert}>
            <Play aria-hidden="true" className="size-4" />
            <Trans>Play technician alert</Trans>
          </Button>
          <Button variant="secondary" onClick={() => technicianSound.current?.stop()}>
            <Square aria-hidden="true" className="size-4" />
            <Trans>Stop</Trans>
          </Button>
        </div>
      </SoundCard>
      <SoundCard
        icon={Volume2}
        title={t`User alert`}
        description={t`A ${userAlert.beep.durationMs} ms ${userAlert.beep.type}-wave beep and the toast “${userAlert.toastText}”.`}
      >
        <Button
          variant="secondary"
          onClick={() =>
            raiseAlert(
              { notificationId: `test-${Date.now()}`, type: "test", message: userAlert.toastText },
              "user",
              { isMuted: false },
            )
          }
        >
          <Play aria-hidden="true" className="size-4" />
          <Trans>Play user alert</Trans>
        </Button>
      </SoundCard>
    </div>
  );
}

interface SoundCardProps {
  icon: typeof Volume2;
  title: string;
  description: string;
  children: ReactNode;
}

function SoundCard({ icon: Icon, title, description, children }: SoundCardProps) {
  return (
    <Card className="flex flex-col gap-4 p-5">
      <div className="flex items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
          <p className="mt-1 text-sm text-slate-500">{description}</p>
        </div>
      </div>
      <div className="mt-auto">{children}</div>
    </Card>
  );
}
