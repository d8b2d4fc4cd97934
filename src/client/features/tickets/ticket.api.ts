import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch, isApiError } from "#client/lib/api-client.ts";
import type { BulkMacroInput, MacroList } from "#shared/macros/macro.schemas.ts";
import type { AddAffectedResult, KnownIssues } from "#shared/major-incidents/major-incident.schemas.ts";
import type { AddedComment } from "#shared/mentions/mention.schemas.ts";
import type { TeamQueues } from "#shared/teams/team-queues.schemas.ts";
import type {
  CreateTicketInput,
  SortDirection,
  SummaryScope,
  Ticket,
  TicketCategory,
  TicketDueFilter,
  TicketPage,
  TicketPriority,
  TicketScope,
  TicketSort,
  TicketStatus,
  TicketSummary,
} from "#shared/tickets/ticket.schemas.ts";
import type {
  AddCommentInput,
  ChangeStatusInput,
  Feedback,
  FeedbackInput,
  TicketActivity,
} from "#shared/tickets/ticket-activity.schemas.ts";
import type { AssignTicketInput, Technician } from "#shared/tickets/ticket-assignment.ts";
import type { BulkResult, BulkTicketsInput } from "#shared/tickets/ticket-bulk.ts";
import type { EditTicketInput } from "#shared/tickets/ticket-edit.ts";
import type { ChangeHoldInput, PutOnHoldInput } from "#shared/tickets/ticket-hold.ts";

export interface TicketListFilters {
  scope: TicketScope;
  status?: TicketStatus;
  priority?: TicketPriority;
  category?: TicketCategory;
  /** Words of the title or description, or a TKT id. */
  q?: string;
  /** Custom field filters, each `<fieldId>:<value>` (decision 022). */
  cf?: string[];
  /** Staff: running service-level targets past due or due soon, and the due-time order. */
  due?: TicketDueFilter;
  /** Decision 070: only the tickets on hold (true) or only those not (false). */
  onHold?: boolean;
  /** Decision 073 (staff): one team's tickets, by the team's id. */
  team?: string;
  /** Decision 071 (staff): only the tickets with this tag. */
  tag?: string;
  /** The order (decision 034): newest first without one. */
  sort?: TicketSort;
  dir?: SortDirection;
}

export const ticketKeys = {
  all: ["tickets"] as const,
  lists: () => [...ticketKeys.all, "list"] as const,
  list: (filters: TicketListFilters) => [...ticketKeys.lists(), filters] as const,
  summaries: () => [...ticketKeys.all, "summary"] as const,
  summary: (scope: SummaryScope) => [...ticketKeys.summaries(), scope] as const,
  /** Under the counts' key: whatever refreshes the counts (a change, a push) refreshes the team tabs' too. */
  queues: () => [...ticketKeys.summaries(), "team-queues"] as const,
  details: () => [...ticketKeys.all, "detail"] as const,
  detail: (ticketId: string) => [...ticketKeys.details(), ticketId] as const,
  // Under the detail key, so that refreshing a ticket refreshes its activity too.
  activity: (ticketId: string) => [...ticketKeys.detail(ticketId), "activity"] as const,
};

function listParams(filters: TicketListFilters) {
  const { scope, status, priority, category, q, cf, due, onHold, team, tag, sort, dir } = filters;
  const params = new URLSearchParams({ scope });
  if (status) params.set("status", status);
  if (priority) params.set("priority", priority);
  if (category) params.set("category", category);
  if (q) params.set("q", q);
  for (const filter of cf ?? []) params.append("cf", filter);
  if (due) params.set("due", due);
  if (onHold !== undefined) params.set("onHold", String(onHold));
  if (team) params.set("team", team);
  if (tag) params.set("tag", tag);
  if (sort && sort !== "newest") params.set("sort", sort);
  if (dir && sort && sort !== "due") params.set("dir", dir);
  return params;
}

function listPath(filters: TicketListFilters, cursor: string | null) {
  const params = listParams(filters);
  if (cursor) params.set("cursor", cursor);
  return `/api/tickets?${params}`;
}

/** Every ticket of the list as filtered, as a CSV download (a plain link: the browser streams it to disk). */
export const ticketExportPath = (filters: TicketListFilters) =>
  `/api/tickets/export.csv?${listParams(filters)}`;

const ticketPath = (ticketId: string) => `/api/tickets/${encodeURIComponent(ticketId)}`;

/** Newest first, 25 a page; "Load more" follows nextCursor. */
export const ticketListQuery = (filters: TicketListFilters) =>
  infiniteQueryOptions({
    queryKey: ticketKeys.list(filters),
    queryFn: ({ pageParam, signal }) => apiFetch<TicketPage>(listPath(filters, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });

/** Counts over what the person may see, or (scope "created") over what they raised. */
export const ticketSummaryQuery = (scope: SummaryScope) =>
  queryOptions({
    queryKey: ticketKeys.summary(scope),
    queryFn: ({ signal }) =>
      apiFetch<TicketSummary>(`/api/tickets/summary?${new URLSearchParams({ scope })}`, { signal }),
  });

/**
 * Staff: every team by name (the Team filter) and, for a member of a team, the counts of the team tabs
 * (decision 073); `mine` is null for someone in no team, who sees no team tabs.
 */
export const teamQueuesQuery = () =>
  queryOptions({
    queryKey: ticketKeys.queues(),
    queryFn: ({ signal }) => apiFetch<TeamQueues>("/api/tickets/queues", { signal }),
  });

export const ticketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketKeys.detail(ticketId),
    queryFn: ({ signal }) => apiFetch<Ticket>(ticketPath(ticketId), { signal }),
  });

/** Comments, feedback and the timeline of one ticket. */
export const ticketActivityQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ticketKeys.activity(ticketId),
    queryFn: ({ signal }) => apiFetch<TicketActivity>(`${ticketPath(ticketId)}/activity`, { signal }),
  });

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateTicketInput) =>
      apiFetch<Ticket>("/api/tickets", { method: "POST", body: input }),
    onSuccess: async (ticket) => {
      queryClient.setQueryData(ticketKeys.detail(ticket.ticketId), ticket);
      await invalidateListsAndCounts(queryClient);
    },
  });
}

/** Assign to Me: the technician becomes assignee and the ticket goes In Progress. */
export function useAssignToMe(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<Ticket>(`${ticketPath(ticketId)}/assign`, { method: "POST" }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

/** The "Assign to…" choices (staff only): active technicians, by name. */
export const technicianListQuery = () =>
  queryOptions({
    queryKey: ["technicians"] as const,
    queryFn: ({ signal }) => apiFetch<Technician[]>("/api/technicians", { signal }),
  });

/** An admin (re)assigns or returns to the queue; a technician hands their ticket on. */
export function useAssignTicket(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AssignTicketInput) =>
      apiFetch<Ticket>(`${ticketPath(ticketId)}/assignee`, { method: "PUT", body: input }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

export function useChangeTicketStatus(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeStatusInput) =>
      apiFetch<Ticket>(`${ticketPath(ticketId)}/status`, { method: "PATCH", body: input }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

/** Decision 070: staff put an In Progress ticket on hold with a public comment (and a lift date, or none). */
export function usePutOnHold(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PutOnHoldInput) =>
      apiFetch<Ticket>(`${ticketPath(ticketId)}/hold`, { method: "PUT", body: input }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

/** A new lift date for a ticket on hold, or none. */
export function useChangeHold(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeHoldInput) =>
      apiFetch<Ticket>(`${ticketPath(ticketId)}/hold`, { method: "PATCH", body: input }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

export function useTakeOffHold(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<Ticket>(`${ticketPath(ticketId)}/hold`, { method: "DELETE" }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

export function useAddComment(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddCommentInput) =>
      apiFetch<AddedComment>(`${ticketPath(ticketId)}/comments`, { method: "POST", body: input }),
    onSuccess: () => {
      // A reply is activity: the ticket's "Updated" and its auto-close date move. Not waited for, so the
      // form is done as soon as the conversation shows the comment.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) });
      return queryClient.invalidateQueries({ queryKey: ticketKeys.activity(ticketId) });
    },
  });
}

/** One feedback per ticket: sending it again while the ticket is Resolved replaces it. */
export function useGiveFeedback(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeedbackInput) =>
      apiFetch<Feedback>(`${ticketPath(ticketId)}/feedback`, { method: "PUT", body: input }),
    onSuccess: (feedback) => {
      queryClient.setQueryData(ticketActivityQuery(ticketId).queryKey, (activity) =>
        activity ? { ...activity, feedback } : activity,
      );
      // The timeline gained a "feedback" event.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.activity(ticketId) });
      // A rating is activity: the auto-close date moves.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) });
    },
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

/** Decision 015: only the fields the person changed (staff: details; the creator: the description). */
export function useEditTicket(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditTicketInput) =>
      apiFetch<Ticket>(ticketPath(ticketId), { method: "PATCH", body: input }),
    onSuccess: (ticket) => storeChangedTicket(queryClient, ticket),
    onError: (error) => refreshAfterRefusal(queryClient, ticketId, error),
  });
}

/** Decision 015: one action on many tickets; the lists, counts and the tickets themselves refresh. */
export function useBulkChangeTickets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkTicketsInput) =>
      apiFetch<BulkResult>("/api/tickets/bulk", { method: "POST", body: input }),
    onSettled: () =>
      Promise.all([
        invalidateListsAndCounts(queryClient),
        queryClient.invalidateQueries({ queryKey: ticketKeys.details() }),
      ]),
  });
}

/**
 * The macros the bulk bar offers (decision 075): the macros feature's list, read under the same key so
 * that both share one copy (a feature does not import another).
 */
export const macroChoicesQuery = () =>
  queryOptions({
    queryKey: ["macros", "list"] as const,
    queryFn: ({ signal }) => apiFetch<MacroList>("/api/macros", { signal }),
    select: (list) => list.items.map(({ id, title }) => ({ id, title })),
    staleTime: 60_000,
  });

/** Decision 075: a macro on many tickets, each in its own transaction; refreshes as a bulk action does. */
export function useBulkApplyMacro() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BulkMacroInput) =>
      apiFetch<BulkResult>("/api/tickets/bulk/macro", { method: "POST", body: input }),
    onSettled: () =>
      Promise.all([
        invalidateListsAndCounts(queryClient),
        queryClient.invalidateQueries({ queryKey: ticketKeys.details() }),
      ]),
  });
}

/** Decision 077: the open major incidents, for "Link to major incident…" (the known issues' query key). */
export const openIncidentChoicesQuery = () =>
  queryOptions({
    queryKey: ["known-issues", "list"] as const,
    queryFn: ({ signal }) => apiFetch<KnownIssues>("/api/known-issues", { signal }),
    staleTime: 30_000,
  });

/** Decision 077: links the selected tickets to a major incident, each on its own, answered as a bulk action. */
export function useBulkLinkToIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ incidentId, ticketIds }: { incidentId: string; ticketIds: string[] }) => {
      const result = await apiFetch<AddAffectedResult>(
        `/api/tickets/${encodeURIComponent(incidentId)}/incident/affected`,
        { method: "POST", body: { ticketIds } },
      );
      return { changed: result.linked, refused: result.refused } satisfies BulkResult;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketKeys.details() }),
  });
}

function invalidateListsAndCounts(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ticketKeys.lists() }),
    queryClient.invalidateQueries({ queryKey: ticketKeys.summaries() }),
  ]);
}

/**
 * For a change another feature makes to a ticket (its team, decision 069): show the changed ticket as
 * this feature's own changes do, or read it again after a refusal.
 */
export function useTicketChangeHandlers(ticketId: string) {
  const queryClient = useQueryClient();
  return {
    onChanged: (ticket: Ticket) => storeChangedTicket(queryClient, ticket),
    onRefused: (error: Error) => refreshAfterRefusal(queryClient, ticketId, error),
  };
}

/** The page shows the returned ticket at once; the timeline, lists and counts refresh behind it. */
function storeChangedTicket(queryClient: QueryClient, ticket: Ticket) {
  queryClient.setQueryData(ticketKeys.detail(ticket.ticketId), ticket);
  void queryClient.invalidateQueries({ queryKey: ticketKeys.activity(ticket.ticketId) });
  void invalidateListsAndCounts(queryClient);
}

/**
 * A refusal because the ticket changed under us (another technician won Assign to Me, someone closed
 * it, it is no longer visible): the page is out of date, so read the ticket again and show what won.
 */
function refreshAfterRefusal(queryClient: QueryClient, ticketId: string, error: Error) {
  if (!isApiError(error, 409) && !isApiError(error, 422) && !isApiError(error, 404)) return;
  void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) });
  void invalidateListsAndCounts(queryClient);
}
