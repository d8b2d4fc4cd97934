import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, isApiError } from "#client/lib/api-client.ts";
import type { SearchResults } from "#shared/search/search.schemas.ts";
import type {
  CreateTicketLinkInput,
  MergeResult,
  TicketLink,
  TicketLinks,
} from "#shared/ticket-links/ticket-link.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

const ticketPath = (ticketId: string) => `/api/tickets/${encodeURIComponent(ticketId)}`;
/** A ticket's cache entries all sit under ["tickets", "detail", id] (the tickets feature's detail key). */
const detailKey = (ticketId: string) => ["tickets", "detail", ticketId] as const;

export const ticketLinkKeys = {
  // Under the ticket's detail key, so a live "ticket changed" (a link made on the other side) refreshes it.
  links: (ticketId: string) => [...detailKey(ticketId), "links"] as const,
  /** Another ticket as the caller may read it (the merge's target, a merged ticket's pointer). */
  other: (ticketId: string) => ["ticket-links", "ticket", ticketId] as const,
  candidates: (q: string) => ["ticket-links", "candidates", q] as const,
};

/** The links of a ticket whose other ticket the caller may see too (decision 074). */
export const ticketLinksQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketLinkKeys.links(ticketId),
    queryFn: ({ signal }) => apiFetch<TicketLinks>(`${ticketPath(ticketId)}/links`, { signal }),
  });

/**
 * Another ticket, or null when the caller may not see it: a 404 is an answer here (the merged banner of a
 * requester drawn by the server must not turn the page into "not found"), not a failure to retry.
 */
export const otherTicketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketLinkKeys.other(ticketId),
    queryFn: ({ signal }) =>
      apiFetch<Ticket>(ticketPath(ticketId), { signal }).catch((error: unknown) => {
        if (isApiError(error, 404)) return null;
        throw error;
      }),
  });

/** Tickets whose title, description or id match what was typed, to pick one to link or merge into. */
export const ticketCandidatesQuery = (q: string) =>
  queryOptions({
    queryKey: ticketLinkKeys.candidates(q),
    queryFn: ({ signal }) =>
      apiFetch<SearchResults>(`/api/search?q=${encodeURIComponent(q)}`, { signal }).then(
        (results) => results.tickets,
      ),
    staleTime: 30_000,
  });

function useRefreshBoth(ticketId: string) {
  const queryClient = useQueryClient();
  // Both tickets' entries (their links and timelines) and the pointer lookups.
  return (otherId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: detailKey(ticketId) }),
      queryClient.invalidateQueries({ queryKey: detailKey(otherId) }),
      queryClient.invalidateQueries({ queryKey: ["ticket-links"] }),
    ]);
}

export function useCreateTicketLink(ticketId: string) {
  const refresh = useRefreshBoth(ticketId);
  return useMutation({
    mutationFn: (input: CreateTicketLinkInput) =>
      apiFetch<TicketLink>(`${ticketPath(ticketId)}/links`, { method: "POST", body: input }),
    onSuccess: (link) => refresh(link.ticketId),
  });
}

export function useRemoveTicketLink(ticketId: string) {
  const refresh = useRefreshBoth(ticketId);
  return useMutation({
    mutationFn: (link: TicketLink) =>
      apiFetch<void>(`${ticketPath(ticketId)}/links/${encodeURIComponent(link.linkId)}`, {
        method: "DELETE",
      }),
    onSuccess: (_answer, link) => refresh(link.ticketId),
  });
}

/**
 * Merges this ticket into `targetId`. The merged ticket's own cache is the tickets feature's: the page
 * hands in what to do with it (features do not import each other).
 */
export function useMergeTicket(ticketId: string) {
  const refresh = useRefreshBoth(ticketId);
  return useMutation({
    mutationFn: (targetId: string) =>
      apiFetch<MergeResult>(`${ticketPath(ticketId)}/merge`, { method: "POST", body: { targetId } }),
    onSuccess: (_result, targetId) => refresh(targetId),
  });
}
