import { useQuery } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { isApiError } from "#client/lib/api-client.ts";
import { useActor } from "#client/lib/use-actor.ts";
import { isSlaEventType } from "#shared/service-levels/sla-escalation.ts";
import {
  type StaleReplyDetails,
  staleReplyReason,
  type TicketActivity,
} from "#shared/tickets/ticket-activity.schemas.ts";
import { ticketActivityQuery } from "./ticket.api.ts";

/** The server refused a reply because someone else changed the ticket since its writer began (decision 072). */
export const isStaleReply = (error: unknown) =>
  isApiError(error, 409) &&
  (error.details as Partial<StaleReplyDetails> | undefined)?.reason === staleReplyReason;

/**
 * Per ticket, the newest entry its writer had seen when a reply was refused as stale: what came after it is
 * marked on the page until the reply is sent or given up. Written by the comment form, read by the
 * conversation and the timeline.
 */
const seenBefore = new Map<string, string>();
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

export function markChangesSince(ticketId: string, seenEventId: string) {
  seenBefore.set(ticketId, seenEventId);
  changed();
}

export function clearChanges(ticketId: string) {
  if (seenBefore.delete(ticketId)) changed();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const nothing = { events: new Set<string>(), comments: new Set<string>() };

/**
 * What someone else did after the entry the writer had seen: the timeline's entries (as the server counts a
 * change: not the writer's own, not the escalation's warnings) and the comments and notes among them.
 */
export function changesSince(
  activity: TicketActivity | undefined,
  seenEventId: string | undefined,
  selfId: string | undefined,
) {
  if (!activity || !seenEventId) return nothing;
  const index = activity.events.findIndex((event) => event.id === seenEventId);
  if (index === -1) return nothing;
  const seenAt = activity.events[index]!.at;
  const events = activity.events
    .slice(index + 1)
    .filter((event) => event.actorId !== selfId && !isSlaEventType(event.type));
  const comments = activity.comments.filter(
    (comment) => comment.authorId !== selfId && comment.timestamp > seenAt,
  );
  return {
    events: new Set(events.map((event) => event.id)),
    comments: new Set(comments.map((comment) => comment.commentId)),
  };
}

/** The entries and comments to mark "New" on this ticket's page: none unless a reply was refused as stale. */
export function useChangedWhileWriting(ticketId: string) {
  const seenEventId = useSyncExternalStore(
    subscribe,
    () => seenBefore.get(ticketId),
    () => undefined,
  );
  // The same query as the timeline's and the conversation's, options and all: an observer that disabled it
  // would make the page the server draws skip it (server-rendering.tsx reads a query's last options).
  const activity = useQuery(ticketActivityQuery(ticketId));
  return changesSince(activity.data, seenEventId, useActor()?.id);
}
