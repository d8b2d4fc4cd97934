import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { FollowState } from "#shared/followers/follower.schemas.ts";

const followPath = (ticketId: string) => `/api/tickets/${encodeURIComponent(ticketId)}/follow`;

export const followerKeys = {
  // Under the ticket's detail key (["tickets", "detail", id]), so a live "ticket changed" refreshes it too.
  state: (ticketId: string) => ["tickets", "detail", ticketId, "follow"] as const,
};

export const followStateQuery = (ticketId: string) =>
  queryOptions({
    queryKey: followerKeys.state(ticketId),
    queryFn: ({ signal }) => apiFetch<FollowState>(followPath(ticketId), { signal }),
  });

/** Follow (true) or unfollow (false); both are idempotent on the server. */
export function useSetFollowing(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) =>
      apiFetch<FollowState>(followPath(ticketId), { method: follow ? "PUT" : "DELETE" }),
    onSuccess: (state) => queryClient.setQueryData(followerKeys.state(ticketId), state),
  });
}
