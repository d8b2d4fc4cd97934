import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  CannedResponse,
  CannedResponseList,
  CreateCannedResponseInput,
  UpdateCannedResponseInput,
} from "#shared/canned-responses/canned-response.schemas.ts";

export const cannedResponseKeys = {
  all: ["canned-responses"] as const,
  list: () => [...cannedResponseKeys.all, "list"] as const,
};

const basePath = "/api/canned-responses";
const responsePath = (id: string) => `${basePath}/${encodeURIComponent(id)}`;

/**
 * Everything the staff member may use (their own and the shared ones), sorted by title. A person keeps
 * dozens, so the screen and the picker filter in the browser and stay instant while typing.
 */
export const cannedResponseListQuery = () =>
  queryOptions({
    queryKey: cannedResponseKeys.list(),
    queryFn: ({ signal }) => apiFetch<CannedResponseList>(basePath, { signal }),
    select: (list) => list.items,
    staleTime: 60_000,
  });

function useRefreshAfter<Input>(mutationFn: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cannedResponseKeys.all }),
  });
}

export const useCreateCannedResponse = () =>
  useRefreshAfter((input: CreateCannedResponseInput) =>
    apiFetch<CannedResponse>(basePath, { method: "POST", body: input }),
  );

export const useUpdateCannedResponse = (id: string) =>
  useRefreshAfter((input: UpdateCannedResponseInput) =>
    apiFetch<CannedResponse>(responsePath(id), { method: "PATCH", body: input }),
  );

export const useDeleteCannedResponse = () =>
  useRefreshAfter((id: string) => apiFetch<void>(responsePath(id), { method: "DELETE" }));

/** Words typed into a search box against a response's title and text, case-insensitive, every word. */
export function matchesSearch(response: Pick<CannedResponse, "title" | "body">, search: string) {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${response.title}\n${response.body}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}
