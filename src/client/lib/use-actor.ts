import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import type { Me } from "#shared/users/user.schemas.ts";
import { apiFetch } from "./api-client.ts";

export const actorKeys = {
  me: ["me"] as const,
};

/** Who is signed in: the server answers `null` (200) when nobody is. Failures stay errors. */
export const fetchActor = (signal?: AbortSignal) => apiFetch<Me | null>("/api/me", { signal });

export const actorQuery = queryOptions({
  queryKey: actorKeys.me,
  queryFn: ({ signal }) => fetchActor(signal),
  staleTime: 5 * 60_000,
});

/** The whole query, for screens that must tell "loading" and "failed" apart (route guards). */
export const useActorQuery = () => useQuery(actorQuery);

/** The signed-in person, `null` when signed out, `undefined` while loading. */
export const useActor = (): Me | null | undefined => useActorQuery().data;

/**
 * After sign-in or sign-up: forget everything cached for the previous person and remember the new
 * one, so no list from one account is ever shown to the next. Screens watching the actor update at once.
 */
export function replaceActor(queryClient: QueryClient, actor: Me) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== actorKeys.me[0] });
  queryClient.setQueryData(actorKeys.me, actor);
}

/**
 * After sign-out: clear the whole cache and remember "signed out". Unlike replaceActor, the screens on
 * display are not told (they watch the removed queries), so the caller can navigate away first instead of
 * the guard of the page being left bouncing to /sign-in.
 */
export function forgetActor(queryClient: QueryClient) {
  queryClient.clear();
  queryClient.setQueryData(actorKeys.me, null);
}
