import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { SearchResults } from "#shared/search/search.schemas.ts";

export const searchKeys = {
  all: ["search"] as const,
  results: (q: string) => [...searchKeys.all, q] as const,
};

/** The palette's results: visible tickets by id or words, and for staff people by name. */
export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: searchKeys.results(q),
    queryFn: ({ signal }) => apiFetch<SearchResults>(`/api/search?${new URLSearchParams({ q })}`, { signal }),
    // A palette is opened, used and closed in seconds; the same words typed again answer from memory.
    staleTime: 15_000,
  });
