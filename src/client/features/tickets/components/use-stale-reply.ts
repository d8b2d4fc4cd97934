import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { clearChanges, isStaleReply, markChangesSince } from "#client/features/tickets/stale-reply.ts";
import { ticketActivityQuery, ticketKeys } from "#client/features/tickets/ticket.api.ts";

/**
 * A reply's guard against what changed while it was written (decision 072). The newest timeline entry on
 * the page when the draft began is what its writer had seen; the reply names it (`seenEventId`), and the
 * server refuses it (409) if someone else changed the ticket since. Then the timeline and the conversation
 * are read again with what came after marked, the draft stays, and what the writer now sees is what the
 * next send names: Send anyway, once they have looked.
 */
export function useStaleReply(ticketId: string, message: string) {
  const queryClient = useQueryClient();
  const activity = useQuery(ticketActivityQuery(ticketId));
  const newest = activity.data?.events.at(-1)?.id;
  const seen = useRef<string | null>(null);
  const [isStale, setIsStale] = useState(false);
  const isBlank = message.trim() === "";

  useEffect(() => {
    if (!isBlank) {
      seen.current ??= newest ?? null;
      return;
    }
    // No draft (never begun, sent, or given up): nothing to guard, nothing left to look at.
    seen.current = null;
    setIsStale(false);
    clearChanges(ticketId);
  }, [isBlank, newest, ticketId]);

  return {
    isStale,
    /** What the reply says its writer had seen: left out before the timeline is known. */
    seenEventId: () => seen.current ?? newest,
    /** True when the refusal was a stale reply: the page now shows what changed, and the draft waits. */
    async handleRefusal(error: unknown): Promise<boolean> {
      if (!isStaleReply(error)) return false;
      const since = seen.current ?? newest;
      if (since) markChangesSince(ticketId, since);
      void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId), exact: true });
      const fresh = await queryClient.fetchQuery({ ...ticketActivityQuery(ticketId), staleTime: 0 });
      seen.current = fresh.events.at(-1)?.id ?? null;
      setIsStale(true);
      return true;
    },
  };
}
