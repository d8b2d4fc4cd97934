import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "#client/lib/api-client.ts";
import type {
  CustomField,
  CustomFieldInput,
  CustomFieldList,
} from "#shared/custom-fields/custom-field.schemas.ts";
import { settingsKeys } from "./settings.api.ts";

const base = "/api/admin/settings/custom-fields";
const adminFieldsKey = [...settingsKeys.all, "custom-fields"] as const;

/** Every custom field, retired ones included (Admin settings). */
export const adminCustomFieldsQuery = () =>
  queryOptions({
    queryKey: adminFieldsKey,
    queryFn: ({ signal }) => apiFetch<CustomFieldList>(base, { signal }),
  });

/** After any change: the list, the history, and every form's and filter's fields (["custom-fields"]). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminFieldsKey }),
      queryClient.invalidateQueries({ queryKey: settingsKeys.history() }),
      queryClient.invalidateQueries({ queryKey: ["custom-fields"] }),
    ]);
}

export function useSaveCustomField() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CustomFieldInput }) =>
      apiFetch<CustomField>(id ? `${base}/${id}` : base, { method: id ? "PUT" : "POST", body: input }),
    onSuccess: refresh,
  });
}

export function useReorderCustomFields() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (fieldIds: string[]) =>
      apiFetch<CustomFieldList>(`${base}/order`, { method: "PUT", body: { fieldIds } }),
    onSuccess: refresh,
  });
}

export function useSetCustomFieldRetired() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, retired }: { id: string; retired: boolean }) =>
      apiFetch<CustomField>(`${base}/${id}/retired`, { method: "PUT", body: { retired } }),
    onSuccess: refresh,
  });
}
