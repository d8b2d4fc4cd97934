import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  AddAffectedResult,
  PostedIncidentUpdate,
  TicketIncident,
} from "#shared/major-incidents/major-incident.schemas.ts";

// Decision 077: a ticket's part in a major incident, and what staff do with one.

const ticketPath = (ticketId: string) => `/api/tickets/${encodeURIComponent(ticketId)}`;
/** Under the ticket's detail key (the tickets feature's), so a live "ticket changed" refreshes it. */
const detailKey = (ticketId: string) => ["tickets", "detail", ticketId] as const;

export const majorIncidentKeys = {
  ofTicket: (ticketId: string) => [...detailKey(ticketId), "major-incident"] as const,
};

/** The incident the ticket is, or the one affecting it (its public face), for whoever may see the ticket. */
export const ticketIncidentQuery = (ticketId: string) =>
  queryOptions({
    queryKey: majorIncidentKeys.ofTicket(ticketId),
    queryFn: ({ signal }) => apiFetch<TicketIncident>(`${ticketPath(ticketId)}/major-incident`, { signal }),
  });

/** After a change: this ticket's entries and the others' (their banners, links, timelines), and the known issues. */
function useRefresh(ticketId: string) {
  const queryClient = useQueryClient();
  return (otherIds: readonly string[] = []) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: detailKey(ticketId) }),
      ...otherIds.map((id) => queryClient.invalidateQueries({ queryKey: detailKey(id) })),
      queryClient.invalidateQueries({ queryKey: ["known-issues"] }),
    ]);
}

export function useDeclareIncident(ticketId: string) {
  const refresh = useRefresh(ticketId);
  return useMutation({
    mutationFn: (headline: string) =>
      apiFetch<TicketIncident>(`${ticketPath(ticketId)}/major-incident`, {
        method: "PUT",
        body: { headline },
      }),
    onSuccess: () => refresh(),
  });
}

export function useEndIncident(ticketId: string) {
  const refresh = useRefresh(ticketId);
  return useMutation({
    mutationFn: () => apiFetch<void>(`${ticketPath(ticketId)}/major-incident`, { method: "DELETE" }),
    onSuccess: () => refresh(),
  });
}

/** Links tickets to the incident `incidentId`; answers which were linked and why the others were not. */
export function useAddAffected(incidentId: string) {
  const refresh = useRefresh(incidentId);
  return useMutation({
    mutationFn: (ticketIds: string[]) =>
      apiFetch<AddAffectedResult>(`${ticketPath(incidentId)}/incident/affected`, {
        method: "POST",
        body: { ticketIds },
      }),
    onSuccess: (result) => refresh(result.linked),
  });
}

export function useRemoveAffected(incidentId: string) {
  const refresh = useRefresh(incidentId);
  return useMutation({
    mutationFn: (affectedId: string) =>
      apiFetch<void>(`${ticketPath(incidentId)}/incident/affected/${encodeURIComponent(affectedId)}`, {
        method: "DELETE",
      }),
    onSuccess: (_answer, affectedId) => refresh([affectedId]),
  });
}

export function usePostIncidentUpdate(incidentId: string) {
  const refresh = useRefresh(incidentId);
  return useMutation({
    mutationFn: (body: string) =>
      apiFetch<PostedIncidentUpdate>(`${ticketPath(incidentId)}/incident/updates`, {
        method: "POST",
        body: { body },
      }),
    onSuccess: () => refresh(),
  });
}
