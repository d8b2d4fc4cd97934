import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import { actorKeys } from "#client/lib/use-actor.ts";
import type {
  DefaultTeamInput,
  Routing,
  RoutingRule,
  RoutingRuleInput,
} from "#shared/teams/routing-rule.schemas.ts";
import type { Team, TeamInput, TeamList } from "#shared/teams/team.schemas.ts";
import type { TeamAssignmentMode } from "#shared/teams/team-assignment.ts";
import type { TeamAssignment } from "#shared/teams/team-queues.schemas.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";
import type { Me } from "#shared/users/user.schemas.ts";

export const teamKeys = {
  all: ["teams"] as const,
  list: () => [...teamKeys.all, "list"] as const,
  routing: () => [...teamKeys.all, "routing"] as const,
};

const teamPath = (teamId: string) => `/api/teams/${encodeURIComponent(teamId)}`;
const rulePath = (ruleId: string) => `/api/routing/rules/${encodeURIComponent(ruleId)}`;

/** Every team by name (staff: the ticket's team picker; admins: the Teams page). */
export const teamListQuery = () =>
  queryOptions({
    queryKey: teamKeys.list(),
    queryFn: ({ signal }) => apiFetch<TeamList>("/api/teams", { signal }),
    select: (list) => list.items,
  });

/** The routing rules in the order they are tried, and the default team (admins). */
export const routingQuery = () =>
  queryOptions({
    queryKey: teamKeys.routing(),
    queryFn: ({ signal }) => apiFetch<Routing>("/api/routing", { signal }),
  });

/** Any change to teams or routing: both are read again (a rule names its team; a deleted team's rules go). */
function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}

export const useSaveTeam = () =>
  useRefreshAfter(({ id, input }: { id: string | null; input: TeamInput }) =>
    apiFetch<Team>(id ? teamPath(id) : "/api/teams", { method: id ? "PUT" : "POST", body: input }),
  );

/** How a team gives out its new tickets (decision 073): off, round robin or fewest open. */
export const useSetTeamAssignment = () =>
  useRefreshAfter(({ teamId, assignment }: { teamId: string; assignment: TeamAssignmentMode }) =>
    apiFetch<TeamAssignment>(`${teamPath(teamId)}/assignment`, { method: "PUT", body: { assignment } }),
  );

/**
 * A technician marks themselves away, or back (decision 073): the answer is who they now are; the teams,
 * which show who is away, are read again.
 */
export function useSetAway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (away: boolean) => apiFetch<Me>("/api/me/away", { method: "PUT", body: { away } }),
    onSuccess: async (me) => {
      queryClient.setQueryData(actorKeys.me, me);
      await queryClient.invalidateQueries({ queryKey: teamKeys.all });
    },
  });
}

export const useDeleteTeam = () =>
  useRefreshAfter((id: string) => apiFetch<void>(teamPath(id), { method: "DELETE" }));

export const useSaveRoutingRule = () =>
  useRefreshAfter(({ id, input }: { id: string | null; input: RoutingRuleInput }) =>
    apiFetch<RoutingRule>(id ? rulePath(id) : "/api/routing/rules", {
      method: id ? "PUT" : "POST",
      body: input,
    }),
  );

export const useDeleteRoutingRule = () =>
  useRefreshAfter((id: string) => apiFetch<void>(rulePath(id), { method: "DELETE" }));

export const useReorderRoutingRules = () =>
  useRefreshAfter((ruleIds: string[]) =>
    apiFetch<Routing>("/api/routing/rules/order", { method: "PUT", body: { ruleIds } }),
  );

export const useSetDefaultTeam = () =>
  useRefreshAfter((input: DefaultTeamInput) =>
    apiFetch<Routing>("/api/routing/default-team", { method: "PUT", body: input }),
  );

/**
 * Moves a ticket to a team, or out of any. What the ticket's own caches hold is the tickets feature's:
 * the page hands in what to do with the moved ticket (features do not import each other).
 */
export function useChangeTicketTeam(ticketId: string) {
  return useMutation({
    mutationFn: (teamId: string | null) =>
      apiFetch<Ticket>(`/api/tickets/${encodeURIComponent(ticketId)}/team`, {
        method: "PUT",
        body: { teamId },
      }),
  });
}
