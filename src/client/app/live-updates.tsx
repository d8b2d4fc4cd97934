import { t } from "@lingui/core/macro";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { unlockAudioOnFirstGesture } from "#client/features/notifications/alerts/alert-audio.ts";
import { alertKindFor, createAlertGate } from "#client/features/notifications/alerts/alert-decision.ts";
import { showDesktopNotification } from "#client/features/notifications/alerts/desktop-notification.ts";
import { refreshNotifications } from "#client/features/notifications/notification.api.ts";
import {
  areSoundsMuted,
  isDesktopNotificationsOn,
  rememberSoundsMuted,
} from "#client/features/notifications/notification-preferences.ts";
import { receivePresence } from "#client/features/presence/presence-store.ts";
import { ticketKeys } from "#client/features/tickets/ticket.api.ts";
import { apiFetch } from "#client/lib/api-client.ts";
import { getLiveStream, resetLiveStream, updateLiveStream } from "#client/lib/live-stream-store.ts";
import { useNavigate } from "#client/lib/router/router.tsx";
import { toast } from "#client/lib/toast.ts";
import { actorKeys, useActorQuery } from "#client/lib/use-actor.ts";
// Type-only: this loads with the app shell, which must stay free of zod.
import type {
  Notification,
  NotificationPage,
  NotificationSettings,
  TicketChangedEvent,
} from "#shared/notifications/notification.schemas.ts";
import { isNewNotification, pollingFallbackMs } from "#shared/notifications/notification-alerts.ts";
import type { TicketPresence } from "#shared/presence/presence.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";

export const streamPath = "/api/notifications/stream";
/** A stream the browser gave up on (an error answer, not a dropped connection) is opened again after this. */
export const reopenDelayMs = 5_000;

/** Mounted once in the app shell: the live stream of the signed-in person, closed when they sign out. */
export function LiveUpdates() {
  const { data: actor, isError } = useActorQuery();
  useEffect(() => {
    if (isError) toast.error(t`Error loading user role`, { toastId: "actor-role-failed" });
  }, [isError]);
  if (!actor) return null;
  return <LiveStream key={actor.id} actor={actor} />;
}

function LiveStream({ actor }: { actor: Me }) {
  useLiveStream(actor);
  return null;
}

/**
 * Reads again what a pushed change touched. A read already on its way may have been answered before the
 * change: TanStack Query would join it instead of starting another (when the query has no data yet) and
 * keep its older answer as fresh, so it is cancelled first and read anew.
 */
export async function readAgain(queryClient: QueryClient, queryKey: readonly unknown[]) {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}

function refreshTicket(queryClient: QueryClient, ticketId: string) {
  // The detail key is the prefix of the activity key: the page, its comments and timeline all refresh.
  for (const queryKey of [ticketKeys.detail(ticketId), ticketKeys.lists(), ticketKeys.summaries()]) {
    void readAgain(queryClient, queryKey);
  }
}

function useLiveStream(actor: Me) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { id: userId, role } = actor;

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const shouldAlert = createAlertGate();
    const removeUnlock = unlockAudioOnFirstGesture();
    let source: EventSource | null = null;
    let pollTimer: ReturnType<typeof setInterval> | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | null = null;
    let hasOpened = false;
    let isClosed = false;

    // The mute switch is saved on the server; this keeps the local copy the alerts read in step.
    apiFetch<NotificationSettings>("/api/me/notification-settings")
      .then((settings) => rememberSoundsMuted(userId, settings.soundsMuted))
      .catch(() => {});

    const receive = (notification: Notification) => {
      if (notification.ticketId) refreshTicket(queryClient, notification.ticketId);
      if (!shouldAlert(notification)) return;
      // The alert's code (toast, sound) loads with the first alert, not with every signed-in page (decision 031).
      const kind = alertKindFor(notification, role);
      const isMuted = areSoundsMuted(userId);
      void import("#client/features/notifications/alerts/raise-alert.tsx").then(({ raiseAlert }) =>
        raiseAlert(notification, kind, { isMuted }),
      );
      if (document.hidden && isDesktopNotificationsOn(userId)) {
        showDesktopNotification(notification, () => {
          if (notification.ticketId) navigate(`/tickets/${notification.ticketId}`);
        });
      }
    };

    const poll = async () => {
      try {
        const page = await apiFetch<NotificationPage>("/api/notifications?filter=all");
        if (isClosed) return;
        const now = Date.now();
        // Oldest first, so alerts come in the order things happened.
        for (const notification of [...page.items].reverse()) {
          if (!notification.read && isNewNotification(notification.timestamp, now)) receive(notification);
        }
      } catch {
        // The next tick tries again.
      }
      void refreshNotifications(queryClient);
    };

    const startPolling = () => {
      updateLiveStream({ state: "polling" });
      pollTimer ??= setInterval(() => void poll(), pollingFallbackMs);
    };

    const stopPolling = () => {
      if (pollTimer) clearInterval(pollTimer);
      pollTimer = null;
    };

    const open = () => {
      const lastEventId = getLiveStream().lastEventId;
      // A new EventSource does not send Last-Event-ID: the first request of a reopened stream names it.
      const url = lastEventId ? `${streamPath}?lastEventId=${encodeURIComponent(lastEventId)}` : streamPath;
      const stream = new EventSource(url);
      source = stream;
      stream.addEventListener("open", () => {
        if (hasOpened) updateLiveStream({ reconnects: getLiveStream().reconnects + 1 });
        const wasPolling = pollTimer !== null;
        hasOpened = true;
        stopPolling();
        updateLiveStream({ state: "open" });
        if (wasPolling) void refreshNotifications(queryClient);
      });
      stream.addEventListener("notification", (event) => {
        const notification = JSON.parse(event.data) as Notification;
        updateLiveStream({ lastEventId: event.lastEventId || notification.notificationId });
        void refreshNotifications(queryClient);
        receive(notification);
      });
      stream.addEventListener("ready", (event) => {
        // Where the stream stands even when no notification has come yet: a reopened stream resumes there.
        if (event.lastEventId) updateLiveStream({ lastEventId: event.lastEventId });
      });
      stream.addEventListener("ticket", (event) => {
        const { ticketId } = JSON.parse(event.data) as TicketChangedEvent;
        refreshTicket(queryClient, ticketId);
      });
      // Who else is on a ticket this person has open (decision 072): staff only, sent by the server.
      stream.addEventListener("presence", (event) => {
        receivePresence(JSON.parse(event.data) as TicketPresence);
      });
      stream.addEventListener("error", () => {
        startPolling();
        if (stream.readyState !== EventSource.CLOSED) return;
        // The browser stops retrying after an error answer (e.g. 401 when the session ended, 503 while
        // the server restarts): check who is signed in, and open a new stream a little later.
        void queryClient.invalidateQueries({ queryKey: actorKeys.me });
        reopenTimer = setTimeout(open, reopenDelayMs);
      });
    };

    resetLiveStream();
    updateLiveStream({ state: "connecting" });
    open();

    return () => {
      isClosed = true;
      source?.close();
      stopPolling();
      if (reopenTimer) clearTimeout(reopenTimer);
      removeUnlock();
      resetLiveStream();
    };
  }, [queryClient, navigate, userId, role]);
}
