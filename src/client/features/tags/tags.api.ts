import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { ChangeTicketTagsInput, TagSuggestions } from "#shared/tags/tag.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

export const tagKeys = {
  all: ["tags"] as const,
  suggestions: () => [...tagKeys.all, "suggestions"] as const,
};

/** The tags to suggest, most used first, or the admin's fixed list (staff, decision 071). */
export const tagSuggestionsQuery = () =>
  queryOptions({
    queryKey: tagKeys.suggestions(),
    queryFn: ({ signal }) => apiFetch<TagSuggestions>("/api/tags", { signal }),
    staleTime: 60_000,
  });

/**
 * Adds and removes a ticket's tags. What the ticket's own caches hold is the tickets feature's: the page
 * hands in what to do with the changed ticket (features do not import each other).
 */
export function useChangeTicketTags(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<ChangeTicketTagsInput>) =>
      apiFetch<Ticket>(`/api/tickets/${encodeURIComponent(ticketId)}/tags`, {
        method: "PATCH",
        body: change,
      }),
    // A new tag is now one to suggest; a count moved.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tagKeys.all }),
  });
}
