import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  CreatedScimToken,
  CreateScimTokenInput,
  ScimTokenList,
} from "#shared/scim/scim-token.schemas.ts";

export const scimTokenKeys = { all: ["scim-tokens"] as const };

const basePath = "/api/admin/scim/tokens";

/** The SCIM base URL and the tokens not revoked, newest first (administrators only). */
export const scimTokenListQuery = () =>
  queryOptions({
    queryKey: scimTokenKeys.all,
    queryFn: ({ signal }) => apiFetch<ScimTokenList>(basePath, { signal }),
  });

function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scimTokenKeys.all }),
  });
}

export const useCreateScimToken = () =>
  useRefreshAfter((input: CreateScimTokenInput) =>
    apiFetch<CreatedScimToken>(basePath, { method: "POST", body: input }),
  );

export const useRevokeScimToken = () =>
  useRefreshAfter((id: string) =>
    apiFetch<void>(`${basePath}/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );
