import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type { SavedView, ViewInput, ViewList } from "#shared/views/view.schemas.ts";

export const viewKeys = {
  all: ["views"] as const,
  list: () => [...viewKeys.all, "list"] as const,
};

const viewPath = (viewId: string) => `/api/views/${encodeURIComponent(viewId)}`;

/** The views the person may open, each with its count for them (decision 071). */
export const viewListQuery = () =>
  queryOptions({
    queryKey: viewKeys.list(),
    queryFn: ({ signal }) => apiFetch<ViewList>("/api/views", { signal }),
    select: (list) => list.items,
  });

/** Any change: the list (and its counts) is read again. */
function useRefreshAfter<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: viewKeys.all }),
  });
}

export const useSaveView = () =>
  useRefreshAfter(({ id, input }: { id: string | null; input: Partial<ViewInput> & { name: string } }) =>
    apiFetch<SavedView>(id ? viewPath(id) : "/api/views", { method: id ? "PUT" : "POST", body: input }),
  );

export const useDeleteView = () =>
  useRefreshAfter((id: string) => apiFetch<void>(viewPath(id), { method: "DELETE" }));
