import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  ApiTokenList,
  CreateApiTokenInput,
  CreatedApiToken,
} from "#shared/api-tokens/api-token.schemas.ts";

export const apiTokenKeys = { all: ["api-tokens"] as const };

const basePath = "/api/me/tokens";

/** The signed-in person's own tokens that are not revoked, newest first. */
export const apiTokenListQuery = () =>
  queryOptions({
    queryKey: apiTokenKeys.all,
    queryFn: ({ signal }) => apiFetch<ApiTokenList>(basePath, { signal }),
    select: (list) => list.items,
  });

function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

export const useCreateApiToken = () =>
  useRefreshAfter((input: CreateApiTokenInput) =>
    apiFetch<CreatedApiToken>(basePath, { method: "POST", body: input }),
  );

export const useRevokeApiToken = () =>
  useRefreshAfter((id: string) =>
    apiFetch<void>(`${basePath}/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );

/** The example the profile page and the README give: list one's tickets with the token. */
export const curlExample = (token: string, baseURL: string) =>
  `curl -H "Authorization: Bearer ${token}" ${baseURL}/api/tickets`;
