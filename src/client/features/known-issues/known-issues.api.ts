import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  KnownIssue,
  KnownIssueFollow,
  KnownIssues,
} from "#shared/major-incidents/major-incident.schemas.ts";
import type { TicketStatus } from "#shared/tickets/ticket.schemas.ts";

// Decision 077: the known issues, a major incident's public face, and following one.

export const knownIssueKeys = {
  all: ["known-issues"] as const,
  list: () => [...knownIssueKeys.all, "list"] as const,
  detail: (ticketId: string) => [...knownIssueKeys.all, "detail", ticketId] as const,
};

const issuePath = (ticketId: string) => `/api/known-issues/${encodeURIComponent(ticketId)}`;

/** The open major incidents, newest first (at most ten). */
export const knownIssuesQuery = () =>
  queryOptions({
    queryKey: knownIssueKeys.list(),
    queryFn: ({ signal }) => apiFetch<KnownIssues>("/api/known-issues", { signal }),
    staleTime: 30_000,
  });

export const knownIssueQuery = (ticketId: string) =>
  queryOptions({
    queryKey: knownIssueKeys.detail(ticketId),
    queryFn: ({ signal }) => apiFetch<KnownIssue>(issuePath(ticketId), { signal }),
  });

/** Follow (true) or stop following (false) a known issue. */
export function useFollowKnownIssue(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      apiFetch<KnownIssueFollow>(`${issuePath(ticketId)}/follow`, { method: follow ? "PUT" : "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: knownIssueKeys.all }),
  });
}

/** A status as the screens name it (the tickets feature's own texts: one translation each). */
export const knownIssueStatusNames: Record<TicketStatus, MessageDescriptor> = {
  Open: msg`Open`,
  "In Progress": msg`In Progress`,
  Resolved: msg`Resolved`,
  Closed: msg`Closed`,
};
