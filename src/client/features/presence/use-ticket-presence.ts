import { useCallback, useEffect, useRef } from "react";
import { isApiError } from "#client/lib/api-client.ts";
import { type PresenceState, presenceHeartbeatMs, typingIdleMs } from "#shared/presence/presence.schemas.ts";
import { leavePresence, newPageId, sharePresence } from "./presence.api.ts";
import { forgetPresence, receivePresence } from "./presence-store.ts";

/**
 * Tells the server this page is on the ticket while it is open (decision 072): at once, then every
 * heartbeat, and as its person starts or stops typing; that it left when the page unmounts or the tab goes
 * away (`pagehide`, with keepalive). A refused heartbeat (the ticket is no longer theirs to see) stops it.
 * `reportDraft` takes the reply box's text as it changes: typing while it holds text touched in the last
 * few seconds, viewing otherwise.
 */
export function useTicketPresence(ticketId: string, isEnabled: boolean) {
  const state = useRef<PresenceState>("viewing");
  const beat = useRef<(() => void) | null>(null);
  const idle = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!isEnabled) return;
    state.current = "viewing";
    let pageId = newPageId();
    let isStopped = false;
    const send = () => {
      if (isStopped) return;
      sharePresence(ticketId, { state: state.current, pageId })
        .then((presence) => {
          if (!isStopped) receivePresence(presence);
        })
        .catch((error: unknown) => {
          // No longer theirs to see (or no longer staff): the page says so itself; stop telling.
          if (isApiError(error, 404) || isApiError(error, 403)) stop();
        });
    };
    const timer = setInterval(send, presenceHeartbeatMs);
    const stop = () => {
      isStopped = true;
      clearInterval(timer);
    };
    const handlePageHide = () => void leavePresence(ticketId, pageId).catch(() => {});
    // Back from the browser's page cache: the page left when it was hidden, and comes back as a new one.
    const handlePageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      pageId = newPageId();
      send();
    };
    window.addEventListener("pagehide", handlePageHide);
    window.addEventListener("pageshow", handlePageShow);
    beat.current = send;
    send();
    return () => {
      const wasStopped = isStopped;
      stop();
      beat.current = null;
      window.removeEventListener("pagehide", handlePageHide);
      window.removeEventListener("pageshow", handlePageShow);
      if (!wasStopped) void leavePresence(ticketId, pageId).catch(() => {});
      forgetPresence(ticketId);
    };
  }, [ticketId, isEnabled]);

  useEffect(
    () => () => {
      if (idle.current) clearTimeout(idle.current);
    },
    [],
  );

  const reportDraft = useCallback((text: string) => {
    const change = (next: PresenceState) => {
      if (state.current === next) return;
      state.current = next;
      beat.current?.();
    };
    if (idle.current) clearTimeout(idle.current);
    idle.current = null;
    if (text.trim() === "") {
      change("viewing");
      return;
    }
    change("typing");
    idle.current = setTimeout(() => change("viewing"), typingIdleMs);
  }, []);

  return { reportDraft };
}
