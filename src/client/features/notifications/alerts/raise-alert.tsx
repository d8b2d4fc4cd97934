import { t } from "@lingui/core/macro";
import { BellRing, VolumeX } from "lucide-react";
import { toast } from "#client/lib/toast.ts";
import type { Notification } from "#shared/notifications/notification.schemas.ts";
import {
  technicianAlert,
  technicianAlertText,
  userAlert,
} from "#shared/notifications/notification-alerts.ts";
import { type Playback, playTechnicianAlertSound, playTone } from "./alert-audio.ts";
import type { AlertKind } from "./alert-decision.ts";

/** The red technician toast (top centre, 10 s) with a Silence button for the sound behind it. */
export function showTechnicianAlert(
  notification: Pick<Notification, "notificationId" | "type" | "message">,
  sound: Playback,
) {
  const toastId = `technician-alert-${notification.notificationId}`;
  toast.error(
    <div className="flex items-center gap-3">
      <BellRing aria-hidden="true" className="size-5 shrink-0" />
      <p className="flex-1 font-semibold">{technicianAlertText(notification)}</p>
      {/*
        A darker patch of the red keeps its white text above 4.5:1 (a lighter one would not); black is the
        same in both themes. For the outline, in the dark theme "white" is the card colour, slate-950 white.
      */}
      <button
        type="button"
        onClick={(event) => {
          // The toast would take the click as "close"; silencing is enough.
          event.stopPropagation();
          sound.stop();
          toast.dismiss(toastId);
        }}
        className="inline-flex items-center gap-1 rounded-md bg-black/20 px-2 py-1 text-xs font-semibold hover:bg-black/30 focus-visible:outline-2 focus-visible:outline-white dark:focus-visible:outline-slate-950"
      >
        <VolumeX aria-hidden="true" className="size-3.5" />
        {t`Silence`}
      </button>
    </div>,
    {
      toastId,
      position: "top-center",
      autoClose: technicianAlert.toastMs,
      theme: "colored",
      icon: false,
      className: "technician-alert",
    },
  );
}

/** Plays (unless muted) and shows the alert a notification calls for. */
export function raiseAlert(
  notification: Pick<Notification, "notificationId" | "type" | "message">,
  kind: AlertKind,
  { isMuted }: { isMuted: boolean },
) {
  if (kind === "technician") {
    showTechnicianAlert(notification, isMuted ? { stop: () => {} } : playTechnicianAlertSound());
    return;
  }
  if (!isMuted) playTone(userAlert.beep);
  toast.info(userAlert.toastText, { toastId: `user-alert-${notification.notificationId}` });
}
