import { useSyncExternalStore } from "react";

/**
 * The live stream's state, written by the app shell's stream and read by /debug-notifications.
 * idle: nobody signed in; connecting: waiting for the first open; open: events arrive;
 * polling: the stream failed, the notifications are polled until it opens again.
 */
export type LiveStreamState = "idle" | "connecting" | "open" | "polling";

export interface LiveStreamSnapshot {
  state: LiveStreamState;
  lastEventId: string | null;
  /** How many times the stream opened again after its first open. */
  reconnects: number;
}

const initial: LiveStreamSnapshot = { state: "idle", lastEventId: null, reconnects: 0 };
let snapshot = initial;
const listeners = new Set<() => void>();

export function updateLiveStream(change: Partial<LiveStreamSnapshot>) {
  snapshot = { ...snapshot, ...change };
  for (const listener of listeners) listener();
}

export const resetLiveStream = () => updateLiveStream(initial);

export const getLiveStream = () => snapshot;

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useLiveStream = () => useSyncExternalStore(subscribe, getLiveStream, getLiveStream);
