import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  CreateTicketInput,
  Ticket,
  TicketPage,
  TicketScope,
  TicketStatus,
  TicketSummary,
} from "#shared/tickets/ticket.schemas.ts";
import { apiFetch } from "../../lib/api-client.ts";

export interface TicketListFilters {
  scope: TicketScope;
  status?: TicketStatus;
}

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (filters: TicketListFilters) => [...ticketKeys.lists(), filters] as const,
  summary: () => [...ticketKeys.all, "summary"] as const,
  details: () => [...ticketKeys.all, "detail"] as const,
  detail: (ticketId: string) => [...ticketKeys.details(), ticketId] as const,
};

function listPath({ scope, status }: TicketListFilters, cursor: string | null) {
  const params = new URLSearchParams({ scope });
  if (status) params.set("status", status);
  if (cursor) params.set("cursor", cursor);
  return `/api/tickets?${params}`;
}

/** Newest first, 25 a page; "Load more" follows nextCursor. */
export const ticketListQuery = (filters: TicketListFilters) =>
  infiniteQueryOptions({
    queryKey: ticketKeys.list(filters),
    queryFn: ({ pageParam, signal }) => apiFetch<TicketPage>(listPath(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

export const ticketSummaryQuery = () =>
  queryOptions({
    queryKey: ticketKeys.summary(),
    queryFn: ({ signal }) => apiFetch<TicketSummary>("/api/tickets/summary", { signal }),
  });

export const ticketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketKeys.detail(ticketId),
    queryFn: ({ signal }) => apiFetch<Ticket>(`/api/tickets/${encodeURIComponent(ticketId)}`, { signal }),
  });

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTicketInput) =>
      apiFetch<Ticket>("/api/tickets", { method: "POST", body: input }),
    onSuccess: async (ticket) => {
      queryClient.setQueryData(ticketKeys.detail(ticket.ticketId), ticket);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ticketKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: ticketKeys.summary() }),
      ]);
    },
  });
}
