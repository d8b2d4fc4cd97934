import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { CustomFieldList, TicketCustomFields } from "#shared/custom-fields/custom-field.schemas.ts";
import { ticketKeys } from "./ticket.api.ts";

/** The active custom fields (Admin settings invalidates ["custom-fields"] after every change). */
export const activeCustomFieldsQuery = () =>
  queryOptions({
    queryKey: ["custom-fields", "active"] as const,
    queryFn: ({ signal }) => apiFetch<CustomFieldList>("/api/custom-fields", { signal }),
    staleTime: 60_000,
  });

/** A ticket's Details: under the ticket's key, so refreshing the ticket refreshes them. */
const ticketCustomFieldsKey = (ticketId: string) =>
  [...ticketKeys.detail(ticketId), "custom-fields"] as const;

export const ticketCustomFieldsQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketCustomFieldsKey(ticketId),
    queryFn: ({ signal }) =>
      apiFetch<TicketCustomFields>(`/api/tickets/${ticketId}/custom-fields`, { signal }),
  });

/** Staff save a ticket's Details; the ticket (its timeline) and the lists are read again. */
export function useEditTicketCustomFields(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) =>
      apiFetch<TicketCustomFields>(`/api/tickets/${ticketId}/custom-fields`, {
        method: "PUT",
        body: { values },
      }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(ticketCustomFieldsKey(ticketId), saved);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ticketKeys.activity(ticketId) }),
        queryClient.invalidateQueries({ queryKey: ticketKeys.lists() }),
      ]);
    },
  });
}
